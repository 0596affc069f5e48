// What a shared library's file name and place say about it.
#pragma once
#include <optional>
#include <string>
#include <string_view>
namespace gpucheck {
// "/usr/lib/x86_64-linux-gnu/libcuda.so.550.90.07" with stem "libcuda.so" -> "550.90.07".
// Only versions of two or more parts count: "libcuda.so.1" is a soname, not a version.
std::optional<std::string> library_version_from_name(std::string_view path, std::string_view stem);
// A CUDA toolkit's link-time stub (…/stubs/libcuda.so): it exists so programs
// link without a driver, and makes cuInit fail with CUDA_ERROR_STUB_LIBRARY (34).
bool is_stub_library_path(std::string_view path);
// A forward-compatibility copy from the cuda-compat package (…/compat/libcuda.so.*).
bool is_compat_library_path(std::string_view path);
}  // namespace gpucheck
