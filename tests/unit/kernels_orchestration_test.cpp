// The kernel checks' orchestration against the fake libcuda (tests/fake_cuda):
// the forked children, the watchdog, the restarts and the facts are real;
// only the driver is a double. It computes nothing: a "correct" run is one
// whose description hands the fake the expected output bytes, written here
// from the same CPU reference the checks compare against.
#include <stdlib.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "builtin/builtin_knowledge.hpp"
#include "kernels/catalog.hpp"
#include "kernels/reference.hpp"
#include "kernels/run.hpp"
#include "rules/knowledge.hpp"
#include "fake_cuda_support.hpp"
#include "test_support.hpp"

using namespace gpucheck;
using namespace gpucheck::kernels;
using namespace gpucheck::test;

namespace {

const KernelCheck& check(const KernelFacts& f, const std::string& precision) {
  REQUIRE(f.gpus.size() >= 1);
  for (auto& c : f.gpus[0].checks)
    if (c.precision == precision) return c;
  FAIL("no check " << precision);
  throw;
}
// The check would outlive a temporary KernelFacts: keep the facts in a variable.
const KernelCheck& check(const KernelFacts&& f, const std::string& precision) = delete;

}  // namespace

TEST_CASE("kernels: a JIT failure is reported with the JIT's error log", "[kernels][fake_cuda]") {
  FakeDriver s(kFakeH100 + "jit_fail gpucheck_wgmma_f16_m64n256k16 code=218 log=\"ptxas application ptx input, line 9; fatal : Unsupported .version 8.0\"\n");
  const KernelFacts f = run_kernel_checks(fake_request({"fp16"}));
  REQUIRE_FALSE(f.error);
  const auto& c = check(f, "fp16");
  CHECK(to_string(c.status) == "jit_failed");
  CHECK(c.jit_ok == false);
  CHECK(c.jit_code == 218);
  CHECK(c.jit_error.value_or("") == "CUDA_ERROR_INVALID_PTX: ptxas application ptx input, line 9; fatal : Unsupported .version 8.0");
  CHECK(c.kernel.value_or("") == "gpucheck_wgmma_f16_m64n256k16");  // sm_90 picks its own sm_90a variant
  CHECK(c.ptx_target.value_or("") == "sm_90a");
  CHECK(c.expected);
  CHECK(c.expected_source == "ptx_target");
  CHECK(kernels_exit_code(f) == 1);
}

TEST_CASE("kernels: a driver too old for a kernel's PTX version gets the next variant, and says so", "[kernels][fake_cuda]") {
  // H100 on a driver whose JIT predates PTX 8.0 (wgmma): the bf16 check runs
  // mma.sync instead, and passes; the same refusal for a reason other than
  // the PTX version (fp16 here) stays a JIT failure.
  FakeDriver s(kFakeH100 +
               "jit_fail gpucheck_wgmma_bf16_m64n256k16 code=222 log=\"ptxas application ptx input, line 4; fatal : Unsupported .version 8.0; current version is '7.8'\"\n"
               "jit_fail gpucheck_wgmma_f16_m64n256k16 code=218 log=\"ptxas fatal : Unknown instruction\"\n");
  KernelRequest req = fake_request({"bf16", "fp16"});
  req.session.sustained_s = 0.2;
  req.session.sample_s = 0.1;
  s.append("kernel gpucheck_mma_bf16_m16n8k16 output=" +
           s.write("bf16.bin", expected_bytes(kernel_named("gpucheck_mma_bf16_m16n8k16"), req.session)));
  const KernelFacts f = run_kernel_checks(req);
  const auto& bf16 = check(f, "bf16");
  INFO(bf16.reason.value_or("") << bf16.jit_error.value_or(""));
  CHECK(to_string(bf16.status) == "passed");
  CHECK(bf16.kernel.value_or("") == "gpucheck_mma_bf16_m16n8k16");
  CHECK(bf16.ptx_target.value_or("") == "sm_80");
  CHECK(bf16.ptx_version.value_or("") == "7.0");
  CHECK(bf16.instruction.value_or("").find("mma.sync") == 0);
  CHECK_THAT(bf16.jit_fallback.value_or(""), Catch::Contains("refused gpucheck_wgmma_bf16_m64n256k16 (PTX 8.0, sm_90a): "
                                                              "CUDA_ERROR_UNSUPPORTED_PTX_VERSION"));
  CHECK_THAT(bf16.jit_fallback.value_or(""), Catch::EndsWith("ran gpucheck_mma_bf16_m16n8k16 instead"));
  CHECK_FALSE(bf16.jit_error);
  const auto& fp16 = check(f, "fp16");
  CHECK(to_string(fp16.status) == "jit_failed");
  CHECK(fp16.jit_code == 218);
  CHECK_FALSE(fp16.jit_fallback);
  // The sustained run falls back the same way.
  REQUIRE(f.gpus[0].sustained);
  CHECK(f.gpus[0].sustained->kernel.value_or("") == "gpucheck_mma_bf16_m16n8k16");
  CHECK(to_string(f.gpus[0].sustained->status) == "ran");
  CHECK(f.gpus[0].sustained->jit_fallback);
  const auto j = to_json(f);
  for (auto& c : j["gpus"][0]["checks"]) CHECK(c["jit_fallback"].is_string() == (c["precision"] == "bf16"));
}

