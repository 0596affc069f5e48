// Questions asked of the matrix: which GPU model is this, what can its
// architecture do, what does this CUDA release need, which framework build is
// installed. Pure functions; pointers are into the Matrix, nullptr when unknown.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "matrix/matrix.hpp"

namespace gpucheck {

const GpuModel* find_gpu_by_id(const Matrix& m, std::string_view id);
// "10de:2330", either case.
const GpuModel* find_gpu_by_pci_id(const Matrix& m, std::string_view pci_id);
// nvidia-smi's product name ("NVIDIA H100 80GB HBM3"): a model whose name is
// the same (ignoring case) wins; else the longest of the name_patterns found
// in the lower-cased name, the first model listed on a tie.
const GpuModel* find_gpu_by_name(const Matrix& m, std::string_view product_name);
// The derived table's row for a PCI id ("10de:2c02"), or by the product name
// the driver prints ("NVIDIA GeForce RTX 5080", with or without "NVIDIA "):
// the first row naming it, or nullptr where rows naming it disagree on the
// compute capability.
const GpuId* find_gpu_id(const Matrix& m, std::string_view pci_id);
const GpuId* find_gpu_id_by_name(const Matrix& m, std::string_view product_name);
// A name that is no one model ("A100", "RTX 5090" in prose): the compute
// capability every model of the matrix so named shares, else nothing.
std::optional<Version> family_compute_capability(const Matrix& m, std::string_view name);

// By major.minor: "8.6" and "8.60" are the same architecture.
const ArchPrecisions* find_arch_precisions(const Matrix& m, std::string_view compute_capability);
const ArchPrecisions* find_arch_precisions(const Matrix& m, const Version& compute_capability);

// The lowest release of the same major.minor ("12.1" and nvcc's "12.1.105"
// both find 12.1.0 when the matrix lists 12.1.0 and 12.1.1), except that a
// version with a patch finds that very release when it is listed ("12.1.1").
const CudaRelease* find_cuda_release(const Matrix& m, std::string_view cuda_version);
const CudaRelease* find_cuda_release(const Matrix& m, const Version& cuda_version);
const CudaFamily* find_cuda_family(const Matrix& m, int major);
// A driver branch by its major version (535); nullptr when the table lacks it.
const DriverBranch* find_driver_branch(const Matrix& m, int branch);

// The builds of `framework` (compared ignoring case, '_' as '-') for an
// installed version such as "2.1.0+cu121" and a variant such as "cu121": an
// entry's version matches when its components lead the installed one ("2.1"
// matches 2.1.x, "2.1.0" only 2.1.0; the local "+cu121" does not count; an
// entry naming a post release, "0.4.0.post1", only that one). Most specific
// entry (most version components, then a post release named) first, then
// matrix order.
std::vector<const FrameworkVariant*> find_framework_variants(const Matrix& m, std::string_view framework,
                                                             std::string_view installed_version,
                                                             std::string_view variant);
// The build PyPI serves under a bare installed version ("2.15.0", no local
// tag): the most specific `pypi_default` entry whose version leads it. With
// the installed build's CUDA known ("13.2", from torch/version.py), only an
// entry of the same CUDA major.minor: a conda or source build of another
// CUDA is not the wheel and is not judged by the wheel's arch list.
const FrameworkVariant* find_pypi_default(const Matrix& m, std::string_view framework, std::string_view installed_version,
                                          const std::optional<std::string>& cuda);
// The variant a local version names: "2.1.0+cu121" -> "cu121"; "" when none.
std::string_view variant_of_version(std::string_view installed_version);

// The ROCm release entry for an installed version ("6.0.2"): the most
// specific entry whose components lead it ("6.0.2" if listed, else "6.0");
// nullptr when none does ("6.0" never matches 6.10.0).
const RocmRelease* find_rocm_release(const Matrix& m, std::string_view installed_version);

// A well-known model by its id ("llama-2-70b"), its Hugging Face repository
// ("meta-llama/Llama-2-70b-hf") or that repository's name ("Llama-2-70b-hf"),
// or its name ("Llama 2 70B"), ignoring case and punctuation.
const KnownModel* find_model(const Matrix& m, std::string_view name);

// NGC releases of a framework ("pytorch"), newest release first.
std::vector<const NgcRelease*> find_ngc_releases(const Matrix& m, std::string_view framework);

}  // namespace gpucheck
