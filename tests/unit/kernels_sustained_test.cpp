// The sustained mode (`gpucheck kernels --duration S`) against the fake
// libcuda and the fake NVML (tests/fake_cuda, both test doubles: they compute
// and measure nothing; the fake NVML's readings are fixed, made-up values).
// The children, the watchdog and the facts are real. No test asserts a time.
#include <stdlib.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "facts/clock_events.hpp"
#include "facts/kernel_facts.hpp"
#include "kernels/catalog.hpp"
#include "kernels/nvml_api.hpp"
#include "kernels/reference.hpp"
#include "kernels/run.hpp"
#include "fake_cuda_support.hpp"
#include "test_support.hpp"

using namespace gpucheck;
using namespace gpucheck::kernels;
using namespace gpucheck::test;

namespace {

const std::string kFakeDir = GPUCHECK_FAKE_CUDA_DIR;
const std::string kBf16 = "gpucheck_wgmma_bf16_m64n256k16";  // what sm_90 runs

KernelRequest sustained_request(std::vector<std::string> precisions, bool with_nvml) {
  KernelRequest r = fake_request(std::move(precisions));
  r.session.sustained_s = 0.6;
  r.session.sample_s = 0.2;
  r.session.nvml = {with_nvml ? kFakeDir + "/libnvidia-ml.so.1" : kFakeDir + "/no-such-dir/libnvidia-ml.so.1"};
  return r;
}

}  // namespace

TEST_CASE("kernels: the sustained step samples rate, clocks, power and clock-event reasons", "[kernels][fake_cuda]") {
  FakeDriver s(kFakeH100);
  const KernelRequest req = sustained_request({"bf16"}, true);
  s.append("kernel " + kBf16 + " output=" + s.write("bf16.bin", expected_bytes(kernel_named(kBf16), req.session)));
  const KernelFacts f = run_kernel_checks(req);
  REQUIRE(f.gpus.size() == 1);
  const GpuKernelFacts& g = f.gpus[0];
  REQUIRE(g.sustained);
  const SustainedRun& run = *g.sustained;
  CHECK(run.precision == "bf16");  // sm_90's best of bf16, fp16, fp32
  CHECK(run.kernel.value_or("") == kBf16);
  CHECK(to_string(run.status) == "ran");
  CHECK(run.duration_s == 0.6);
  CHECK_FALSE(run.telemetry);
  REQUIRE_FALSE(run.samples.empty());
  const KernelCheck& bf16 = g.checks.at(0);
  REQUIRE(bf16.precision == "bf16");
  REQUIRE(bf16.tflops);
  std::optional<int> previous_temperature;
  for (auto& x : run.samples) {
    // The fake's virtual time per launch is fixed, so the interval's rate
    // equals the throughput check's: both are measured the same way.
    REQUIRE(x.tflops);
    CHECK(*x.tflops == Approx(*bf16.tflops));
    CHECK(x.sm_clock_mhz == 1980);
    CHECK(x.mem_clock_mhz == 2619);
    CHECK(x.power_w == Approx(512.25));  // the fake's 512250 mW
    CHECK(x.throttle_reasons == std::uint64_t{0x24});  // nvmlDeviceGetCurrentClocksEventReasons, preferred
    REQUIRE(x.temperature_c);
    CHECK(*x.temperature_c >= 160);  // nvmlDeviceGetTemperatureV, preferred (the fake's 60 degrees + 100)
    if (previous_temperature) CHECK(*x.temperature_c == *previous_temperature + 1);  // one fake reading each
    previous_temperature = x.temperature_c;
  }
  CHECK(kernels_exit_code(f) == 0);
  const auto j = to_json(f);
  CHECK(j["gpus"][0]["sustained"]["status"] == "ran");
  CHECK(j["gpus"][0]["sustained"]["samples"].size() == run.samples.size());
}

TEST_CASE("NVML telemetry reads the temperature with nvmlDeviceGetTemperatureV, else the older call", "[kernels][fake_cuda]") {
  const std::vector<std::string> fake = {kFakeDir + "/libnvidia-ml.so.1"};
  {
    const kernels::nvml::Telemetry t(fake, "0000:18:00.0");
    REQUIRE(t.ok());
    const kernels::nvml::Reading r = t.read();
    CHECK(r.temperature_c.value_or(-1) >= 160);  // the versioned struct call, as NVML 13 asks (the fake adds 100)
    CHECK(r.sm_clock_mhz == 1980);
  }
  {  // A driver that exports the newer call but answers NVML_ERROR_NOT_SUPPORTED.
    const ScopedEnv no_v("FAKE_NVML_NO_TEMPERATURE_V", "1");
    const kernels::nvml::Telemetry t(fake, "0000:18:00.0");
    REQUIRE(t.ok());
    const auto c = t.read().temperature_c.value_or(-1);
    CHECK(c >= 60);
    CHECK(c < 100);  // nvmlDeviceGetTemperature's reading, not the newer call's
  }
}

