// Facts: what the probes found, as plain data. Absent means unknown; the
// reason is a Note. The JSON form (facts_json.cpp) is versioned by
// docs/facts-schema.md; bump kFactsSchema on any incompatible change.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

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
  OsRelease os;
  ContainerFacts container;
};

struct PciLink {
  std::optional<std::string> current_speed, max_speed;  // as sysfs says: "16.0 GT/s PCIe"
  std::optional<int> current_gen, max_gen, current_width, max_width;
};

struct PciDevice {
  std::string address;  // "0000:18:00.0"
  std::string vendor;   // "nvidia", "amd"
  std::string kind;     // "gpu", "nvswitch"
  std::string vendor_id, device_id, subsystem_vendor_id, subsystem_device_id, class_code;  // hex, no 0x
  std::optional<std::string> name;    // from pci.ids
  std::optional<std::string> driver;  // bound kernel driver; nullopt: none bound
  std::optional<int> numa_node;
  PciLink link;
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

struct Facts {
  SystemFacts system;
  std::vector<PciDevice> pci;
  NvidiaDriverFacts nvidia_driver;
  std::optional<CudaDriverApiFacts> cuda;
  std::optional<NvidiaSmiFacts> nvidia_smi;
  std::vector<ServiceFacts> services;
  KernelLogFacts kernel_log;
  std::vector<Note> notes;
};

}  // namespace gpucheck