TEST_CASE("kernels: an output the fake never writes fails as unwritten", "[kernels][fake_cuda]") {
  FakeDriver s(kFakeH100);
  const KernelFacts f = run_kernel_checks(fake_request({"bf16"}));
  const auto& c = check(f, "bf16");
  CHECK(to_string(c.status) == "failed");
  CHECK(c.correct == false);
  CHECK(c.elements_checked == c.elements_unwritten);
  CHECK(c.elements_unwritten == std::uint64_t{8 * 4 * 32 * 128});  // 8 tiles of a warpgroup, 128 accumulators a lane
  CHECK(c.first_mismatch.value_or("").find("the poison (never written)") != std::string::npos);
}

TEST_CASE("kernels: the expected output passes, with a rate and a datasheet ratio", "[kernels][fake_cuda]") {
  FakeDriver s(kFakeH100);
  KernelRequest req = fake_request({"fp32", "int8"});
  const std::string out32 = s.write("fp32.bin", expected_bytes(kernel_named("gpucheck_fma_f32"), req.session));
  const std::string out8 = s.write("int8.bin", expected_bytes(kernel_named("gpucheck_wgmma_s8_m64n256k32"), req.session));
  std::ofstream(s.dir.path() / "driver.txt", std::ios::app)
      << "kernel gpucheck_fma_f32 output=" << out32 << " time_ms=20\n"
      << "kernel gpucheck_wgmma_s8_m64n256k32 output=" << out8 << " time_ms=20\n";
  // A synthetic matrix: one model and its architecture, figures made up for the test.
  Matrix m;
  m.version = "synthetic";
  GpuModel g;
  g.id = "h100-synthetic";
  g.name_patterns = {"h100 80gb hbm3"};
  g.tflops = {{"fp32", 67.0}, {"int8", 1979.0}};
  m.gpus.push_back(g);
  m.arch_precisions.push_back(ArchPrecisions{test::version("9.0"), "Hopper", {"fp64", "fp32", "tf32", "fp16", "bf16", "fp8", "int8"}, {}});
  req.matrix = &m;
  const KernelFacts f = run_kernel_checks(req);
  REQUIRE_FALSE(f.error);
  CHECK(f.matrix_version == "synthetic");
  CHECK(f.driver_version == "12.2");
  const auto& gpu = f.gpus[0];
  CHECK(gpu.model == "h100-synthetic");
  CHECK(gpu.architecture == "Hopper");
  CHECK(gpu.pci_bus_id == "0000:18:00.0");
  for (const char* p : {"fp32", "int8"}) {
    const auto& c = check(f, p);
    INFO(p << ": " << c.reason.value_or("") << c.first_mismatch.value_or("") << c.launch_error.value_or(""));
    CHECK(to_string(c.status) == "passed");
    CHECK(c.correct == true);
    CHECK(c.elements_wrong == 0u);
    CHECK(c.expected_source == "matrix");
    CHECK(c.seconds == Approx(0.020));
    REQUIRE(c.tflops);
    CHECK(*c.tflops > 0);
    REQUIRE(c.ratio);
    CHECK(*c.ratio == Approx(*c.tflops / *c.datasheet_tflops));
  }
  CHECK(check(f, "fp32").datasheet_tflops == 67.0);
  CHECK(kernels_exit_code(f) == 0);
}

