// The matrix's tables about the platform gpucheck reads rather than judges:
// GPU libraries' names, NVIDIA's library wheels, PCIe transfer rates and the
// CUDA error codes the code names. Apart from the compatibility tables
// because the probes read them before any matrix is loaded
// (platform_knowledge.hpp); format in docs/matrix.md.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace gpucheck {

// Sonames a framework object's DT_NEEDED entry starts with when it names a
// GPU library (the loader probe resolves only those), by the family that
// ships them: "libcublas" covers libcublas.so.12 and libcublasLt.so.12.
struct SonamePrefixes {
  std::string family;                 // "cuda-toolkit", "rocm"
  std::vector<std::string> prefixes;  // "libcublas", "libnvidia-"
  std::vector<std::string> sources;
  bool operator==(const SonamePrefixes&) const = default;
};

// A shim library that dlopen()s its sub-libraries at run time, so they are
// no DT_NEEDED entry of anything (cuDNN 8 and 9).
struct SubLibraries {
  std::string library;               // "cudnn"
  std::string shim;                  // "libcudnn.so.9"
  std::vector<std::string> sonames;  // "libcudnn_graph.so.9", in the order they are resolved
  std::vector<std::string> sources;
  bool operator==(const SubLibraries&) const = default;
};

// NVIDIA's wheels of one library, by their PyPI names (PEP 503 normal form).
struct LibraryWheels {
  std::string library;                    // as the facts name it: "cudnn", "cudart", "tensorrt"
  std::vector<std::string> wheels;        // carry the library's files: "nvidia-cudnn-cu12"
  std::vector<std::string> metapackages;  // name its version but carry no files: "tensorrt"
  std::vector<std::string> sources;
  bool operator==(const LibraryWheels&) const = default;
};

// One PCIe generation: the rate sysfs reports, and the line encoding that
// leaves the payload's share of it.
struct PcieGeneration {
  int generation = 0;                   // 4
  double transfer_rate_gts = 0;         // 16.0
  std::optional<std::string> encoding;  // "128b/130b"; absent where the payload share is unconfirmed
  std::optional<std::string> note;      // why the encoding is absent
  std::vector<std::string> sources;
  bool operator==(const PcieGeneration&) const = default;
};

// A CUresult the code refers to by name (cuda.h).
struct CudaError {
  int code = 0;      // 34
  std::string name;  // "CUDA_ERROR_STUB_LIBRARY"
  std::vector<std::string> sources;
  bool operator==(const CudaError&) const = default;
};

}  // namespace gpucheck
