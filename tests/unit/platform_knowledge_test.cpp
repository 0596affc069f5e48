// The platform tables as their users read them give the answers the C++
// tables they replaced gave (the values below are those tables, verbatim).
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>

#include "kernels/run.hpp"
#include "matrix/platform_knowledge.hpp"

using namespace gpucheck;

TEST_CASE("platform: the GPU soname prefixes are the loader probe's former list", "[platform]") {
  const std::set<std::string> former = {
      "libcuda",   "libcudnn",   "libcublas",   "libcufft",     "libcufile",     "libcurand",        "libcusolver",
      "libcusparse", "libcupti", "libnccl",     "libnvrtc",     "libnvJitLink",  "libnvToolsExt",    "libnvtx",
      "libnvidia-", "libnvshmem", "libnvinfer", "libnvjpeg",    "libamdhip64",   "libMIOpen",        "librccl",
      "libroc",    "libhip",     "libhsa-runtime64", "libamd_comgr", "libmagma"};
  std::set<std::string> now;
  for (const auto& family : gpu_soname_prefixes()) now.insert(family.prefixes.begin(), family.prefixes.end());
  CHECK(now == former);
}

TEST_CASE("platform: cuDNN's sub-libraries per shim, in the order they are resolved", "[platform]") {
  const auto& table = sub_library_table();
  REQUIRE(table.size() == 2);
  CHECK(table[0].shim == "libcudnn.so.9");
  CHECK(table[0].sonames == std::vector<std::string>{"libcudnn_graph.so.9", "libcudnn_engines_precompiled.so.9",
                                                     "libcudnn_engines_runtime_compiled.so.9", "libcudnn_heuristic.so.9",
                                                     "libcudnn_ops.so.9", "libcudnn_cnn.so.9", "libcudnn_adv.so.9"});
  CHECK(table[1].shim == "libcudnn.so.8");
  CHECK(table[1].sonames == std::vector<std::string>{"libcudnn_ops_infer.so.8", "libcudnn_ops_train.so.8",
                                                     "libcudnn_cnn_infer.so.8", "libcudnn_cnn_train.so.8",
                                                     "libcudnn_adv_infer.so.8", "libcudnn_adv_train.so.8"});
}

TEST_CASE("platform: NVIDIA's wheels per library are the library probe's former lists", "[platform]") {
  // dist names as the probe compares them (normalised with underscores).
  const std::map<std::string, std::set<std::string>> former = {
      {"cudart", {"nvidia_cuda_runtime", "nvidia_cuda_runtime_cu11", "nvidia_cuda_runtime_cu12"}},
      {"cudnn", {"nvidia_cudnn_cu11", "nvidia_cudnn_cu12", "nvidia_cudnn_cu13"}},
      {"nccl", {"nvidia_nccl_cu11", "nvidia_nccl_cu12", "nvidia_nccl_cu13"}},
      {"cublas", {"nvidia_cublas", "nvidia_cublas_cu11", "nvidia_cublas_cu12"}},
      {"cufft", {"nvidia_cufft", "nvidia_cufft_cu11", "nvidia_cufft_cu12"}},
      {"nvrtc", {"nvidia_cuda_nvrtc", "nvidia_cuda_nvrtc_cu11", "nvidia_cuda_nvrtc_cu12"}},
      {"nvjitlink", {"nvidia_nvjitlink", "nvidia_nvjitlink_cu12"}},
      {"tensorrt", {"tensorrt", "tensorrt_libs", "tensorrt_cu12_libs"}},
  };
  std::map<std::string, std::set<std::string>> now;
  for (const auto& lib : library_wheel_table())
    for (const auto* names : {&lib.wheels, &lib.metapackages})
      for (auto name : *names) {
        std::replace(name.begin(), name.end(), '-', '_');
        now[lib.library].insert(name);
      }
  CHECK(now == former);
}

TEST_CASE("platform: PCIe rates and payload per lane are the former constants, exactly", "[platform][pci]") {
  const std::map<int, double> rates{{1, 2.5}, {2, 5.0}, {3, 8.0}, {4, 16.0}, {5, 32.0}, {6, 64.0}, {7, 128.0}};
  CHECK(pcie_transfer_rates() == rates);
  // The kernel checks' former switch: rate x efficiency, bit for bit.
  const double efficiency[] = {0.8, 0.8, 128.0 / 130, 128.0 / 130, 128.0 / 130};
  for (int gen = 1; gen <= 5; ++gen) {
    const double gt = rates.at(gen), eff = efficiency[gen - 1];
    CHECK(pcie_lane_gbits(gen) == std::optional<double>(gt * eff));
    for (int width : {1, 2, 4, 8, 16, 32}) CHECK(kernels::pcie_gbs(gen, width) == std::optional<double>(gt * eff * width / 8));
  }
  // Flit generations, and generations the table does not list, have no expectation.
  for (int gen : {0, 6, 7, 8}) {
    CHECK_FALSE(pcie_lane_gbits(gen));
    CHECK_FALSE(kernels::pcie_gbs(gen, 16));
  }
}

TEST_CASE("platform: CUDA error codes by their cuda.h names", "[platform][cuda_driver]") {
  CHECK(cuda_error_code("CUDA_ERROR_STUB_LIBRARY") == 34);
  CHECK(cuda_error_code("CUDA_ERROR_UNSUPPORTED_PTX_VERSION") == 222);
  CHECK_FALSE(cuda_error_code("CUDA_ERROR_NOT_LISTED"));
}

TEST_CASE("platform knowledge: a wheel's library, in any PEP 503 spelling", "[platform]") {
  CHECK(library_of_wheel("nvidia-cudnn-cu12") == "cudnn");
  CHECK(library_of_wheel("NVIDIA_CUDNN_CU12") == "cudnn");
  CHECK(library_of_wheel("nvidia.nccl-cu13") == "nccl");
  CHECK(library_of_wheel("tensorrt") == "tensorrt");  // a metapackage states its library's version
  CHECK_FALSE(library_of_wheel("torch"));
  CHECK_FALSE(library_of_wheel(""));
  CHECK_FALSE(library_of_wheel("\xff\xfe"));
}
