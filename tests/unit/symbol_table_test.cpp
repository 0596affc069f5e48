// Entry-point tables resolved against a real system library (glibc's libm),
// so the lookups are dlsym's own answers; and the messages the kernel checks
// build from them when a library lacks the entry points they need.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "host/dynamic_library.hpp"
#include "host/symbol_table.hpp"
#include "kernels/driver_api.hpp"
#include "kernels/nvml_api.hpp"
#include "util/strings.hpp"

using namespace gpucheck;

namespace {
struct MathApi {
  double (*cos)(double) = nullptr;
  double (*sqrt)(double) = nullptr;
  double (*absent)(double) = nullptr;
};
}  // namespace

TEST_CASE("symbol tables fill what the library has and name what it lacks", "[host][symbol_table]") {
  auto lib = DynamicLibrary::open({"libm.so.6"});
  REQUIRE(lib);
  MathApi api;
  // A stale value must not survive a failed lookup.
  api.absent = [](double x) { return x; };
  const std::vector<std::string> missing = resolve_symbols(
      *lib, {{"cos", &api.cos}, {"gpucheck_no_such_symbol", &api.absent}, {"sqrt", &api.sqrt}});
  CHECK(missing == std::vector<std::string>{"gpucheck_no_such_symbol"});
  REQUIRE(api.cos != nullptr);
  REQUIRE(api.sqrt != nullptr);
  CHECK(api.absent == nullptr);
  // The pointers are the real functions, not just non-null.
  CHECK(api.cos(0.0) == 1.0);
  CHECK(api.sqrt(16.0) == 4.0);
}

TEST_CASE("symbol tables keep the order of the missing names", "[host][symbol_table]") {
  auto lib = DynamicLibrary::open({"libm.so.6"});
  REQUIRE(lib);
  MathApi api;
  const auto missing =
      resolve_symbols(*lib, {{"gpucheck_second", &api.sqrt}, {"cos", &api.cos}, {"gpucheck_first", &api.absent}});
  CHECK(missing == std::vector<std::string>{"gpucheck_second", "gpucheck_first"});
  CHECK(api.cos != nullptr);
  CHECK(api.sqrt == nullptr);
}

TEST_CASE("the kernel checks name every driver entry point a library lacks, in list order", "[kernels][symbol_table]") {
  auto lib = DynamicLibrary::open({"libm.so.6"});
  REQUIRE(lib);
  kernels::cu::Api api;
  const std::string missing = kernels::cu::resolve(*lib, api);
  CHECK_THAT(missing, Catch::StartsWith("cuInit, cuDriverGetVersion, cuGetErrorName, "));
  CHECK_THAT(missing, Catch::EndsWith(", cuEventDestroy_v2, cuDeviceCanAccessPeer, cuCtxEnablePeerAccess, cuCtxDisablePeerAccess, cuMemcpyPeerAsync"));
#define GPUCHECK_COUNT(name, ret, params) +1
  constexpr std::size_t kEntryPoints = 0 GPUCHECK_CUDA_KERNEL_ENTRY_POINTS(GPUCHECK_COUNT);
#undef GPUCHECK_COUNT
  CHECK(split(missing, ',').size() == kEntryPoints);
  CHECK(api.cuInit == nullptr);
  CHECK(api.cuEventDestroy_v2 == nullptr);
}

TEST_CASE("NVML telemetry names the entry points a library lacks, the older clock-reasons name last", "[kernels][symbol_table]") {
  const kernels::nvml::Telemetry t({"libm.so.6"}, "0000:01:00.0");
  CHECK_FALSE(t.ok());
  CHECK(t.why() ==
        "libm.so.6 lacks entry points the samples need: nvmlInit_v2, nvmlShutdown, nvmlErrorString, "
        "nvmlDeviceGetHandleByPciBusId_v2, nvmlDeviceGetClockInfo, "
        "nvmlDeviceGetPowerUsage, nvmlDeviceGetCurrentClocksThrottleReasons");
  CHECK_FALSE(t.read().sm_clock_mhz.has_value());
}