TEST_CASE("kernels: a launch failure is reported and the next check runs in a fresh child", "[kernels][fake_cuda]") {
  FakeDriver s(kFakeH100 + "kernel gpucheck_fma_f64 launch_error=701\nkernel gpucheck_fma_f32 sync_error=700\n");
  const KernelFacts f = run_kernel_checks(fake_request({"fp64", "fp32", "tf32"}));
  const auto& f64 = check(f, "fp64");
  CHECK(to_string(f64.status) == "launch_failed");
  CHECK(f64.launch_code == 701);
  CHECK(f64.launch_error.value_or("") == "cuLaunchKernel returned CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES");
  const auto& f32 = check(f, "fp32");
  CHECK(to_string(f32.status) == "launch_failed");
  CHECK(f32.launch_error.value_or("") == "cuCtxSynchronize returned CUDA_ERROR_ILLEGAL_ADDRESS");
  CHECK(to_string(check(f, "tf32").status) == "failed");  // ran (in a third child): the fake wrote nothing
  CHECK(f.gpus[0].child_restarts == 2);
}

TEST_CASE("kernels: a kernel that never finishes is killed by the watchdog", "[kernels][fake_cuda]") {
  FakeDriver s(kFakeH100 + "kernel gpucheck_wgmma_bf16_m64n256k16 hang=1\n");
  KernelRequest req = fake_request({"bf16", "fp16"});
  req.step_timeout = Millis(1500);
  const auto start = std::chrono::steady_clock::now();
  const KernelFacts f = run_kernel_checks(req);
  const auto took = std::chrono::steady_clock::now() - start;
  const auto& c = check(f, "bf16");
  CHECK(to_string(c.status) == "timed_out");
  CHECK(c.reason.value_or("").find("no answer within 1500 ms") == 0);
  CHECK(to_string(check(f, "fp16").status) == "failed");  // the next check ran after the restart
  CHECK(took < std::chrono::seconds(10));
  CHECK(kernels_exit_code(f) == 1);
}

TEST_CASE("kernels: a crash of the child becomes a result", "[kernels][fake_cuda]") {
  FakeDriver s(kFakeH100 + "kernel gpucheck_wgmma_tf32_m64n256k8 crash=1\n");
  const KernelFacts f = run_kernel_checks(fake_request({"tf32", "fp8_e4m3"}));
  const auto& c = check(f, "tf32");
  CHECK(to_string(c.status) == "crashed");
  CHECK(c.reason.value_or("").find("signal 11") == 0);
  CHECK(to_string(check(f, "fp8_e4m3").status) == "failed");
  CHECK(f.gpus[0].child_restarts == 1);
}

TEST_CASE("kernels: a hang in cuInit is a run that could not start, not a hung launcher", "[kernels][fake_cuda]") {
  FakeDriver s(kFakeH100 + "hang cuInit\n");
  KernelRequest req = fake_request({"fp32"});
  req.first_line = Millis(1000);
  const KernelFacts f = run_kernel_checks(req);
  REQUIRE(f.error);
  CHECK(f.error->find("no answer within 1000 ms") != std::string::npos);
  CHECK(kernels_exit_code(f) == 2);
}

TEST_CASE("kernels: cuInit failing, or no libcuda, is exit code 2", "[kernels][fake_cuda]") {
  FakeDriver s("driver_version 12020\ninit 100\n");
  KernelFacts f = run_kernel_checks(fake_request({}));
  CHECK(f.error.value_or("") == "cuInit returned 100 (CUDA_ERROR_NO_DEVICE)");
  CHECK(kernels_exit_code(f) == 2);
  KernelRequest none;
  f = run_kernel_checks(none);
  CHECK(f.error.value_or("").find("no libcuda.so.1") == 0);
  CHECK(kernels_exit_code(f) == 2);
}

TEST_CASE("kernels: AMD GPUs are waived, not failed", "[kernels][fake_cuda]") {
  KernelRequest req;
  req.amd_gpus = {{"0000:c1:00.0", "Instinct MI300X"}};
  const KernelFacts f = run_kernel_checks(req);
  REQUIRE(f.gpus.size() == 1);
  CHECK(to_string(f.gpus[0].status) == "waived");
  CHECK(f.gpus[0].reason.value_or("").find("not available for AMD GPUs yet") != std::string::npos);
  CHECK_FALSE(f.error);
  CHECK(kernels_exit_code(f) == 0);
}

