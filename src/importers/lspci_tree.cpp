#include "importers/lspci_tree.hpp"

#include <cctype>
#include <map>
#include <set>

#include "facts/pci_vocabulary.hpp"
#include "importers/block_util.hpp"
#include "matrix/platform_knowledge.hpp"
#include "parse/pci.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

bool hex_at(std::string_view t, std::size_t i) { return i < t.size() && std::isxdigit(static_cast<unsigned char>(t[i])); }

// 0x15 -> "15", as sysfs names a host bridge ("pci0000:15").
std::string bus_text(int bus) {
  constexpr char kDigits[] = "0123456789abcdef";
  return {kDigits[(bus >> 4) & 0xf], kDigits[bus & 0xf]};
}

// One device as its lines say.
struct Record {
  std::string address;             // "0000:17:02.0"
  std::string domain;              // "0000"
  int bus = -1;
  std::string klass, rest;         // "PCI bridge", "Broadcom / LSI PEX890xx … (rev b0)"
  std::optional<int> secondary;    // a bridge's "Bus: … secondary=1a"
  PciLink link;
  bool ext_caps = false;           // a capability at 0x100 or above was listed
  bool acs_cap = false;
  std::optional<std::uint16_t> acs_control;
  bool kernel_lines = false;
  std::optional<std::string> driver;
  std::optional<int> numa_node, iommu_group;
  std::size_t line = 0;
};

// "Speed 32GT/s (ok), Width x16 (ok)" and "Port #2, Speed 32GT/s, Width x16, ASPM …":
// the speed as lspci writes it and the width.
void read_link(std::string_view v, std::optional<std::string>& speed, std::optional<int>& gen, std::optional<int>& width) {
  for (auto part : split(v, ',')) {
    part = trim(part);
    if (starts_with(part, "Speed ")) {
      auto s = first_word(part.substr(6));
      if (s.empty() || s == "unknown") continue;
      speed = std::string(s);
      const auto gt = s.find("GT/s");
      if (gt != std::string_view::npos) gen = pcie_gen_from_speed(s.substr(0, gt), pcie_transfer_rates());
    } else if (starts_with(part, "Width ")) {
      width = parse_link_width(first_word(part.substr(6)));
    }
  }
}

// "primary=17, secondary=1a, subordinate=1a, sec-latency=0" -> 0x1a.
std::optional<int> secondary_bus(std::string_view v) {
  const auto at = v.find("secondary=");
  if (at == std::string_view::npos) return std::nullopt;
  auto s = v.substr(at + 10);
  s = s.substr(0, s.find(','));
  const auto n = parse_int(trim(s), 16);
  if (!n || *n < 0 || *n > 255) return std::nullopt;
  return static_cast<int>(*n);
}

// "Capabilities: [170 v1] Access Control Services": the offset.
std::optional<long long> capability_offset(std::string_view v) {
  if (v.empty() || v.front() != '[') return std::nullopt;
  const auto end = v.find_first_of(" ]");
  if (end == std::string_view::npos) return std::nullopt;
  return parse_int(v.substr(1, end - 1), 16);
}

void read_detail(Record& r, std::string_view t) {
  const auto colon = t.find(':');
  if (colon == std::string_view::npos) return;
  const auto key = t.substr(0, colon);
  const auto v = trim(t.substr(colon + 1));
  if (key == "Bus") {
    r.secondary = secondary_bus(v);
  } else if (key == "LnkCap" && !r.link.max_width) {
    read_link(v, r.link.max_speed, r.link.max_gen, r.link.max_width);
  } else if (key == "LnkSta" && !r.link.current_width) {
    read_link(v, r.link.current_speed, r.link.current_gen, r.link.current_width);
  } else if (key == "Capabilities") {
    if (auto off = capability_offset(v); off && *off >= 0x100) r.ext_caps = true;
    if (ends_with(v, "Access Control Services")) r.acs_cap = true;
  } else if (key == "ACSCtl") {
    r.acs_control = acs_control_of(v);
  } else if (key == "Kernel driver in use") {
    r.kernel_lines = true;
    if (!v.empty()) r.driver = std::string(v);
  } else if (key == "Kernel modules") {
    r.kernel_lines = true;
  } else if (key == "NUMA node") {
    r.numa_node = parse_int_in(v, 0, 4095);
  } else if (key == "IOMMU group") {
    r.iommu_group = parse_int_in(v, 0, 1 << 20);
  }
}

