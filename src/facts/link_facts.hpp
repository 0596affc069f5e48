// Facts about the links between GPUs and nodes: the PCIe path above each
// device (its bridges, their links and ACS), the IOMMU, NVLink per link,
// and the network a collective job runs over (InfiniBand and RoCE ports,
// GPUDirect RDMA, OFED, NCCL's net plugins). docs/topology.md says where
// each is read and which rules judge it.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gpucheck {

struct PciLink {
  std::optional<std::string> current_speed, max_speed;  // as sysfs says: "16.0 GT/s PCIe"
  std::optional<int> current_gen, max_gen, current_width, max_width;
};

// Access Control Services on one bridge, from its extended configuration
// space (the kernel shows it to root only: the first 64 bytes to others).
enum class AcsRead {
  read,        // the capability was found and its control register read
  no_acs,      // the whole extended space was read and holds no ACS capability
  not_shown,   // only the standard header was readable (not root)
};

struct PciBridge {
  std::string address;  // "0000:17:02.0"
  PciLink link;         // the link below it, toward the device (its own attributes)
  AcsRead acs = AcsRead::not_shown;
  std::optional<std::uint16_t> acs_control;  // the ACS Control register, when read
};

// Where a device sits: the bridges between it and its host bridge, from the
// root port down, and its IOMMU group. Empty when sysfs gives no path (a
// snapshot whose device directories are not links into /sys/devices).
struct PciPath {
  std::optional<std::string> host_bridge;  // "pci0000:16"
  std::vector<PciBridge> bridges;
  std::optional<int> iommu_group;
  // The group's domain type: "DMA", "DMA-FQ" (translated), "identity"
  // (passthrough), "blocked", "unmanaged" (a VFIO user's).
  std::optional<std::string> iommu_type;
  std::optional<std::string> local_cpus;  // local_cpulist: "0-31,64-95"
};

struct IommuFacts {
  bool read = false;
  std::vector<std::string> units;           // /sys/class/iommu: "dmar0", "ivhd0"
  std::vector<std::string> cmdline;         // /proc/cmdline's IOMMU words: "intel_iommu=on", "iommu=pt"
  std::string source;
};

struct IbPort {
  int port = 0;
  std::optional<std::string> state;       // "ACTIVE", "DOWN", "INIT", "ARMED"
  std::optional<std::string> phys_state;  // "LinkUp", "Polling", "Disabled"
  std::optional<std::string> rate;        // as sysfs says: "400 Gb/sec (4X NDR)"
  std::optional<double> rate_gbps;
  std::optional<std::string> link_layer;  // "InfiniBand" or "Ethernet" (RoCE)
  std::map<std::string, std::int64_t> counters;  // symbol_error, link_downed, …
};

inline bool port_active(const IbPort& p) { return p.state && *p.state == "ACTIVE"; }

// What one node may hold of these, as facts/fact_limits.hpp bounds GPUs: a
// PCIe hierarchy is at most a few switches deep, a node has tens of HCAs.
inline constexpr std::size_t kMaxPciPathBridges = 32;
inline constexpr std::size_t kMaxRdmaDevices = 256;

struct IbDevice {
  std::string name;  // "mlx5_0", "efa_0", "rdmap16s27"
  std::optional<std::string> pci_address, hca_type, fw_ver, board_id;
  // The PCI device's bound driver: "mlx5_core", "efa" (AWS's Elastic Fabric
  // Adapter, which NCCL reaches only through the aws-ofi-nccl plugin).
  std::optional<std::string> driver;
  std::optional<int> numa_node;
  PciPath path;
  std::vector<IbPort> ports;
  std::string source;
};

inline bool is_efa(const IbDevice& d) { return d.driver && *d.driver == "efa"; }

struct NcclPlugin {
  std::string file;  // "libnccl-net.so", "libnccl-net-ofi.so"
  std::string path;
  std::string found_via;  // "LD_LIBRARY_PATH", "ld.so.cache", …
};

