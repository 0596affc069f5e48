// The value formats the matrix accepts. Each check returns nullopt when the
// text is acceptable, else what was expected (for the error's detail).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace gpucheck::matrix_values {

using Check = std::optional<std::string> (*)(std::string_view);

// "12.4.1", "550.54.15", "545": numbers separated by dots, nothing else.
std::optional<std::string> plain_version(std::string_view s);
// A framework release: a plain version, or one with PEP 440's post-release
// segment ("0.4.0.post1"), another build of the same version.
std::optional<std::string> release_version(std::string_view s);
// "2.2.0a0+81ea7a4": starts like a version; a suffix is kept (NGC's builds).
std::optional<std::string> version_with_suffix(std::string_view s);
// "9.0": major.minor, both numbers.
std::optional<std::string> compute_capability(std::string_view s);
// "https://host/...": no other scheme, no spaces.
std::optional<std::string> https_url(std::string_view s);
// "2026-11-29"
std::optional<std::string> iso_date(std::string_view s);
// "2024-04" or "2024-04-11"
std::optional<std::string> year_month(std::string_view s);
// "10de:2330" (either case)
std::optional<std::string> pci_id(std::string_view s);
// "fp64", "fp32", "tf32", "fp16", "bf16", "fp8", "fp6", "fp4", "int8", "int4"
std::optional<std::string> precision(std::string_view s);
// A GPU model's figure: "memory_gib", "bandwidth_gbs", "nvlink" or
// "tflops." and a precision name ("tflops.fp16")
std::optional<std::string> gpu_figure(std::string_view s);
// "h100-sxm5-80gb", "flash-attn": lower case letters, digits, '.', '_', '-'
std::optional<std::string> identifier(std::string_view s);
// "meta-llama/Llama-2-70b-hf": a Hugging Face repository, owner/name
std::optional<std::string> hf_repo(std::string_view s);
// "cu121", "rocm6.0", "cpu", or "" for a framework with one build
std::optional<std::string> variant(std::string_view s);
// "nvidia" or "amd"
std::optional<std::string> vendor(std::string_view s);
// "gfx942", "gfx90a"
std::optional<std::string> gfx_target(std::string_view s);
// os-release's ID and a VERSION_ID (or its leading part): "ubuntu 24.04", "ol 9".
std::optional<std::string> os_release(std::string_view s);
// a substring of nvidia-smi's product name, matched after lower-casing it
std::optional<std::string> name_pattern(std::string_view s);
// anything but the empty string
std::optional<std::string> non_empty(std::string_view s);
// "libcublas", "libnvidia-": the start of a library's soname
std::optional<std::string> soname_prefix(std::string_view s);
// "libcudnn_ops.so.9": a soname with its major version
std::optional<std::string> soname(std::string_view s);
// "nvidia-cudnn-cu12": a PyPI project name in PEP 503 normal form
std::optional<std::string> wheel_name(std::string_view s);
// "CUDA_ERROR_STUB_LIBRARY": a CUresult's name in cuda.h
std::optional<std::string> cuda_error_name(std::string_view s);
// "128b/130b": payload bits per line bits of a link's encoding
std::optional<std::string> line_encoding(std::string_view s);
struct LineEncoding {
  int payload_bits = 0;  // 128
  int line_bits = 0;     // 130
};
std::optional<LineEncoding> parse_line_encoding(std::string_view s);
// How an entry was confirmed: "docs" (read on the vendor's own page),
// "copy" (read in verbatim third-party copies of the vendor's table that
// agree; the vendor's page, cited, could not be read where the entry was
// made), or "wheel YYYY-MM-DD" (read from a package by matrix/tools).
std::optional<std::string> checked(std::string_view s);

}  // namespace gpucheck::matrix_values