std::optional<Record> read_header(std::string_view t, std::size_t line) {
  const auto end = lspci_address_end(t);
  if (!end) return std::nullopt;
  Record r;
  r.line = line;
  std::string_view addr = t.substr(0, end - 1);
  r.domain = end > 8 ? std::string(addr.substr(0, 4)) : "0000";
  if (end > 8) addr.remove_prefix(5);
  r.address = to_lower(r.domain + ":" + std::string(addr));
  r.bus = static_cast<int>(parse_int(addr.substr(0, 2), 16).value_or(-1));
  const auto desc = t.substr(end);
  const auto colon = desc.find(": ");
  if (colon == std::string_view::npos) return std::nullopt;
  r.klass = std::string(desc.substr(0, colon));
  r.rest = std::string(desc.substr(colon + 2));
  return r;
}

// "[10de:2330]" in -nn's output: vendor and device ids.
std::optional<std::pair<std::string, std::string>> ids_of(std::string_view rest) {
  for (std::size_t at = rest.find('['); at != std::string_view::npos; at = rest.find('[', at + 1)) {
    const auto s = rest.substr(at + 1);
    if (s.size() >= 10 && s[4] == ':' && s[9] == ']') {
      auto v = parse_hex_id(s.substr(0, 4), 4), d = parse_hex_id(s.substr(5, 4), 4);
      if (v && d) return std::pair{*v, *d};
    }
  }
  return std::nullopt;
}

bool names_nvidia(std::string_view rest) { return rest.find("NVIDIA") != std::string_view::npos || rest.find("[10de:") != std::string_view::npos; }

// The class without -nn's code: "3D controller [0302]" -> "3D controller".
std::string_view class_name(std::string_view klass) { return klass.substr(0, klass.find(" [")); }

// A GPU (a display class) or an NVSwitch (NVIDIA's "Bridge"), from NVIDIA
// or AMD: what the topology probe reads.
std::optional<PciDevice> endpoint_of(const Record& r, const PasteText& p) {
  const bool nvidia = names_nvidia(r.rest);
  PciDevice d;
  if (lspci_gpu(r.klass, r.rest)) d.kind = PciKind::gpu;
  else if (nvidia && class_name(r.klass) == "Bridge") d.kind = PciKind::nvswitch;
  else return std::nullopt;
  // Without -k's lines no one can tell a device with no driver bound from
  // one whose driver was not shown: such a GPU is not made a fact.
  if (!r.kernel_lines) return std::nullopt;
  d.vendor = nvidia ? PciVendor::nvidia : PciVendor::amd;
  d.address = r.address;
  d.vendor_id = nvidia ? "10de" : "1002";
  std::string_view name = r.rest;
  if (auto ids = ids_of(name)) d.device_id = ids->second;
  for (std::string_view vendor : {"NVIDIA Corporation ", "Advanced Micro Devices, Inc. [AMD/ATI] "})
    if (starts_with(name, vendor)) name.remove_prefix(vendor.size());
  name = name.substr(0, name.find(" (rev "));
  name = name.substr(0, name.find(" [10de:"));
  name = name.substr(0, name.find(" [1002:"));
  // "Device 2330": pci.ids knows no name, lspci prints the device id instead.
  if (starts_with(name, "Device ") && name.size() == 11) {
    if (auto id = parse_hex_id(name.substr(7), 4); id && d.device_id.empty()) d.device_id = *id;
  } else if (!name.empty()) {
    d.name = std::string(name);
  }
  d.driver = r.driver;
  d.numa_node = r.numa_node;
  d.link = r.link;
  d.source = p.at(r.line) + " (lspci -vvv)";
  return d;
}

// A Mellanox (NVIDIA Networking) HCA: what the network probe reads.
std::optional<IbDevice> nic_of(const Record& r, const PasteText& p) {
  const bool network = starts_with(r.klass, "Ethernet controller") || starts_with(r.klass, "Infiniband controller") ||
                       starts_with(r.klass, "Network controller");
  if (!network || !(r.rest.find("Mellanox") != std::string::npos || r.rest.find("[15b3:") != std::string::npos)) return std::nullopt;
  IbDevice d;
  d.name = "NIC " + r.address;
  d.pci_address = r.address;
  // mlx5's hca_type is "MT" and the device id in decimal (MT4129 for 15b3:1021);
  // lspci shows the id with -nn only.
  if (auto ids = ids_of(r.rest))
    if (auto id = parse_int(ids->second, 16)) d.hca_type = "MT" + std::to_string(*id);
  d.numa_node = r.numa_node;
  d.source = p.at(r.line) + " (lspci -vvv)";
  return d;
}

