// NVIDIA and AMD GPUs (and NVSwitches) on the PCI bus, from sysfs.
#include "matrix/platform_knowledge.hpp"
#include "parse/pci.hpp"
#include "pci_path.hpp"
#include "probe.hpp"
#include "util/strings.hpp"

namespace gpucheck {
namespace {

constexpr const char* kDevices = "/sys/bus/pci/devices";

std::optional<std::string> load_pci_ids(ProbeContext& ctx) {
  for (const char* p : {"/usr/share/misc/pci.ids", "/usr/share/hwdata/pci.ids", "/usr/share/pci.ids"})
    if (auto t = ctx.host().read_file(p)) return *t;
  ctx.note("pci", "device names", Problem{Reason::absent, "/usr/share/misc/pci.ids", "no pci.ids database (install pciutils or hwdata)"});
  return std::nullopt;
}

}  // namespace

void probe_pci(ProbeContext& ctx) {
  auto& h = ctx.host();
  auto entries = h.list_dir(kDevices);
  if (!entries) {
    ctx.note("pci", "PCI devices", entries.problem());
    return;
  }
  std::optional<std::optional<std::string>> pci_ids;  // loaded on the first GPU only
  for (auto& e : *entries) {
    const std::string dir = std::string(kDevices) + "/" + e.name;
    auto attr = [&](const char* name) { return sysfs_attribute(h, dir + "/" + name); };
    auto vendor_text = h.read_file(dir + "/vendor", 4096);
    if (!vendor_text) {
      ctx.note("pci", e.name + " vendor", vendor_text.problem());
      continue;
    }
    const auto vendor = parse_hex_id(*vendor_text, 4);
    if (!vendor) {
      ctx.note("pci", e.name + " vendor", Problem{Reason::malformed, dir + "/vendor", "not a hex PCI id"});
      continue;
    }
    const auto known = pci_vendor_of_id(*vendor);
    if (!known) continue;
    auto hex = [&](const char* name, std::size_t digits) -> std::optional<std::string> {
      auto v = attr(name);
      return v ? parse_hex_id(*v, digits) : std::nullopt;
    };
    const auto cls = hex("class", 6);
    if (!cls) {
      ctx.note("pci", e.name + " class", Problem{Reason::malformed, dir + "/class", "missing or not a hex class code"});
      continue;
    }
    PciDevice d;
    // 0x03xxxx: display controllers (VGA 0300, 3D 0302, other 0380: MI210/MI250);
    // 0x12xxxx: processing accelerators (MI300X); NVSwitch is a bridge (0680).
    if (cls->substr(0, 2) == "03" || cls->substr(0, 2) == "12") d.kind = PciKind::gpu;
    else if (*known == PciVendor::nvidia && cls->substr(0, 4) == "0680") d.kind = PciKind::nvswitch;
    else continue;
    d.address = e.name;
    d.vendor = *known;
    d.vendor_id = *vendor;
    d.class_code = *cls;
    d.source = dir;
    d.device_id = hex("device", 4).value_or("");
    d.subsystem_vendor_id = hex("subsystem_vendor", 4).value_or("");
    d.subsystem_device_id = hex("subsystem_device", 4).value_or("");
    if (auto drv = h.read_link(dir + "/driver")) {
      const auto slash = drv->rfind('/');
      d.driver = slash == std::string::npos ? *drv : drv->substr(slash + 1);
    } else if (drv.problem().reason != Reason::absent) {
      ctx.note("pci", e.name + " bound driver", drv.problem());
    }
    if (auto text = attr("numa_node"))
      if (auto n = parse_int(*text); n && *n >= 0) d.numa_node = static_cast<int>(*n);
    d.link = read_link_attributes(h, dir);
    if (!pci_ids) pci_ids = load_pci_ids(ctx);
    if (*pci_ids) d.name = pci_ids_name(**pci_ids, d.vendor_id, d.device_id, d.subsystem_vendor_id, d.subsystem_device_id);
    ctx.facts().pci.push_back(std::move(d));
  }
}

}  // namespace gpucheck
