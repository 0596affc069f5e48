// /proc/driver/nvidia files: real captures (tests/data/SOURCES.md).
#include <catch2/catch.hpp>

#include "parse/nvidia_proc.hpp"
#include "test_support.hpp"

using namespace gpucheck;
using gpucheck::test::data;

TEST_CASE("proprietary kernel module, x86_64", "[nvidia_proc]") {
  auto m = parse_nvrm_version(data("proc/proc-driver-nvidia-version_proprietary-x86_64_384.98.txt"));
  REQUIRE(m);
  CHECK(m->version == "384.98");
  CHECK(m->flavor == "proprietary");
  CHECK(m->arch == "x86_64");
  CHECK(m->build == "Thu Oct 26 15:16:01 PDT 2017");
  CHECK(m->gcc_version == "7.2.0 (Ubuntu 7.2.0-8ubuntu3)");
}

TEST_CASE("open kernel module, x86_64, NVIDIA build", "[nvidia_proc]") {
  auto m = parse_nvrm_version(data("proc/proc-driver-nvidia-version_open-x86_64_565.57.01.txt"));
  REQUIRE(m);
  CHECK(m->version == "565.57.01");
  CHECK(m->flavor == "open");
  CHECK(m->arch == "x86_64");
  CHECK_THAT(*m->build, Catch::StartsWith("Release Build"));
}

TEST_CASE("open kernel module built by a distribution (no date)", "[nvidia_proc]") {
  auto m = parse_nvrm_version(data("proc/proc-driver-nvidia-version_open-x86_64-archlinux_525.60.11.txt"));
  REQUIRE(m);
  CHECK(m->version == "525.60.11");
  CHECK(m->flavor == "open");
}

TEST_CASE("open kernel module, aarch64 (Jetson numbering)", "[nvidia_proc]") {
  auto m = parse_nvrm_version(data("proc/proc-driver-nvidia-version_open-aarch64-jetson-orin_35.3.1.txt"));
  REQUIRE(m);
  CHECK(m->version == "35.3.1");
  CHECK(m->arch == "aarch64");
}

TEST_CASE("broken version files give a reason", "[nvidia_proc][bad-input]") {
  CHECK(parse_nvrm_version("").problem().reason == Reason::malformed);
  CHECK_THAT(parse_nvrm_version("").problem().detail, Catch::Contains("NVRM version"));
  CHECK_THAT(parse_nvrm_version("NVRM version: NVIDIA UNIX x86_64 Kernel Module\n").problem().detail,
             Catch::Contains("no version"));
  std::string garbage("\x7f" "ELF\x02\x01\x01\0\0\0", 10);
  CHECK_THAT(parse_nvrm_version(garbage).problem().detail, Catch::Contains("binary"));
  // Truncated in the middle of the first line: the version is still there.
  CHECK(parse_nvrm_version("NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Au")->version == "535.104.05");
}

TEST_CASE("per-GPU information file", "[nvidia_proc]") {
  // The layout of /proc/driver/nvidia/gpus/<bus>/information: "Key: \t value" (synthetic values).
  const char* text =
      "Model: \t\t NVIDIA H100 80GB HBM3\n"
      "IRQ:   \t\t 0\n"
      "GPU UUID: \t GPU-b42dd28e-ffdd-8720-1df0-98bd8cdc05b1\n"
      "Video BIOS: \t 96.00.74.00.01\n"
      "Bus Type: \t PCIe\n"
      "DMA Size: \t 52 bits\n"
      "DMA Mask: \t 0xfffffffffffff\n"
      "Bus Location: \t 0000:18:00.0\n"
      "Device Minor: \t 0\n"
      "GPU Excluded:\t No\n";
  auto g = parse_gpu_information(text);
  CHECK(g.model == "NVIDIA H100 80GB HBM3");
  CHECK(g.uuid == "GPU-b42dd28e-ffdd-8720-1df0-98bd8cdc05b1");
  CHECK(g.vbios == "96.00.74.00.01");
  CHECK(g.bus_location == "0000:18:00.0");
  CHECK(g.device_minor == "0");
  CHECK(g.excluded == "No");
  CHECK_FALSE(parse_gpu_information("").model);
}
