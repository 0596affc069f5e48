// Facts: what the probes found, as plain data. Absent means unknown; the
// reason is a Note. The JSON form (facts_json.cpp) is versioned by
// docs/facts-schema.md; bump kFactsSchema on any incompatible change.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "facts/kernel_facts.hpp"
#include "facts/link_facts.hpp"
#include "facts/pci_vocabulary.hpp"
#include "util/result.hpp"

namespace gpucheck {

inline constexpr const char* kFactsSchema = "gpucheck.facts/1";

// Something a probe could not read, and why: the report says "unknown
// because…" instead of guessing.
struct Note {
  std::string subject;  // probe: "pci", "nvidia_smi", …
  std::string item;     // what was wanted: "kernel module version"
  Problem problem;
};

struct OsRelease {
  std::optional<std::string> id, version_id, pretty_name, version_codename;
  std::string source;
};

struct NgcImage {
  std::optional<std::string> framework;  // "pytorch", from NVIDIA_PYTORCH_VERSION & co.
  std::optional<std::string> version;    // "24.01"
  std::optional<std::string> build_id;   // NVIDIA_BUILD_ID
  std::optional<std::string> cuda_version;
};

struct ContainerFacts {
  std::optional<std::string> runtime;  // docker, podman, kubernetes, containerd, enroot, apptainer, lxc
  std::vector<std::string> evidence;   // what told us so
  std::optional<NgcImage> ngc;
};

struct SystemFacts {
  std::optional<std::string> hostname, kernel_release, arch;
  std::optional<double> uptime_seconds;  // /proc/uptime's first field: driver bugs that wait for an uptime
  OsRelease os;
  ContainerFacts container;
};

struct PciDevice {
  std::string address;  // "0000:18:00.0"
  PciVendor vendor = PciVendor::nvidia;
  PciKind kind = PciKind::gpu;
  std::string vendor_id, device_id, subsystem_vendor_id, subsystem_device_id, class_code;  // hex, no 0x
  std::optional<std::string> name;    // from pci.ids
  std::optional<std::string> driver;  // bound kernel driver; nullopt: none bound
  std::optional<int> numa_node;
  PciLink link;
  PciPath path;  // topology probe
  std::string source;
};

struct KernelModule {
  std::optional<std::string> version;      // "535.104.05"
  std::optional<std::string> flavor;       // "open" or "proprietary"
  std::optional<std::string> arch;         // "x86_64", "aarch64"
  std::optional<std::string> build;        // the rest of the NVRM line (date, builder)
  std::optional<std::string> gcc_version;  // the compiler that built it
  std::optional<std::string> sys_module_version;  // /sys/module/nvidia/version
  std::string source;
};

struct ProcGpu {
  std::string bus_location;
  std::optional<std::string> model, uuid, vbios, bus_type, device_minor, excluded;
  std::string source;
};

struct UserspaceLibrary {
  std::string soname;                      // "libcuda.so.1"
  std::optional<std::string> path;         // where the loader finds it
  std::optional<std::string> via;          // LD_LIBRARY_PATH, ld.so.cache, default directory
  std::optional<std::string> real_path;    // after following links
  std::optional<std::string> version;      // from the real file's name: libcuda.so.550.90.07
  bool stub = false;                       // a CUDA toolkit's link stub, which fails cuInit with 34
  bool compat = false;                     // a cuda-compat forward-compatibility copy
  std::vector<std::string> shadowed;       // other copies the loader would not pick
};

struct NvidiaDriverFacts {
  bool kernel_module_loaded = false;
  KernelModule kernel_module;
  std::vector<ProcGpu> gpus;
  UserspaceLibrary libcuda, libnvidia_ml;
  // The GPU device nodes in /dev: "/dev/nvidiactl", "/dev/nvidia0", …, and
  // WSL2's "/dev/dxg". A container gets those of the GPUs it was given.
  std::vector<std::string> device_nodes;
};

struct CudaDevice {
  int ordinal = 0;
  std::optional<std::string> name, uuid, compute_capability, pci_bus_id;
  std::optional<int> sm_count;
  std::optional<std::uint64_t> memory_bytes;
};

struct CudaDriverApiFacts {
  std::optional<std::string> library;  // what was loaded
  std::optional<int> init_code;        // cuInit's result
  std::optional<std::string> init_name;
  std::optional<std::string> init_message;
  std::optional<std::string> driver_version;  // cuDriverGetVersion: "12.2"
  // cuDeviceGetCount's answer; none when it failed or was not asked. A
  // device cuDeviceGet refused is counted here and missing from devices.
  std::optional<int> device_count;
  std::vector<CudaDevice> devices;
};

struct EccCounts {
  std::optional<std::int64_t> corrected, uncorrected;
};

struct SmiGpu {
  std::string pci_bus_id;  // normalised to "0000:18:00.0"
  std::optional<std::string> product_name, product_brand, architecture, uuid, vbios, serial;
  std::optional<std::string> persistence_mode, mig_mode_current, mig_mode_pending;
  std::optional<std::string> ecc_mode_current, ecc_mode_pending, compute_mode;
  EccCounts ecc_volatile, ecc_aggregate;
  std::optional<int> retired_pages_single_bit, retired_pages_double_bit;
  std::optional<bool> retired_pages_pending;
  std::optional<int> remapped_rows_correctable, remapped_rows_uncorrectable;
  std::optional<bool> remapped_rows_pending, remapped_rows_failure;
  std::optional<int> pcie_gen_current, pcie_gen_max, pcie_width_current, pcie_width_max;
  std::optional<int> clock_graphics_mhz, clock_sm_mhz, clock_mem_mhz;
  std::optional<int> clock_graphics_max_mhz, clock_sm_max_mhz, clock_mem_max_mhz;
  std::map<std::string, bool> clock_event_reasons;  // "hw_slowdown" -> active
  std::optional<int> temperature_c, temperature_slowdown_c, temperature_shutdown_c, memory_temperature_c;
  std::optional<double> power_draw_w, power_limit_w, power_max_limit_w;
  std::optional<std::string> fabric_state, fabric_status;
  std::optional<std::int64_t> memory_total_mib;
};

struct NvidiaSmiFacts {
  std::optional<std::string> driver_version, cuda_version, dtd;
  std::vector<SmiGpu> gpus;
  std::string source;
};

struct ServiceFacts {
  std::string name;  // "nvidia-fabricmanager", "nvidia-persistenced"
  bool installed = false;
  bool running = false;
  std::optional<std::string> version;
  std::string source;
};

struct XidEvent {
  std::optional<double> seconds_since_boot;
  std::optional<std::string> pci_bus_id;
  int xid = 0;
  std::string message;
};

struct KernelLogFacts {
  bool read = false;
  std::vector<XidEvent> xid_events;
  std::string source;
};


// --- the software stack ---

struct CudaToolkit {
  std::string root;                           // "/usr/local/cuda-12.4"
  std::string kind;                           // "system", "hpc_sdk", "conda", "pip"
  std::optional<std::string> version;         // "12.4.1"
  std::optional<std::string> version_source;  // the file or command it came from
  std::optional<std::string> nvcc;            // path of nvcc, when the toolkit has one
  bool active = false;                        // what a build or a job would use
  std::vector<std::string> active_because;    // "CUDA_HOME", "nvcc first on PATH", "/usr/local/cuda -> …"
};

// One install of a GPU library: a toolkit's copy, a wheel, a system package.
struct LibraryInstall {
  std::string name;                           // "cudnn", "nccl", "cublas", "cufft", "nvrtc", "nvjitlink", "tensorrt", "cudart"
  std::optional<std::string> version;         // "9.1.0", from the most exact source below
  std::optional<std::string> version_source;  // the header, dist-info or file name it came from
  std::optional<std::string> library;         // the shared object, when one was found
  std::string found_in;                       // the toolkit root, site-packages, "/usr/include", "ld.so.cache"
};

// What the dynamic loader would load for one DT_NEEDED entry of an object.
struct ResolvedNeed {
  std::string soname;                     // "libcudnn.so.9"
  std::optional<std::string> path;        // nullopt: the loader would fail ("not found")
  std::optional<std::string> via;         // "RPATH", "LD_LIBRARY_PATH", "RUNPATH", "ld.so.cache", "default directory"
  std::optional<std::string> version;     // from the real file's name, when it has one
  std::vector<std::string> other_copies;  // copies the loader would not pick
  bool shadows_bundled = false;           // a copy from outside the package wins over the one it ships
};

struct LoaderView {
  std::string object;                  // ".../site-packages/torch/lib/libtorch_cuda.so"
  std::string owner;                   // the framework or package it belongs to: "torch"
  std::vector<std::string> rpath, runpath;
  std::vector<ResolvedNeed> needed;    // GPU libraries only: CUDA, cuDNN, NCCL, cuBLAS, …
};

struct Requirement {
  std::string name;                     // normalised: "nvidia-cudnn-cu12"
  std::string specifier;                // "==8.9.2.26"; empty: any version
  std::optional<std::string> marker;    // 'platform_system == "Linux"'
  std::optional<bool> applies;          // the marker holds here (true when none); nullopt: not evaluable
  std::optional<std::string> installed; // the version installed in the same environment
  std::optional<bool> satisfied;        // nullopt: not installed, or the specifier was not understood
};

struct Distribution {
  std::string name;     // as its metadata spells it
  std::string version;
  std::string source;   // the dist-info, egg-info or conda-meta file
  std::string installer;  // "pip" (dist-info/egg-info) or "conda"
  std::vector<Requirement> requires_dist;
};

struct FrameworkBuild {
  std::string name;                        // "torch", "tensorflow", "jax", "jaxlib", "cupy", …
  std::string version;                     // "2.1.0+cu121"
  std::optional<std::string> local_tag;    // "cu121", "rocm6.0", "cpu"
  std::optional<std::string> cuda;         // the CUDA it was built for: "12.1"
  std::optional<std::string> hip;          // the ROCm/HIP it was built for
  std::optional<std::string> cudnn;        // the cuDNN it was built for, when it says
  std::optional<std::string> git_version;
  bool cpu_only = false;                   // built without CUDA and without ROCm
  std::string source;                      // the file these came from
};

// What a framework says about itself when imported (--deep only).
struct DeepFramework {
  std::string name;                                 // "torch"
  std::optional<std::string> version;
  std::optional<std::string> import_error;          // why it could not be imported
  std::optional<bool> cuda_available;
  std::optional<int> device_count;
  std::vector<std::string> arch_list;               // compiled for: "sm_80", "sm_90", …
  std::optional<std::string> cudnn_version, nccl_version;  // as loaded
  std::vector<std::string> loaded_libraries;        // GPU libraries mapped in the process (/proc/self/maps)
  std::optional<bool> tf32_matmul, tf32_cudnn;      // torch.backends.*.allow_tf32
  std::optional<std::string> float32_matmul_precision;  // "highest", "high", "medium"
  std::optional<bool> bf16_supported;
  std::optional<double> fp32_matmul_rel_error;      // a small FP32 matmul on the GPU against FP64
  std::optional<bool> fp32_matmul_looks_tf32;       // that error is TF32's, not FP32's
};

struct DeepProbeFacts {
  std::optional<std::string> error;                 // why the script gave no answer
  std::vector<DeepFramework> frameworks;
};

struct PythonEnv {
  std::string interpreter;                 // "/home/u/venv/bin/python3"
  std::string kind;                        // "venv", "conda", "system"
  std::vector<std::string> found_via;      // "PATH", "VIRTUAL_ENV", "CONDA_PREFIX", "--python"
  std::optional<std::string> version;      // "3.10.12"
  std::vector<std::string> sys_path;
  std::string sys_path_source;             // "files", "interpreter" or "conventional locations"
  std::vector<Distribution> distributions;
  std::vector<FrameworkBuild> frameworks;
  std::vector<LoaderView> loader;          // the frameworks' own shared objects, resolved
  std::optional<DeepProbeFacts> deep;
};

struct RocmInstall {
  std::string root;                           // "/opt/rocm-6.0.2"
  std::optional<std::string> version;         // "6.0.2"
  std::optional<std::string> version_source;
  bool active = false;                        // /opt/rocm points here, or ROCM_PATH names it
};

struct KfdNode {
  int node = 0;
  std::optional<std::string> gfx_target;      // "gfx942", from gfx_target_version
  std::optional<int> simd_count;
  std::optional<std::uint64_t> vram_bytes;
  std::optional<std::string> device_id;       // PCI device id, hex
  std::optional<std::string> name;            // product name: only a report gives one (KFD has none)
  std::string source;
};

struct RocmSmiFacts {
  std::optional<std::string> library;         // what was loaded
  std::optional<int> init_status;             // rsmi_init's rsmi_status_t
  std::optional<std::string> init_message;
  std::optional<std::string> version;         // rsmi_version_get
  std::optional<int> device_count;
};

struct RocmFacts {
  std::vector<RocmInstall> installs;
  std::optional<std::string> amdgpu_module_version;  // /sys/module/amdgpu/version
  std::vector<KfdNode> gpu_nodes;                     // KFD topology nodes with a GPU
  std::optional<RocmSmiFacts> smi;
  std::optional<std::string> hip_version;
  std::map<std::string, std::string> env;             // HSA_OVERRIDE_GFX_VERSION, HIP_VISIBLE_DEVICES, …
};

struct SoftwareFacts {
  std::vector<CudaToolkit> toolkits;
  std::vector<LibraryInstall> libraries;
  std::vector<PythonEnv> python;
  RocmFacts rocm;
  std::map<std::string, std::string> gpu_env;  // CUDA_VISIBLE_DEVICES, LD_LIBRARY_PATH, CUDA_HOME, …
  bool container_toolkit_injected = false;     // NVIDIA container toolkit mounted the driver in
  std::vector<std::string> container_toolkit_evidence;
  std::optional<std::string> cuda_compat;      // the cuda-compat libcuda in use, when one is
  // What put it ahead of the host's driver: "LD_LIBRARY_PATH (/usr/local/cuda/compat/lib)",
  // "/etc/ld.so.conf.d/00-cuda-compat.conf".
  std::optional<std::string> cuda_compat_entry;
};

// What `--from` read from a paste (docs/report-formats.md, "Reading a
// paste"): the blocks it recognised, the lines it did not understand, and
// the values two blocks stated differently. Absent for probed hosts.
struct ReportBlock {
  std::string kind;                 // "collect_env", "nvidia-smi -q", "pip list", …
  int first_line = 0, last_line = 0;  // 1-based, inclusive
  std::optional<std::string> note;  // what the report should say of it ("Iluvatar's ixsmi: not NVIDIA")
};

struct ReportLine {
  int line = 0;
  std::string text;
};

struct ReportStatement {
  std::string value;
  std::string source;  // "report.txt:12"
};

// One fact the paste states twice with different values; the facts keep the
// first, the finding names both.
struct ReportConflict {
  std::string fact;  // "nvidia_smi.driver_version"
  std::vector<ReportStatement> values;
};

// What a pasted out-of-memory error says ("Tried to allocate 224.00 MiB
// (GPU 0; 10.73 GiB total capacity; …; 46.44 MiB free; …)"): the bytes it
// asked for and those free, from its first line that gives them.
struct OutOfMemoryStatement {
  std::optional<std::uint64_t> requested_bytes, free_bytes;
  std::string source;  // "report.txt:9"
};

struct ReportReading {
  std::string name;  // the file ("<stdin>")
  std::vector<ReportBlock> blocks;
  std::vector<ReportLine> unread;  // the first lines not understood (at most kReportUnreadShown)
  int unread_total = 0;            // all of them
  std::vector<ReportConflict> conflicts;
  // What the paste's error lines state that no other fact holds, as kinds
  // ("bf16-unsupported", "out-of-memory"), each with the first line that
  // states it (src/importers/stated_kinds.cpp lists them): rules read them as
  // error.stated.
  std::vector<ReportStatement> stated;
  std::optional<OutOfMemoryStatement> out_of_memory;
  // Hugging Face repositories the paste names ("--model mistralai/Mistral-7B-v0.1"),
  // each once, in order, at most kReportReposKept: what a model was.
  std::vector<ReportStatement> repos;
  // Copy-rate matrices between GPUs (p2pBandwidthLatencyTest, nvbandwidth).
  std::vector<PeerRateMatrix> peer_rates;
  // nccl-tests runs (all_reduce_perf and its kin).
  std::vector<NcclTestRun> nccl_tests;
  // `nvidia-smi topo -m` and `-p2p` matrices.
  std::vector<TopoMatrix> topo;
};

inline constexpr int kReportUnreadShown = 20;
inline constexpr std::size_t kReportReposKept = 8;

struct Facts {
  // Read from another tool's report (--from), not probed: what the report
  // does not list (a GPU count of zero, no NVSwitch) is unknown, not absent.
  bool from_report = false;
  SystemFacts system;
  std::vector<PciDevice> pci;
  NvidiaDriverFacts nvidia_driver;
  std::optional<CudaDriverApiFacts> cuda;
  std::optional<NvidiaSmiFacts> nvidia_smi;
  std::vector<ServiceFacts> services;
  KernelLogFacts kernel_log;
  SoftwareFacts software;
  IommuFacts iommu;
  NetworkFacts network;
  std::optional<NvLinkFacts> nvlink;  // NVML's answer, on an NVIDIA host
  std::optional<KernelFacts> kernels;  // `gpucheck kernels` / `check --kernels` only
  std::optional<ReportReading> report;  // `--from` a paste only
  std::vector<Note> notes;
};

}  // namespace gpucheck