TEST_CASE("kernels: a Turing GPU gets the sm_75 variants and no BF16 or FP8", "[kernels][fake_cuda]") {
  FakeDriver s("driver_version 12020\ndevice name=\"Tesla T4\" uuid=GPU-5e7a1c0b-9f3d-4a6e-8b21-0c4d7e9f1a24 cc=7.5 sms=2 mem=16000000000 bus=00000000:3b:00.0\n");
  const KernelFacts f = run_kernel_checks(fake_request({"fp16", "int8", "bf16", "fp8_e5m2"}));
  CHECK(check(f, "fp16").kernel.value_or("") == "gpucheck_mma_f16_m16n8k8");
  CHECK(check(f, "int8").kernel.value_or("") == "gpucheck_mma_s8_m8n8k16");
  CHECK(to_string(check(f, "bf16").status) == "not_expected");
  CHECK_FALSE(check(f, "bf16").expected);
  CHECK(to_string(check(f, "fp8_e5m2").status) == "not_expected");
}

TEST_CASE("kernels: wgmma runs on 9.0 only, tcgen05 on the 10.x family, Ada and the 12.x family get mma.sync", "[kernels][fake_cuda]") {
  // sm_90a code loads on 9.0 devices alone (the "a" targets are not forward
  // compatible), sm_100f code on 10.0 and 10.3, and INT8's sm_100a on 10.0
  // alone; other GPUs get the newest portable variant.
  const char* mma_s8 = "gpucheck_mma_s8_m16n8k32";
  for (auto [cc, fp16, fp8, int8] :
       {std::tuple{"9.0", "gpucheck_wgmma_f16_m64n256k16", "gpucheck_wgmma_e4m3_m64n256k32", "gpucheck_wgmma_s8_m64n256k32"},
        std::tuple{"10.0", "gpucheck_tcgen05_f16_m128n256k16", "gpucheck_tcgen05_e4m3_m128n256k32", "gpucheck_tcgen05_s8_m128n256k32"},
        std::tuple{"10.3", "gpucheck_tcgen05_f16_m128n256k16", "gpucheck_tcgen05_e4m3_m128n256k32", mma_s8},
        std::tuple{"12.0", "gpucheck_mma_f16_m16n8k16", "gpucheck_mma_e4m3_m16n8k32", mma_s8},
        std::tuple{"8.9", "gpucheck_mma_f16_m16n8k16", "gpucheck_mma_e4m3_m16n8k32", mma_s8}}) {
    INFO(cc);
    FakeDriver s(std::string("driver_version 12090\ndevice name=\"synthetic GPU\" uuid=GPU-5e7a1c0b-9f3d-4a6e-8b21-0c4d7e9f1a25 cc=") +
                 cc + " sms=2 mem=16000000000 bus=00000000:3b:00.0\n");
    const KernelFacts f = run_kernel_checks(fake_request({"fp16", "fp8_e4m3", "int8"}));
    CHECK(check(f, "fp16").kernel.value_or("") == fp16);
    CHECK(check(f, "fp8_e4m3").kernel.value_or("") == fp8);
    CHECK(check(f, "int8").kernel.value_or("") == int8);
    // --portable: the mma.sync variant everywhere, Hopper and Blackwell included.
    KernelRequest portable = fake_request({"fp16", "fp8_e4m3", "int8"});
    portable.portable = true;
    const KernelFacts p = run_kernel_checks(portable);
    CHECK(check(p, "fp16").kernel.value_or("") == "gpucheck_mma_f16_m16n8k16");
    CHECK(check(p, "fp8_e4m3").kernel.value_or("") == "gpucheck_mma_e4m3_m16n8k32");
    CHECK(check(p, "int8").kernel.value_or("") == mma_s8);
  }
}

