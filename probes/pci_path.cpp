#include "pci_path.hpp"

#include "matrix/platform_knowledge.hpp"
#include "parse/pci.hpp"
#include "parse/pci_config.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

constexpr std::string_view kDevicesRoot = "/sys/devices/";

bool hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }

// "0000:18:00.0": the form sysfs names a PCI function by.
bool is_pci_address(std::string_view s) {
  if (s.size() != 12 || s[4] != ':' || s[7] != ':' || s[10] != '.') return false;
  for (std::size_t i : {0, 1, 2, 3, 5, 6, 8, 9, 11})
    if (!hex(s[i])) return false;
  return true;
}

std::vector<std::string_view> components(std::string_view path) {
  std::vector<std::string_view> out;
  for (const auto& part : split(path, '/'))
    if (!part.empty()) out.push_back(part);
  return out;
}


}  // namespace

std::optional<std::string> sysfs_attribute(const Host& h, const std::string& path) {
  auto r = h.read_file(path, 4096);
  if (!r || !is_text(*r)) return std::nullopt;
  const auto t = trim(*r);
  if (t.empty()) return std::nullopt;
  return std::string(t);
}

PciLink read_link_attributes(const Host& h, const std::string& dir) {
  PciLink l;
  l.current_speed = sysfs_attribute(h, dir + "/current_link_speed");
  l.max_speed = sysfs_attribute(h, dir + "/max_link_speed");
  if (l.current_speed) l.current_gen = pcie_gen_from_speed(*l.current_speed, pcie_transfer_rates());
  if (l.max_speed) l.max_gen = pcie_gen_from_speed(*l.max_speed, pcie_transfer_rates());
  if (auto w = sysfs_attribute(h, dir + "/current_link_width")) l.current_width = parse_link_width(*w);
  if (auto w = sysfs_attribute(h, dir + "/max_link_width")) l.max_width = parse_link_width(*w);
  return l;
}

std::optional<std::string> pci_address_of(ProbeContext& ctx, const std::string& device_dir) {
  auto real = ctx.host().real_path(device_dir);
  if (!real) return std::nullopt;
  const auto parts = components(*real);
  for (auto it = parts.rbegin(); it != parts.rend(); ++it)
    if (is_pci_address(*it)) return std::string(*it);
  return std::nullopt;
}

PciPath read_pci_path(ProbeContext& ctx, const std::string& subject, const std::string& device_dir, BridgeCache& seen) {
  PciPath p;
  const Host& h = ctx.host();
  auto real = h.real_path(device_dir);
  // A snapshot's flat device directory, or a bus sysfs does not lay out
  // under /sys/devices/pci*: the caller says which paths are unknown.
  if (!real || !starts_with(*real, kDevicesRoot)) return p;
  const auto parts = components(std::string_view(*real).substr(kDevicesRoot.size()));
  if (parts.empty() || !starts_with(parts.front(), "pci")) return p;
  p.host_bridge = std::string(parts.front());
  std::string dir = std::string(kDevicesRoot) + std::string(parts.front());
  // Every PCI function between the host bridge and the device is a bridge.
  for (std::size_t i = 1; i + 1 < parts.size() && p.bridges.size() < kMaxPciPathBridges; ++i) {
    dir.append("/").append(parts[i]);
    if (!is_pci_address(parts[i])) continue;
    if (auto it = seen.find(std::string(parts[i])); it != seen.end()) {
      p.bridges.push_back(it->second);
      continue;
    }
    PciBridge b;
    b.address = std::string(parts[i]);
    b.link = read_link_attributes(h, dir);
    if (auto config = h.read_file(dir + "/config", 4096)) {
      const auto acs = read_acs(*config);
      b.acs = acs.read;
      b.acs_control = acs.control;
    } else {
      ctx.note(subject, b.address + " ACS", config.problem());
    }
    seen.emplace(b.address, b);
    p.bridges.push_back(std::move(b));
  }
  if (auto group = h.read_link(*real + "/iommu_group")) {
    const auto slash = group->rfind('/');
    const std::string id = slash == std::string::npos ? *group : group->substr(slash + 1);
    if (auto n = parse_int(id); n && *n >= 0 && *n < (1 << 30)) {
      p.iommu_group = static_cast<int>(*n);
      p.iommu_type = sysfs_attribute(h, "/sys/kernel/iommu_groups/" + id + "/type");
    }
  }
  p.local_cpus = sysfs_attribute(h, *real + "/local_cpulist");
  return p;
}

}  // namespace gpucheck