struct NetworkFacts {
  bool read = false;  // /sys/class/infiniband was listed (absent: no RDMA stack)
  std::vector<IbDevice> ib;
  // GPUDirect RDMA's kernel module when loaded: "nvidia_peermem" or the
  // older "nv_peer_mem"; none: neither is loaded.
  std::optional<std::string> peermem;
  // MLNX_OFED's or DOCA-OFED's mlx5_core version; none with the kernel's
  // own (inbox) driver, which has no version of its own.
  std::optional<std::string> ofed_version;
  std::optional<std::string> ofed_source;
  // AWS's EFA driver release (/sys/module/efa/version: its own build; the
  // kernel's efa module has none).
  std::optional<std::string> efa_version;
  // NVIDIA HPC-X (its Open MPI, UCX, SHARP and NCCL plugin): the release as
  // its directory or VERSION file names it, and where that was read.
  std::optional<std::string> hpcx_version;
  std::optional<std::string> hpcx_source;
  std::vector<NcclPlugin> nccl_plugins;  // every libnccl-net*.so the loader reaches
  // The one NCCL loads (NCCL_NET_PLUGIN, else libnccl-net.so), as found
  // by the loader; none: NCCL runs its built-in IB and socket transports.
  std::optional<NcclPlugin> nccl_net_plugin;
};

// One NVLink of a GPU, as NVML answers it.
struct NvLink {
  int link = 0;
  bool active = false;
  // False where only error counters were read (a pasted `nvidia-smi nvlink
  // -e`): `active` then says nothing, and no rule counts the link up or down.
  bool state_read = true;
  // nvmlNvlinkVersion_t as NVML answers it: a code, not the generation
  // (NVLink 3.0 is 4, 4.0 is 6, 5.0 is 7).
  std::optional<int> version;
  std::optional<std::string> remote_pci;   // what the link reaches: a GPU or an NVSwitch
  // nvmlNvLinkErrorCounter_t: replay, recovery, CRC flit, CRC data.
  std::optional<std::uint64_t> replay, recovery, crc_flit, crc_data;
};

struct GpuNvLinks {
  std::string pci_bus_id;  // "0000:18:00.0"
  std::vector<NvLink> links;  // the links NVML knows of; none: the GPU has no NVLink
};

// A matrix of copy rates between GPUs that a pasted tool measured: CUDA's
// p2pBandwidthLatencyTest or nvbandwidth (docs/topology.md, "Pastes"). GPUs
// are the tool's CUDA ordinals; the diagonal (a GPU to itself) is left out.
struct PeerRate {
  int src = 0, dst = 0;
  double gbs = 0;
};
struct PeerRateMatrix {
  std::string test;          // "p2pBandwidthLatencyTest: Unidirectional P2P=Enabled Bandwidth (P2P Writes) Matrix"
  bool peer_access = true;   // false: P2P=Disabled, every copy staged through host memory
  bool bidirectional = false;  // measured while the reverse copy ran
  std::vector<PeerRate> rates;
  std::string source;
};
// A paste holds a few of these (one tool prints up to eight); at most this
// many are kept, each of at most this many GPUs.
inline constexpr std::size_t kMaxPeerRateMatrices = 16;
inline constexpr std::size_t kMaxPeerRateGpus = 64;

// One run of an nccl-tests binary (all_reduce_perf, …) a paste shows: its
// data validation's verdict and its average bus bandwidth.
struct NcclTestRun {
  std::optional<int> gpus;                    // nGpus × the ranks listed
  std::uint64_t wrong = 0;                    // the #wrong columns added up
  std::optional<std::uint64_t> out_of_bounds; // "# Out of bounds values : 56 FAILED"
  std::optional<double> avg_busbw_gbs;        // "# Avg bus bandwidth : 123.4"
  bool validated = true;                      // false: "validation: 0", or neither #wrong columns nor the out-of-bounds line
  std::string source;
};
inline constexpr std::size_t kMaxNcclTestRuns = 16;

// A pasted `nvidia-smi topo` matrix between GPUs: `-m`'s link between each
// pair ("NV18", "PIX", "SYS") or `-p2p`'s peer capability ("OK", "CNS",
// "GNS", "NS"). GPUs are nvidia-smi's indexes; the diagonal is left out.
struct GpuPairWord {
  int src = 0, dst = 0;
  std::string word;
};
struct TopoMatrix {
  // "nvidia-smi topo -m"; "nvidia-smi topo -p2p r" (w, n, a, p as given),
  // or "nvidia-smi topo -p2p" when the paste does not show the command.
  std::string test;
  std::vector<GpuPairWord> pairs;
  std::string source;
};
inline constexpr std::size_t kMaxTopoMatrices = 8;

struct NvLinkFacts {
  std::vector<GpuNvLinks> gpus;
  std::string source;
};

}  // namespace gpucheck
