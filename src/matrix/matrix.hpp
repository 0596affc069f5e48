// The compatibility matrix as plain data: what gpucheck knows about GPUs,
// CUDA releases, framework builds and NGC containers, each fact with the URL
// it came from. Loaded from JSON (matrix_load.cpp), schema in docs/matrix.md.
// Rules live beside the tables (rules/rule.hpp); the engine only compares.
// Every field the loader checks as a version or compute capability is a
// Version, parsed there once: lookups compare numbers, not strings, and
// text() is the value exactly as the matrix wrote it ("12.4" stays "12.4"),
// which is what reports print.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fit/model_shape.hpp"
#include "matrix/platform_tables.hpp"
#include "util/version.hpp"

namespace gpucheck {

inline constexpr const char* kMatrixSchema = "gpucheck.matrix/1";

// One GPU model. Throughput figures are dense (no sparsity) datasheet peaks.
struct GpuModel {
  std::string id;                         // "h100-sxm5-80gb"
  std::string name;                       // "NVIDIA H100 80GB HBM3"
  std::string vendor;                     // "nvidia", "amd"
  std::vector<std::string> pci_ids;       // "10de:2330"
  std::vector<std::string> name_patterns; // substrings of nvidia-smi's product name, lower case
  std::string architecture;               // "Hopper", "CDNA3"
  std::optional<Version> compute_capability;      // "9.0" (NVIDIA)
  std::optional<std::string> gfx_target;          // "gfx942" (AMD)
  std::optional<double> memory_gib;
  std::optional<double> bandwidth_gbs;            // GB/s, decimal
  std::map<std::string, double> tflops;           // "fp64", "fp32", "tf32", "fp16", "bf16", "fp8", "int8" (TOPS)
  bool data_center = false;                       // forward compatibility applies
  std::optional<std::string> nvlink;              // "NVLink 4, 900 GB/s"
  std::optional<std::string> note;                // where the vendor's own figures disagree, which were kept
  // Each figure's own page: "memory_gib", "bandwidth_gbs", "nvlink" and
  // "tflops.<precision>" -> URL. The loader requires one for every figure
  // given and refuses one for a figure that is not (gpu_figures.hpp).
  std::map<std::string, std::string> figure_sources;
  std::vector<std::string> sources;               // URLs of the other facts: ids, names, compute capability
  bool operator==(const GpuModel&) const = default;
};

// One NVIDIA PCI device id the drivers support, derived by
// matrix/tools/gpu_ids.py from NVIDIA's and the PCI ID Repository's tables:
// what a GPU the curated models do not cover is, by its id or its name.
struct GpuId {
  std::string pci_id;                          // "10de:2c02"
  std::string chip;                            // "GB203"
  std::vector<std::string> names;              // as the driver names it: "NVIDIA GeForce RTX 5080"
  std::string architecture;                    // "Blackwell"; empty with no compute capability
  std::optional<Version> compute_capability;   // absent where no NVIDIA page gives the chip's
  std::string checked;                         // the date the tool derived it, "2026-12-05"
  std::vector<std::string> sources;
  bool operator==(const GpuId&) const = default;
};

// What an architecture (by compute capability) has in hardware.
struct ArchPrecisions {
  Version compute_capability;        // "8.0"; matched by major.minor
  std::string architecture;          // "Ampere"
  std::vector<std::string> precisions;  // "fp64", "fp32", "tf32", "fp16", "bf16", "fp8", "int8", "fp4", "fp6"
  std::vector<std::string> sources;
  bool operator==(const ArchPrecisions&) const = default;
};

struct CudaRelease {
  Version version;                          // "12.4.1"
  std::optional<Version> min_driver_linux;  // the toolkit driver: "550.54.15"; none when NVIDIA names none
  std::optional<std::string> date;          // "2024-04"
  std::optional<std::string> checked;       // how it was confirmed: "docs", "copy", "wheel 2026-12-01"
  std::optional<std::string> note;          // why a field is missing, where sources differ
  std::vector<std::string> sources;
  bool operator==(const CudaRelease&) const = default;
};

// A CUDA major family: minor-version compatibility and supported architectures.
struct CudaFamily {
  int major = 0;                                   // 12
  std::optional<Version> minor_compat_min_driver;  // "525.60.13"; nullopt: none (before 11)
  std::optional<Version> min_compute_capability;   // oldest arch it builds for: "5.0"
  std::optional<Version> max_compute_capability;   // newest arch known: "12.0"
  std::vector<std::string> sources;
  bool operator==(const CudaFamily&) const = default;
};

// A framework release and one of its build variants.
struct FrameworkVariant {
  std::string framework;                    // "torch", "tensorflow", "jaxlib", "flash-attn", "vllm", "transformer-engine"
  Version version;                          // "2.1" (matches 2.1.x) or exact "2.1.0"
  std::string variant;                      // "cu121", "rocm6.0", "cpu", "" when one build
  std::optional<Version> cuda;              // "12.1"
  std::optional<Version> rocm;              // "6.0"
  // The cuDNN it was built with: it refuses another major or an older minor
  // at start-up (XLA's and PyTorch's checks).
  std::optional<Version> cudnn;             // "9.8"
  std::vector<Version> arch_list;           // compiled SASS: "5.0", "8.0", "9.0" (compute capabilities)
  std::vector<std::string> gfx_targets;     // a ROCm build's code objects: "gfx90a", "gfx942"
  std::optional<Version> ptx;               // the compute capability PTX is embedded for, if any
  std::optional<Version> min_compute_capability;  // libraries that state one (flash-attn 2: 8.0)
  std::optional<Version> max_compute_capability;
  // The build pip installs from PyPI under the bare version ("2.15.0", no
  // local tag): an installed version without a variant is judged by it.
  bool pypi_default = false;
  std::optional<Version> torch;             // the torch release it pins with ==: "2.14.0" (vLLM)
  std::optional<std::string> checked;       // how it was confirmed: "docs", "wheel 2026-12-01" (matrix_values::checked)
  std::optional<std::string> note;          // what could not be confirmed, or how sources differ
  std::vector<std::string> sources;
  bool operator==(const FrameworkVariant&) const = default;
};

struct NgcRelease {
  std::string framework;                    // "pytorch", "tensorflow", "jax"
  std::string tag;                          // "24.01-py3"
  Version release;                          // "24.01"
  std::optional<Version> cuda, cudnn, nccl, framework_version;  // framework_version: "2.2.0a0+81ea7a4"
  Version min_driver;                       // "545" or "545.23.08": the native floor
  std::vector<Version> forward_compat_branches;  // data-center GPUs: "470.57", "525.85", "535.86"
  std::optional<Version> min_compute_capability;
  std::vector<std::string> sources;
  bool operator==(const NgcRelease&) const = default;
};

// A ROCm release (or series): the gfx targets AMD lists for it on Linux.
// "Supported" and "deprecated" are AMD's own two states; a target in neither
// is one AMD says the release does not support.
struct RocmRelease {
  Version version;                                  // "6.0" covers 6.0.x; "6.0.2" only 6.0.2
  std::vector<std::string> gfx_targets;             // supported: "gfx942", "gfx90a"
  std::vector<std::string> deprecated_gfx_targets;  // still shipped, to be removed: "gfx906"
  // The Linux distributions it supports, as os-release's ID and a VERSION_ID
  // or its prefix: "ubuntu 24.04", "rhel 9.4", "ol 9"; empty: not read.
  std::vector<std::string> os;
  std::optional<std::string> note;                  // how the lists were read where sources differ
  std::vector<std::string> sources;
  bool operator==(const RocmRelease&) const = default;
};

// An NVIDIA driver branch as NVIDIA's data-center driver lifecycle names
// it: its kind and the month its support ends.
enum class DriverBranchKind { new_feature, production, long_term_support };
std::string_view to_string(DriverBranchKind k);  // "new feature", "production", "long-term support"
std::optional<DriverBranchKind> driver_branch_kind_named(std::string_view name);
std::string driver_branch_kind_names();  // for an error that says what was expected
std::string branch_name(int branch);     // 535 -> "R535", as NVIDIA names branches

struct DriverBranch {
  int branch = 0;                                    // 535
  DriverBranchKind kind = DriverBranchKind::production;
  std::optional<std::string> end_of_life;            // "2026-06"; none: NVIDIA gives none
  std::vector<std::string> sources;
  bool operator==(const DriverBranch&) const = default;
};

// An Xid, as NVIDIA's Xid catalogue describes it: what it means and what to
// do. The rules layer makes one rule of each (rules/xid_rules.hpp), so the
// severity and action are that layer's words, checked there.
struct XidEntry {
  int code = 0;                              // 79
  std::string name;                          // "GPU has fallen off the bus"
  std::string meaning;                       // one sentence: what happened, what it takes
  std::string severity;                      // "error", "warning", "info"
  std::string action;                        // "reboot": rules/action.hpp
  std::optional<std::string> rule;           // the rule id, when an older one is kept: "xid-fallen-off-bus"
  std::optional<std::string> nvidia_bucket;  // NVIDIA's immediate action bucket: "RESTART_BM"
  std::vector<std::string> sources;
  bool operator==(const XidEntry&) const = default;
};

// Xid 154 names the recovery the driver asks for in its message ("… to 0x2
// (Node Reboot Required)"): each text with what it takes.
struct XidRecoveryAction {
  std::string text;      // "Node Reboot Required"
  std::string severity;  // as XidEntry
  std::string action;
  std::vector<std::string> sources;
  bool operator==(const XidRecoveryAction&) const = default;
};

// A well-known model `gpucheck fit --model` names: its config.json's shape
// as published (docs/fit.md).
struct KnownModel {
  std::string id;    // "llama-2-70b"
  std::string name;  // "Llama 2 70B"
  std::string repo;  // the Hugging Face repository whose config.json it is: "meta-llama/Llama-2-70b-hf"
  fit::ModelShape shape;
  std::optional<std::string> note;
  std::vector<std::string> sources;
  bool operator==(const KnownModel&) const = default;
};

// Where the matrix in use came from, for `matrix show` and the reports
// (docs/matrix-updates.md).
struct MatrixProvenance {
  std::string source = "embedded";  // "embedded", "cached" (gpucheck matrix update), "given" (a whole --matrix)
  std::string path;                 // cached: the bundle file; given: the path named
  std::string url;                  // cached: where it was downloaded from
  std::string fetched;              // cached: when, "2026-12-02T03:10:44Z"
  std::string signed_by;            // cached: the key's id and where it is trusted from
  std::string note;                 // why a cached matrix was passed over, when one was
  bool operator==(const MatrixProvenance&) const = default;
};

struct Matrix {
  std::string version;  // "2026.11.1"
  std::string date;     // "2026-11-29"
  std::string origin;   // "embedded", a path, "embedded + layer.json", "cached 2026.12.9 + …"
  MatrixProvenance provenance;
  std::vector<GpuModel> gpus;
  std::vector<GpuId> gpu_ids;
  std::vector<ArchPrecisions> arch_precisions;
  std::vector<CudaRelease> cuda_releases;
  std::vector<CudaFamily> cuda_families;
  std::vector<FrameworkVariant> frameworks;
  std::vector<NgcRelease> ngc;
  std::vector<RocmRelease> rocm_releases;
  std::vector<DriverBranch> driver_branches;
  std::vector<XidEntry> xids;
  std::vector<XidRecoveryAction> xid_recovery_actions;
  std::vector<KnownModel> models;
  // Read by the probes from the embedded documents alone (platform_knowledge.hpp).
  std::vector<SonamePrefixes> soname_prefixes;
  std::vector<SubLibraries> sub_libraries;
  std::vector<LibraryWheels> library_wheels;
  std::vector<PcieGeneration> pcie_generations;
  std::vector<CudaError> cuda_errors;
  // Rules are parsed by rules/rule_load.cpp from the same documents.
  bool operator==(const Matrix&) const = default;
};

}  // namespace gpucheck
