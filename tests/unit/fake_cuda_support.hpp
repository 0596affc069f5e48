// What the tests that drive the fake libcuda (tests/fake_cuda) share: a
// driver description written to a temporary file, a kernel of the catalogue by entry name, and the bytes a
// right answer holds.
#pragma once

#include <stdlib.h>

#include <cstring>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/catalog.hpp"
#include "kernels/reference.hpp"
#include "kernels/run.hpp"
#include "kernels/session.hpp"
#include "test_support.hpp"

namespace gpucheck::test {

// One H100 as the fake driver describes it (synthetic: two SMs, so runs are short).
inline const std::string kFakeH100 =
    "driver_version 12020\n"
    "device name=\"NVIDIA H100 80GB HBM3\" uuid=GPU-5e7a1c0b-9f3d-4a6e-8b21-0c4d7e9f1a23 cc=9.0 sms=2 mem=85520809984 "
    "bus=00000000:18:00.0\n";

// A fake driver described by `text`, for the scope (GPUCHECK_FAKE_CUDA).
struct FakeDriver {
  TempDir dir;
  std::optional<ScopedEnv> env;
  explicit FakeDriver(const std::string& text) { env.emplace("GPUCHECK_FAKE_CUDA", write("driver.txt", text)); }
  std::string write(const std::string& name, const std::string& content) {
    const auto p = dir.path() / name;
    write_file(p, content);
    return p.string();
  }
  void append(const std::string& line) { std::ofstream(dir.path() / "driver.txt", std::ios::app) << line << "\n"; }
};

inline const kernels::KernelSpec& kernel_named(const std::string& entry) {
  for (auto& k : kernels::all_kernels())
    if (entry == k.entry) return k;
  throw std::runtime_error("no kernel " + entry);
}

// The bytes a right answer would hold: the reference's expected values.
inline std::string expected_bytes(const kernels::KernelSpec& k, const kernels::SessionOptions& o) {
  const kernels::CheckData data = kernels::make_check_data(k, o.tiles, o.seed);
  std::string out(data.d_bytes(), '\0');
  for (std::size_t i = 0; i < data.expected.size(); ++i) {
    if (k.elem_bytes == 8) std::memcpy(&out[i * 8], &data.expected[i], 8);
    else if (std::string(k.precision) == "int8") { auto v = static_cast<std::int32_t>(data.expected[i]); std::memcpy(&out[i * 4], &v, 4); }
    else { auto f = static_cast<float>(data.expected[i]); std::memcpy(&out[i * 4], &f, 4); }
  }
  return out;
}

// A kernel-check request against the fake libcuda, small and quick: small
// copies, and a step watchdog long enough for the CPU work of a tcgen05
// step under ASan at -O0 on a loaded 2-core machine (over 1.5 s, measured);
// a test of the watchdog sets its own.
inline kernels::KernelRequest fake_request(std::vector<std::string> precisions) {
  kernels::KernelRequest r;
  r.libcuda = {std::string(GPUCHECK_FAKE_CUDA_DIR) + "/libcuda.so.1"};
  r.precisions = std::move(precisions);
  r.step_timeout = Millis(10000);
  r.first_line = Millis(5000);
  r.overall = Millis(30000);
  r.session.copy_bytes = 64 * 1024;
  r.session.host_chunk = 16 * 1024;
  return r;
}

}  // namespace gpucheck::test
