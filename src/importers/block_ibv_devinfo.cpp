// `ibv_devinfo` (and `-v`): "hca_id: mlx5_0" a device, its indented
// "fw_ver:", "vendor_id:", "vendor_part_id:", "board_id:", then "port: N"
// with "state: PORT_ACTIVE (4)", "link_layer:", and with -v "phys_state:
// LINK_UP (5)", "active_width: 4X (2)", "active_speed: 100.0 Gbps (64)".
// Read into the RDMA devices and ports as sysfs names them, as ibstat's
// reader does (docs/topology.md): the words by their numbers, which
// libibverbs prints beside them (rdma-core's ibv_devinfo.c).
#include <cstdio>

#include "importers/block_readers.hpp"
#include "importers/block_util.hpp"
#include "parse/infiniband.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

std::optional<std::string_view> hca_id(std::string_view t) {
  if (!starts_with(t, "hca_id:")) return std::nullopt;
  const auto name = trim(t.substr(7));
  if (name.empty() || name.find_first_of(" \t") != std::string_view::npos) return std::nullopt;
  return name;
}

Opens opens(const PasteText& p, std::size_t i) { return hca_id(p.trimmed(i)) ? Opens::surely : Opens::no; }

bool continues(const PasteText& p, std::size_t, std::size_t i) {
  const auto t = p.trimmed(i);
  if (hca_id(t)) return true;
  // The blank line between devices.
  if (t.empty()) return i + 1 < p.lines.size() && hca_id(p.trimmed(i + 1));
  // Every field is indented; -v adds lines without a colon (capability words).
  const auto raw = p.lines[i];
  return raw.front() == ' ' || raw.front() == '\t';
}

// "PORT_ACTIVE (4)" -> 4: the number libibverbs prints after its word.
std::optional<int> code_of(std::string_view v) {
  const auto open = v.rfind('(');
  if (open == std::string_view::npos || v.back() != ')') return std::nullopt;
  return parse_int_in(v.substr(open + 1, v.size() - open - 2), 0, 255);
}

// enum ibv_port_state, in sysfs's words (the kernel's ib_port_state names).
std::optional<std::string> state_word(std::string_view v) {
  static constexpr const char* kWords[] = {"NOP", "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER"};
  const auto c = code_of(v);
  if (!c || *c > 5) return std::nullopt;
  return kWords[*c];
}

// The physical states, numbered as IBTA's PortInfo and sysfs's phys_state.
std::optional<std::string> phys_word(std::string_view v) {
  static constexpr const char* kWords[] = {"NOP", "Sleep", "Polling", "Disabled", "PortConfigurationTraining", "LinkUp",
                                           "LinkErrorRecovery", "Phy Test"};
  const auto c = code_of(v);
  if (!c || *c > 7) return std::nullopt;
  return kWords[*c];
}

// "100.0 Gbps (64)" a lane, "4X (2)" the lanes: the rate as sysfs writes
// it ("400 Gb/sec (4X NDR)"), its data rate per lane named as IBTA names it.
void set_rate(IbPort& port, std::string_view width, std::string_view speed) {
  const auto x = width.find('X');
  // Not a conditional expression: GCC 12 at -O3 then thinks the optional may be unset.
  const int lanes = x == std::string_view::npos ? 0 : parse_int_in(width.substr(0, x), 1, 32).value_or(0);
  const auto g = speed.find(" Gbps");
  if (lanes == 0 || g == std::string_view::npos) return;
  double lane = 0;
  const std::string number(speed.substr(0, g));
  char rest = 0;
  if (std::sscanf(number.c_str(), "%lf%c", &lane, &rest) != 1 || !(lane > 0 && lane < 10000)) return;
  struct Name {
    double gbps;
    const char* name;
  };
  static constexpr Name kNames[] = {{2.5, "SDR"}, {5, "DDR"}, {10, "QDR"}, {14, "FDR"}, {25, "EDR"}, {50, "HDR"}, {100, "NDR"}, {200, "XDR"}};
  const char* name = nullptr;
  for (auto& n : kNames)
    if (n.gbps == lane) name = n.name;
  const double total = lane * lanes;
  char text[64];
  std::snprintf(text, sizeof text, "%g Gb/sec (%dX%s%s)", total, lanes, name ? " " : "", name ? name : "");
  port.rate = text;
  port.rate_gbps = ib_rate_gbps(text);
}

void read(const PasteText& p, std::size_t first, std::size_t last, BlockFacts& out) {
  NetworkFacts& net = out.facts.network;
  net.read = true;
  const std::string source = p.span(first, last, "ibv_devinfo");
  IbPort* port = nullptr;
  std::optional<std::string> vendor;
  std::string width, speed;
  const auto finish_port = [&] {
    if (port && !width.empty() && !speed.empty()) set_rate(*port, width, speed);
    width.clear();
    speed.clear();
  };
  for (std::size_t k = first; k <= last; ++k) {
    const auto t = p.trimmed(k);
    if (auto name = hca_id(t)) {
      finish_port();
      if (net.ib.size() == kMaxRdmaDevices) break;
      IbDevice d;
      d.name = std::string(*name);
      d.source = source;
      net.ib.push_back(std::move(d));
      port = nullptr;
      vendor.reset();
      continue;
    }
    if (net.ib.empty() || t.empty()) continue;
    auto& dev = net.ib.back();
    const auto kv = key_text(t);
    if (!kv) continue;  // -v's capability words
    const std::string_view key = kv->key, value = kv->value;
    if (key == "port") {
      finish_port();
      port = nullptr;
      if (auto n = parse_int_in(value, 1, 255); n && dev.ports.size() < 255) {
        dev.ports.push_back(IbPort{});
        port = &dev.ports.back();
        port->port = *n;
      }
      continue;
    }
    if (key == "fw_ver") dev.fw_ver = std::string(value);
    else if (key == "board_id") dev.board_id = std::string(value);
    else if (key == "vendor_id") vendor = std::string(value);
    // Mellanox's (0x02c9, 0x15b3) part number is what sysfs's hca_type and
    // ibstat's "CA type" say with "MT" before it; other vendors' differ.
    else if (key == "vendor_part_id" && (vendor == "0x02c9" || vendor == "0x15b3") && parse_int_in(value, 0, 99999))
      dev.hca_type = "MT" + std::string(value);
    else if (port && key == "state") port->state = state_word(value);
    else if (port && key == "phys_state") port->phys_state = phys_word(value);
    else if (port && key == "link_layer") port->link_layer = std::string(value);
    else if (port && key == "active_width") width = std::string(value);
    else if (port && key == "active_speed") speed = std::string(value);
  }
  finish_port();
}

}  // namespace

BlockReader ibv_devinfo_reader() { return {"ibv_devinfo", opens, continues, read}; }

}  // namespace gpucheck
