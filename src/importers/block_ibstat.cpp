// `ibstat`: "CA 'mlx5_0'" a device, its "CA type", "Firmware version", then
// "Port N:" with "State", "Physical state", "Rate" (Gb/s) and "Link layer".
// Read into the RDMA devices and ports as sysfs names them (docs/topology.md):
// ibstat's "Active" is sysfs's ACTIVE.
#include "importers/block_readers.hpp"
#include "importers/block_util.hpp"
#include "parse/infiniband.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

constexpr std::size_t kMaxDevices = 256;

std::optional<std::string_view> ca_name(std::string_view t) {
  if (!starts_with(t, "CA '") || t.size() < 6 || t.back() != '\'') return std::nullopt;
  return t.substr(4, t.size() - 5);
}

Opens opens(const PasteText& p, std::size_t i) { return ca_name(p.trimmed(i)) ? Opens::surely : Opens::no; }

bool continues(const PasteText& p, std::size_t, std::size_t i) {
  const auto t = p.trimmed(i);
  if (ca_name(t)) return true;
  // Its fields are indented "Key: value" lines, and "Port 1:".
  const auto raw = p.lines[i];
  return !t.empty() && (raw.front() == ' ' || raw.front() == '\t') && t.find(':') != std::string_view::npos;
}

// ibstat's words for the port state (umad's port_state_str), in sysfs's.
std::string state_word(std::string_view ibstat) {
  if (ibstat == "Initializing") return "INIT";
  return to_upper(ibstat);
}

void read(const PasteText& p, std::size_t first, std::size_t last, BlockFacts& out) {
  NetworkFacts& net = out.facts.network;
  net.read = true;
  const std::string source = p.span(first, last, "ibstat");
  IbPort* port = nullptr;
  for (std::size_t k = first; k <= last; ++k) {
    const auto t = p.trimmed(k);
    if (auto name = ca_name(t)) {
      if (net.ib.size() == kMaxDevices) break;
      IbDevice d;
      d.name = std::string(*name);
      d.source = source;
      net.ib.push_back(std::move(d));
      port = nullptr;
      continue;
    }
    if (net.ib.empty()) continue;
    auto& dev = net.ib.back();
    if (starts_with(t, "Port ") && t.back() == ':') {
      if (auto n = parse_int_in(t.substr(5, t.size() - 6), 1, 255); n && dev.ports.size() < 255) {
        dev.ports.push_back(IbPort{});
        port = &dev.ports.back();
        port->port = *n;
        continue;
      }
    }
    const auto kv = key_text(t);
    if (!kv) {
      out.unread.push_back(k);
      continue;
    }
    const std::string key(kv->key), value(kv->value);
    if (key == "CA type") dev.hca_type = value;
    else if (key == "Firmware version") dev.fw_ver = value;
    else if (port && key == "State") port->state = state_word(value);
    else if (port && key == "Physical state") port->phys_state = value;
    else if (port && key == "Link layer") port->link_layer = value;
    else if (port && key == "Rate") {
      port->rate_gbps = ib_rate_gbps(value + " Gb/sec");
      if (port->rate_gbps) port->rate = value + " Gb/sec";
    }
  }
}

}  // namespace

BlockReader ibstat_reader() { return {"ibstat", opens, continues, read}; }

}  // namespace gpucheck