TEST_CASE("kernels: a 10.0 driver before PTX 8.8 runs BF16 with mma.sync instead of tcgen05, and says so", "[kernels][fake_cuda]") {
  FakeDriver s("driver_version 12080\ndevice name=\"synthetic GPU\" uuid=GPU-5e7a1c0b-9f3d-4a6e-8b21-0c4d7e9f1a2a cc=10.0 sms=2 "
               "mem=16000000000 bus=00000000:3b:00.0\n"
               "jit_fail gpucheck_tcgen05_bf16_m128n256k16 code=222 log=\"Unsupported .version 8.8; current version is '8.7'\"\n");
  const KernelFacts f = run_kernel_checks(fake_request({"bf16"}));
  const auto& c = check(f, "bf16");
  CHECK(c.kernel.value_or("") == "gpucheck_mma_bf16_m16n8k16");
  CHECK(c.ptx_target.value_or("") == "sm_80");
  CHECK_THAT(c.jit_fallback.value_or(""), Catch::Contains("refused gpucheck_tcgen05_bf16_m128n256k16 (PTX 8.8, sm_100f)"));
}

TEST_CASE("kernels: FP4 and FP6 run through mma.sync on the 12.x family and through tcgen05 on the 10.x family", "[kernels][fake_cuda]") {
  Matrix m;  // synthetic: three Blackwell compute capabilities, with FP6 and FP4
  m.version = "synthetic";
  for (const char* cc : {"12.1", "10.0", "10.3"})
    m.arch_precisions.push_back(ArchPrecisions{test::version(cc), "Blackwell", {"fp64", "fp32", "fp16", "fp8", "fp6", "fp4"}, {}});
  for (const char* cc : {"12.1", "10.0", "10.3"}) {
    INFO(cc);
    FakeDriver s(std::string("driver_version 12090\ndevice name=\"synthetic GPU\" uuid=GPU-5e7a1c0b-9f3d-4a6e-8b21-0c4d7e9f1a26 cc=") +
                 cc + " sms=2 mem=16000000000 bus=00000000:3b:00.0\n");
    KernelRequest req = fake_request({"fp64", "fp4", "fp6_e3m2", "fp6_e2m3"});
    req.matrix = &m;
    const KernelFacts f = run_kernel_checks(req);
    // FP64 is no FP6 because its name starts alike: expected, and run.
    CHECK(check(f, "fp64").expected);
    CHECK(check(f, "fp64").kernel.value_or("") == "gpucheck_fma_f64");
    const bool family12 = std::string(cc) == "12.1";
    for (auto [p, fmt] : {std::pair{"fp4", "e2m1"}, std::pair{"fp6_e3m2", "e3m2"}, std::pair{"fp6_e2m3", "e2m3"}}) {
      const auto& c = check(f, p);
      CHECK(c.expected);
      // sm_120f code runs on the 12.x family from 12.0 on, sm_100f on 10.0 and 10.3.
      CHECK(c.kernel.value_or("") == (family12 ? std::string("gpucheck_mma_") + fmt + "_m16n8k32"
                                               : std::string("gpucheck_tcgen05_") + fmt + "_m128n256k32"));
      CHECK(c.ptx_target.value_or("") == (family12 ? "sm_120f" : "sm_100f"));
      CHECK(to_string(c.status) == "failed");  // it ran: the fake wrote nothing
      CHECK_FALSE(c.jit_fallback);
    }
  }
}

TEST_CASE("kernels: a tcgen05 FP4 check passes with the expected accumulators, a 10.0 driver before PTX 8.8 gets sm_100a", "[kernels][fake_cuda]") {
  const std::string entry = "gpucheck_tcgen05_e2m1_m128n256k32", fallback = entry + "_sm100a";
  const std::string gpu = "device name=\"synthetic GPU\" uuid=GPU-5e7a1c0b-9f3d-4a6e-8b21-0c4d7e9f1a29 cc=10.0 sms=2 "
                          "mem=16000000000 bus=00000000:3b:00.0\n";
  {
    FakeDriver s("driver_version 12090\n" + gpu);
    KernelRequest req = fake_request({"fp4"});
    const std::string out = s.write("fp4.bin", expected_bytes(kernel_named(entry), req.session));
    std::ofstream(s.dir.path() / "driver.txt", std::ios::app) << "kernel " << entry << " output=" << out << " time_ms=20\n";
    const KernelFacts f = run_kernel_checks(req);
    const auto& c = check(f, "fp4");
    INFO(c.first_mismatch.value_or("") << c.reason.value_or(""));
    CHECK(to_string(c.status) == "passed");
    CHECK(c.elements_checked == std::uint64_t{8 * 128 * 256});  // 8 tiles of 128 x 256
    CHECK(c.tflops);
  }
  {  // r570 (CUDA 12.8) knows PTX 8.7: the sm_100f file is refused, the sm_100a copy (PTX 8.6) loads.
    FakeDriver s("driver_version 12080\n" + gpu + "jit_fail " + entry +
                 " code=222 log=\"Unsupported .version 8.8; current version is '8.7'\"\n");
    const KernelFacts f = run_kernel_checks(fake_request({"fp4"}));
    const auto& c = check(f, "fp4");
    CHECK(c.kernel.value_or("") == fallback);
    CHECK(c.ptx_target.value_or("") == "sm_100a");
    CHECK(c.ptx_version.value_or("") == "8.6");
    CHECK(c.jit_fallback);
    CHECK(to_string(c.status) == "failed");  // it ran: the fake wrote nothing
  }
}

