#include "parse/kernel_log.hpp"

#include <algorithm>

#include "util/strings.hpp"

namespace gpucheck {

namespace {

// "NVRM: The NVIDIA GPU 0000:b3:00.0 (PCI ID: 10de:26b5) installed in this
// system has fallen off the bus …", over up to three lines: the Xid 79
// condition as the driver prints it at probe time, with no Xid number.
void add_fallen_off_bus(std::string_view log, std::vector<XidEvent>& out) {
  std::optional<std::string> gpu;
  for (auto line : split_lines(log)) {
    if (const auto at = line.find("NVRM: The NVIDIA GPU "); at != std::string_view::npos) {
      auto addr = trim(line.substr(at + 21));
      addr = addr.substr(0, addr.find(' '));
      gpu = addr.size() >= 7 && addr.find(':') != std::string_view::npos ? std::optional<std::string>(to_lower(addr)) : std::nullopt;
    }
    if (line.find("fallen off the bus") == std::string_view::npos || line.find("NVRM: Xid") != std::string_view::npos) continue;
    const bool known = std::any_of(out.begin(), out.end(), [&](const XidEvent& e) { return e.xid == 79 && (!gpu || e.pci_bus_id == gpu); });
    if (!known) out.push_back(XidEvent{std::nullopt, gpu, 79, "fallen off the bus (the driver's words, with no Xid number)"});
    gpu.reset();
  }
}

}  // namespace

std::vector<XidEvent> parse_xid_events(std::string_view log) {
  std::vector<XidEvent> out;
  for (auto line : split_lines(log)) {
    const auto at = line.find("NVRM: Xid (");
    if (at == std::string_view::npos) continue;
    XidEvent e;
    const auto head = line.substr(0, at);
    if (auto semi = head.find(';'); semi != std::string_view::npos) {
      // kmsg: "prio,seq,usec,flags;" — the timestamp is microseconds since boot.
      const auto fields = split(head.substr(0, semi), ',');
      if (fields.size() >= 3)
        if (auto us = parse_int(fields[2])) e.seconds_since_boot = static_cast<double>(*us) / 1e6;
    } else if (auto lb = head.find('['); lb != std::string_view::npos) {
      const auto rb = head.find(']', lb);
      if (rb != std::string_view::npos) e.seconds_since_boot = parse_double(head.substr(lb + 1, rb - lb - 1));
    }
    auto rest = line.substr(at + 11);
    const auto close = rest.find(')');
    if (close == std::string_view::npos) continue;
    auto dev = rest.substr(0, close);
    if (starts_with(dev, "PCI:")) dev.remove_prefix(4);
    // The kernel prints domain:bus:device without the function; it is always .0 for a GPU.
    e.pci_bus_id = to_lower(dev) + (dev.find('.') == std::string_view::npos ? ".0" : "");
    rest = rest.substr(close + 1);
    if (!starts_with(rest, ": ")) continue;
    rest.remove_prefix(2);
    const auto comma = rest.find(',');
    // In range or no Xid: 2^32 + 79 wrapped into an int would read as Xid 79.
    auto code = parse_int_in(rest.substr(0, comma), 0, 1 << 20);
    if (!code) continue;
    e.xid = *code;
    e.message = comma == std::string_view::npos ? "" : std::string(trim(rest.substr(comma + 1)));
    out.push_back(std::move(e));
  }
  add_fallen_off_bus(log, out);
  return out;
}

}  // namespace gpucheck