TEST_CASE("kernels: without NVML the sustained step says why and still measures rates", "[kernels][fake_cuda]") {
  FakeDriver s(kFakeH100);
  const KernelFacts f = run_kernel_checks(sustained_request({"fp64"}, false));
  REQUIRE(f.gpus.size() == 1);
  REQUIRE(f.gpus[0].sustained);
  const SustainedRun& run = *f.gpus[0].sustained;
  CHECK(to_string(run.status) == "ran");
  REQUIRE(run.telemetry);
  CHECK(run.telemetry->find("no NVML (libnvidia-ml.so.1) to load") == 0);
  REQUIRE_FALSE(run.samples.empty());
  for (auto& x : run.samples) {
    REQUIRE(x.tflops);
    CHECK(*x.tflops > 0);
    CHECK_FALSE(x.sm_clock_mhz);
    CHECK_FALSE(x.temperature_c);
    CHECK_FALSE(x.throttle_reasons);
  }
}

TEST_CASE("kernels: a kernel that hangs during the sustained run is killed, and its samples kept", "[kernels][fake_cuda]") {
  // Each launch sleeps 50 ms of real time, so an interval of 0.2 s holds at
  // most 4 launches: 4 calibration launches and 12 sustained ones leave at
  // least 3 samples before the 17th launch's synchronisation hangs.
  FakeDriver s(kFakeH100 + "kernel " + kBf16 + " wall_ms=50 hang_after=16\n");
  KernelRequest req = sustained_request({"fp64"}, true);
  req.session.sustained_s = 30;  // the hang, not the duration, ends it
  req.step_timeout = Millis(4000);  // the calibration before the first sample takes over 1.5 s under ASan on a busy machine
  s.append("kernel gpucheck_fma_f64 output=" + s.write("f64.bin", expected_bytes(kernel_named("gpucheck_fma_f64"), req.session)));
  const KernelFacts f = run_kernel_checks(req);
  REQUIRE(f.gpus.size() == 1);
  REQUIRE(f.gpus[0].sustained);
  const SustainedRun& run = *f.gpus[0].sustained;
  CHECK(to_string(run.status) == "timed_out");
  CHECK(run.reason.value_or("").find("no answer within 4000 ms") == 0);
  CHECK(run.samples.size() >= 3);
  CHECK(to_string(f.gpus[0].checks.at(0).status) == "passed");  // so the exit code is the sustained run's
  CHECK(kernels_exit_code(f) == 1);
}

TEST_CASE("kernels: a crash during the sustained run becomes its result", "[kernels][fake_cuda]") {
  FakeDriver s(kFakeH100 + "kernel " + kBf16 + " crash=1\n");
  const KernelRequest req = sustained_request({"fp64"}, true);
  s.append("kernel gpucheck_fma_f64 output=" + s.write("f64.bin", expected_bytes(kernel_named("gpucheck_fma_f64"), req.session)));
  const KernelFacts f = run_kernel_checks(req);
  CHECK(to_string(f.gpus.at(0).checks.at(0).status) == "passed");
  REQUIRE(f.gpus.at(0).sustained);
  CHECK(to_string(f.gpus[0].sustained->status) == "crashed");
  CHECK(f.gpus[0].sustained->reason.value_or("").find("signal 11") == 0);
  CHECK(kernels_exit_code(f) == 1);
}

TEST_CASE("kernels: a Turing GPU's sustained run uses fp16", "[kernels][fake_cuda]") {
  FakeDriver s("driver_version 12020\n"
             "device name=\"Tesla T4\" uuid=GPU-1b2c3d4e-5f60-4718-8293-a4b5c6d7e8f9 cc=7.5 sms=2 mem=15843721216 "
             "bus=00000000:3b:00.0\n");
  const KernelFacts f = run_kernel_checks(sustained_request({"fp64"}, true));
  REQUIRE(f.gpus.at(0).sustained);
  CHECK(f.gpus[0].sustained->precision == "fp16");
  CHECK(f.gpus[0].sustained->kernel.value_or("").find("_f16_") != std::string::npos);
  CHECK(to_string(f.gpus[0].sustained->status) == "ran");
}

TEST_CASE("kernels: without --duration there is no sustained run", "[kernels][fake_cuda]") {
  FakeDriver s(kFakeH100);
  KernelRequest req = sustained_request({"fp64"}, true);
  req.session.sustained_s = 0;
  const KernelFacts f = run_kernel_checks(req);
  REQUIRE(f.gpus.size() == 1);
  CHECK_FALSE(f.gpus[0].sustained);
}

TEST_CASE("kernels: clock-event reason bits are named as nvml.h names them", "[kernels]") {
  CHECK(clock_event_names(0).empty());
  CHECK(clock_event_names(0x24) == std::vector<std::string>{"sw_power_cap", "sw_thermal_slowdown"});
  CHECK(clock_event_names(0x1FF) ==
        std::vector<std::string>{"gpu_idle", "applications_clocks_setting", "sw_power_cap", "hw_slowdown", "sync_boost",
                                 "sw_thermal_slowdown", "hw_thermal_slowdown", "hw_power_brake_slowdown",
                                 "display_clock_setting"});
  CHECK(clock_event_names(0x400 | 0x8) == std::vector<std::string>{"hw_slowdown", "0x400"});
}