PciBridge bridge_of(const Record& r) {
  PciBridge b;
  b.address = r.address;
  b.link = r.link;
  if (r.acs_cap && r.acs_control) {
    b.acs = AcsRead::read;
    b.acs_control = r.acs_control;
  } else if (r.ext_caps && !r.acs_cap) {
    b.acs = AcsRead::no_acs;  // the extended space was listed and holds none
  }
  return b;
}

}  // namespace

bool lspci_gpu(std::string_view klass, std::string_view rest) {
  const auto c = class_name(klass);
  const bool display = c == "VGA compatible controller" || c == "3D controller" || c == "Display controller" || c == "Processing accelerators";
  const bool amd = rest.find("Advanced Micro Devices") != std::string_view::npos || rest.find("[1002:") != std::string_view::npos;
  return display && (names_nvidia(rest) || amd);
}

std::size_t lspci_address_end(std::string_view t) {
  std::size_t i = 0;
  if (t.size() > 12 && t[4] == ':' && hex_at(t, 0) && hex_at(t, 1) && hex_at(t, 2) && hex_at(t, 3)) i = 5;
  if (!(hex_at(t, i) && hex_at(t, i + 1) && t.size() > i + 8 && t[i + 2] == ':' && hex_at(t, i + 3) && hex_at(t, i + 4) &&
        t[i + 5] == '.' && t[i + 6] >= '0' && t[i + 6] <= '7' && t[i + 7] == ' '))
    return 0;
  return i + 8;
}

LspciTree read_lspci_tree(const PasteText& p, std::size_t first, std::size_t last) {
  std::vector<Record> records;
  LspciTree out;
  for (std::size_t k = first; k <= last; ++k) {
    const auto t = p.trimmed(k);
    if (t.empty()) continue;
    const bool indented = p.lines[k].front() == '\t' || p.lines[k].front() == ' ';
    if (!indented) {
      if (auto r = read_header(t, k)) records.push_back(std::move(*r));
    } else if (!records.empty()) {
      out.verbose = true;
      read_detail(records.back(), t);
    }
  }
  out.listed = records.size();
  // Domain and secondary bus -> the bridge that leads to it: each device
  // finds its parent in one lookup, so the paths cost their length.
  std::map<std::pair<std::string, int>, std::size_t> leads_to;
  for (std::size_t i = 0; i < records.size(); ++i)
    if (records[i].secondary) leads_to.emplace(std::pair{records[i].domain, *records[i].secondary}, i);
  std::set<std::string> bridges_seen;
  // The bridges above a device on `bus`, from the root port down, and its host bridge.
  const auto path_to = [&](const Record& r) {
    PciPath path;
    std::vector<PciBridge> up;
    int bus = r.bus;
    for (auto it = leads_to.find({r.domain, bus}); it != leads_to.end() && up.size() < kMaxPciPathBridges;
         it = leads_to.find({r.domain, bus})) {
      const Record& b = records[it->second];
      if (b.bus == bus) break;  // a bridge whose secondary bus is its own: a loop
      up.push_back(bridge_of(b));
      bus = b.bus;
    }
    if (bus >= 0) path.host_bridge = "pci" + r.domain + ":" + bus_text(bus);
    path.bridges.assign(up.rbegin(), up.rend());
    for (auto& b : path.bridges)
      if (bridges_seen.insert(b.address).second) {
        ++out.bridges;
        if (b.acs != AcsRead::not_shown) ++out.acs_read;
      }
    return path;
  };
  for (auto& r : records) {
    if (auto d = endpoint_of(r, p)) {
      d->path = path_to(r);
      d->path.iommu_group = r.iommu_group;
      out.devices.push_back(std::move(*d));
    } else if (auto n = nic_of(r, p); n && out.nics.size() < kMaxRdmaDevices) {
      n->path = path_to(r);
      n->path.iommu_group = r.iommu_group;
      out.nics.push_back(std::move(*n));
    }
  }
  return out;
}

}  // namespace gpucheck
