// The local tag of a GPU framework's version (PEP 440's "+local" label) as
// the CUDA, ROCm and cuDNN it was built with.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace gpucheck {

// "cu121" -> "12.1", "cu118" -> "11.8", "cuda12" -> "12"; "rocm6.0" -> hip "6.0".
std::optional<std::string> cuda_from_local_tag(std::string_view tag);
std::optional<std::string> hip_from_local_tag(std::string_view tag);
// jaxlib's "cuda12.cudnn89" -> "8.9".
std::optional<std::string> cudnn_from_local_tag(std::string_view tag);

}  // namespace gpucheck
