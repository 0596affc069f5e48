#include "matrix/matrix_keys.hpp"

#include "util/strings.hpp"

namespace gpucheck {

std::string canonical_version(const Version& v) {
  auto parts = v.parts();
  while (parts.size() > 1 && parts.back() == 0) parts.pop_back();
  std::string out;
  for (auto p : parts) {
    if (!out.empty()) out += '.';
    out += std::to_string(p);
  }
  return out;
}

EntryKey key_of(const GpuModel& g) { return {"gpu id", g.id}; }

// Ids are matched ignoring case, so a layer's "10DE:2C02" replaces "10de:2c02".
EntryKey key_of(const GpuId& g) { return {"GPU PCI id", to_lower(g.pci_id)}; }

EntryKey key_of(const ArchPrecisions& a) {
  return {"compute capability", a.compute_capability.text().empty() ? "" : canonical_version(a.compute_capability)};
}

EntryKey key_of(const CudaRelease& c) { return {"CUDA release", c.version.text().empty() ? "" : canonical_version(c.version)}; }

EntryKey key_of(const CudaFamily& f) { return {"CUDA family", f.major > 0 ? std::to_string(f.major) : ""}; }

EntryKey key_of(const FrameworkVariant& v) {
  if (v.framework.empty() || v.version.text().empty()) return {"framework build", ""};
  return {"framework build", v.framework + " " + v.version.text() + (v.variant.empty() ? "" : " " + v.variant)};
}

EntryKey key_of(const NgcRelease& n) {
  return {"NGC container", n.framework.empty() || n.tag.empty() ? "" : n.framework + ":" + n.tag};
}

EntryKey key_of(const RocmRelease& r) { return {"ROCm release", r.version.text()}; }
EntryKey key_of(const DriverBranch& b) {
  return {"driver branch", b.branch ? branch_name(b.branch) : ""};
}

EntryKey key_of(const XidEntry& x) { return {"Xid", x.code > 0 ? std::to_string(x.code) : ""}; }
EntryKey key_of(const XidRecoveryAction& a) { return {"Xid 154 recovery action", a.text}; }

EntryKey key_of(const KnownModel& m) { return {"model id", m.id}; }

EntryKey key_of(const SonamePrefixes& p) { return {"soname family", p.family}; }

EntryKey key_of(const SubLibraries& s) { return {"sub-library shim", s.shim}; }

EntryKey key_of(const LibraryWheels& w) { return {"library's wheels", w.library}; }

EntryKey key_of(const PcieGeneration& g) {
  return {"PCIe generation", g.generation > 0 ? std::to_string(g.generation) : ""};
}

EntryKey key_of(const CudaError& e) { return {"CUDA error code", e.code > 0 ? std::to_string(e.code) : ""}; }

}  // namespace gpucheck