TEST_CASE("kernels: a 12.0 GPU whose driver predates PTX 8.8 runs the sm_120a FP4, --portable says why FP4 is left out", "[kernels][fake_cuda]") {
  FakeDriver s("driver_version 12080\ndevice name=\"synthetic GPU\" uuid=GPU-5e7a1c0b-9f3d-4a6e-8b21-0c4d7e9f1a28 cc=12.0 sms=2 "
               "mem=16000000000 bus=00000000:3b:00.0\n"
               "jit_fail gpucheck_mma_e2m1_m16n8k32 code=222 log=\"Unsupported .version 8.8; current version is '8.7'\"\n");
  KernelRequest req = fake_request({"fp4"});
  const KernelFacts f = run_kernel_checks(req);
  const auto& fp4 = check(f, "fp4");
  CHECK(fp4.kernel.value_or("") == "gpucheck_mma_e2m1_m16n8k32_sm120a");
  CHECK(fp4.ptx_target.value_or("") == "sm_120a");
  CHECK(fp4.ptx_version.value_or("") == "8.7");
  CHECK(to_string(fp4.status) == "failed");  // it ran: the fake wrote nothing
  CHECK(fp4.jit_fallback);
  Matrix m;  // synthetic: 12.0 with FP4
  m.version = "synthetic";
  m.arch_precisions.push_back(ArchPrecisions{test::version("12.0"), "Blackwell", {"fp32", "fp4"}, {}});
  req.matrix = &m;
  req.portable = true;
  const KernelFacts portable = run_kernel_checks(req);
  const auto& left_out = check(portable, "fp4");
  CHECK(to_string(left_out.status) == "not_implemented");
  CHECK_THAT(left_out.reason.value_or(""), Catch::StartsWith("--portable leaves out its kernels"));
}

TEST_CASE("kernels: with the embedded matrix, every precision an architecture lists gets its check", "[kernels][fake_cuda]") {
  auto k = load_knowledge("");
  REQUIRE(k);
  for (auto [cc, want] : {std::pair<const char*, std::vector<std::string>>{
                              "9.0", {"fp64", "fp32", "tf32", "fp16", "bf16", "int8", "fp8_e4m3", "fp8_e5m2"}},
                          std::pair<const char*, std::vector<std::string>>{
                              "10.0", {"fp64", "fp32", "tf32", "fp16", "bf16", "int8", "fp8_e4m3", "fp8_e5m2", "fp6_e3m2",
                                       "fp6_e2m3", "fp4"}},
                          std::pair<const char*, std::vector<std::string>>{
                              "12.0", {"fp64", "fp32", "tf32", "fp16", "bf16", "int8", "fp8_e4m3", "fp8_e5m2", "fp6_e3m2",
                                       "fp6_e2m3", "fp4"}}}) {
    INFO(cc);
    FakeDriver s(std::string("driver_version 12090\ndevice name=\"synthetic GPU\" uuid=GPU-5e7a1c0b-9f3d-4a6e-8b21-0c4d7e9f1a27 cc=") +
                 cc + " sms=2 mem=16000000000 bus=00000000:3b:00.0\n");
    KernelRequest req = fake_request({});
    req.matrix = &k->matrix;
    const KernelFacts f = run_kernel_checks(req);
    REQUIRE(f.gpus.size() == 1);
    std::vector<std::string> expected;
    for (auto& c : f.gpus[0].checks) {
      if (!c.expected) continue;
      expected.push_back(c.precision);
      CHECK(c.kernel);  // each expected one has a kernel that ran
      CHECK(c.expected_source == "matrix");
    }
    CHECK(expected == want);
  }
}

TEST_CASE("kernels: bandwidth checks the copied data and rates the PCIe link", "[kernels][fake_cuda]") {
  FakeDriver s(kFakeH100 + "memcpy_ms 0.5\n");
  KernelRequest req = fake_request({"bandwidth"});
  std::string pattern(req.session.copy_bytes, '\0');
  for (std::uint64_t i = 0; i < req.session.copy_bytes / 4; ++i) {
    const std::uint32_t w = copy_pattern(i);
    std::memcpy(&pattern[i * 4], &w, 4);
  }
  std::ofstream(s.dir.path() / "driver.txt", std::ios::app)
      << "kernel gpucheck_copy_b128 param=1 time_ms=1 output=" << s.write("copy.bin", pattern) << "\n";
  req.pcie["0000:18:00.0"] = PcieLinkInfo{1, 16, 5, 16};
  const KernelFacts f = run_kernel_checks(req);
  REQUIRE(f.gpus.size() == 1);
  const auto& bw = f.gpus[0].bandwidth;
  REQUIRE(bw.size() == 3);
  CHECK(bw[0].kind == "device_copy");
  CHECK(bw[0].correct == true);
  CHECK(bw[0].gbs.value_or(0) == Approx(2.0 * 64 * 1024 * 10 / 0.010 / 1e9));  // 10 launches of 1 ms
  CHECK(bw[1].kind == "host_to_device");
  CHECK(bw[1].gbs.value_or(0) == Approx(16 * 1024 / 0.0005 / 1e9));
  CHECK(bw[1].expected_source == "pcie gen5 x16");
  CHECK(bw[1].expected_gbs.value_or(0) == Approx(32.0 * 128 / 130 * 16 / 8));
  CHECK(bw[1].ratio.value_or(0) == Approx(*bw[1].gbs / *bw[1].expected_gbs));
  // Without the pattern the copy "arrives" as the poison, and fails.
  FakeDriver bare(kFakeH100);
  const KernelFacts g = run_kernel_checks(fake_request({"bandwidth"}));
  REQUIRE(g.gpus[0].bandwidth.size() == 3);
  CHECK(g.gpus[0].bandwidth[0].correct == false);
  CHECK(to_string(g.gpus[0].bandwidth[0].status) == "failed");
}

TEST_CASE("kernels: PCIe rates per generation", "[kernels]") {
  CHECK(pcie_gbs(3, 16).value() == Approx(15.754).epsilon(0.001));
  CHECK(pcie_gbs(4, 16).value() == Approx(31.508).epsilon(0.001));
  CHECK(pcie_gbs(1, 1).value() == Approx(0.25));
  CHECK_FALSE(pcie_gbs(6, 16));
  CHECK_FALSE(pcie_gbs(4, 0));
}

TEST_CASE("kernels: a step the deadline never reached is unknown, not a failure", "[kernels]") {
  // Hand-made results (synthetic), as run_device leaves them when the run's deadline passes.
  const auto with = [](std::vector<std::pair<std::string, StepStatus>> checks, StepStatus bandwidth) {
    KernelFacts f;
    GpuKernelFacts g;
    g.status = GpuRunStatus::ran;
    for (auto& [precision, status] : checks) {
      KernelCheck c;
      c.precision = precision;
      c.status = status;
      c.expected = true;
      g.checks.push_back(c);
    }
    BandwidthCheck b;
    b.kind = "device_copy";
    b.status = bandwidth;
    g.bandwidth.push_back(b);
    f.gpus.push_back(g);
    return f;
  };
  CHECK(kernels_exit_code(with({{"fp32", StepStatus::passed}, {"bf16", StepStatus::skipped}}, StepStatus::skipped)) == 0);
  CHECK(kernels_exit_code(with({{"fp32", StepStatus::failed}, {"bf16", StepStatus::skipped}}, StepStatus::skipped)) == 1);
  CHECK(kernels_exit_code(with({{"fp32", StepStatus::passed}}, StepStatus::timed_out)) == 1);
  // Nothing reached a verdict: the checks could not run.
  CHECK(kernels_exit_code(with({{"fp32", StepStatus::skipped}, {"bf16", StepStatus::skipped}}, StepStatus::skipped)) == 2);
  CHECK(kernels_exit_code(with({{"fp32", StepStatus::not_implemented}}, StepStatus::passed)) == 0);
}
