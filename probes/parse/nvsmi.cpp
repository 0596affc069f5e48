#include "parse/nvsmi.hpp"
#include "parse/nvsmi_labels.hpp"

#include <iterator>
#include <limits>
#include <pugixml.hpp>

#include "facts/fact_limits.hpp"
#include "util/pci_address.hpp"
#include "util/strings.hpp"

namespace gpucheck {
namespace {

// One node of either form: XML element (tag, text) or text line (label, value).
struct Node {
  std::string key;
  std::string value;
  std::vector<Node> children;

  const Node* child(std::string_view k) const {
    for (auto& c : children)
      if (c.key == k) return &c;
    return nullptr;
  }
};

Node from_xml(const pugi::xml_node& x) {
  Node n{x.name(), std::string(trim(x.child_value())), {}};
  for (auto c : x.children())
    if (c.type() == pugi::node_element) n.children.push_back(from_xml(c));
  return n;
}

// Each field names its path in the XML and in the text form; a path may
// have several spellings across driver generations ("a|b" per segment).
struct Paths {
  std::string_view xml, text;
};

const Node* find(const Node& root, std::string_view path) {
  const Node* n = &root;
  for (auto seg : split(path, '/')) {
    const Node* next = nullptr;
    for (auto alt : split(seg, '|'))
      if ((next = n->child(alt))) break;
    if (!next) return nullptr;
    n = next;
  }
  return n;
}

std::optional<std::string> value_at(const Node& gpu, const Paths& p, bool xml) {
  for (auto alt : split(xml ? p.xml : p.text, ';')) {
    if (alt.empty()) continue;
    if (auto n = find(gpu, alt); n && nvsmi_states_a_value(n->value)) return n->value;
  }
  return std::nullopt;
}

// "81559 MiB" -> 81559, "-8 C" -> -8, "16x" -> 16.
std::optional<long long> leading_int(const std::optional<std::string>& v) {
  if (!v) return std::nullopt;
  std::string_view s = *v;
  std::size_t i = (s.size() && (s[0] == '-' || s[0] == '+')) ? 1 : 0;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
  return parse_int(s.substr(0, i));
}

std::optional<int> as_int(const std::optional<std::string>& v) {
  // Outside int's range is no reading: a wrapped 2^32 + 80 would read as 80.
  auto n = leading_int(v);
  if (!n || *n < std::numeric_limits<int>::min() || *n > std::numeric_limits<int>::max()) return std::nullopt;
  return static_cast<int>(*n);
}

std::optional<double> as_double(const std::optional<std::string>& v) {
  if (!v) return std::nullopt;
  const auto sp = v->find(' ');
  return parse_double(std::string_view(*v).substr(0, sp));
}

std::optional<bool> as_yes_no(const std::optional<std::string>& v) {
  if (!v) return std::nullopt;
  if (*v == "Yes") return true;
  if (*v == "No") return false;
  return std::nullopt;
}

// The ECC section: old DTDs count single_bit/double_bit with a total; newer
// ones split SRAM and DRAM (and, from 550, SRAM parity and SEC-DED).
EccCounts ecc_counts(const Node* section) {
  EccCounts e;
  if (!section) return e;
  auto add = [](std::optional<std::int64_t>& into, const Node& n) {
    if (auto v = parse_int(n.value)) into = into.value_or(0) + *v;
  };
  for (auto& c : section->children) {
    const auto k = to_lower(c.key);
    if (k == "single_bit") {
      if (auto t = c.child("total")) add(e.corrected, *t);
    } else if (k == "double_bit") {
      if (auto t = c.child("total")) add(e.uncorrected, *t);
    } else if (k.find("threshold") != std::string::npos) {
      continue;
    } else if (k.find("uncorrectable") != std::string::npos) {
      add(e.uncorrected, c);
    } else if (k.find("correctable") != std::string::npos) {
      add(e.corrected, c);
    }
  }
  return e;
}

std::string reason_key(std::string k) {
  for (std::string_view prefix : {"clocks_event_reason_", "clocks_throttle_reason_"})
    if (starts_with(k, prefix)) return k.substr(prefix.size());
  // text labels: "HW Thermal Slowdown" -> hw_thermal_slowdown
  for (auto& ch : k) ch = ch == ' ' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (k == "idle") return "gpu_idle";
  if (k == "display_clock_setting") return "display_clocks_setting";
  return k;
}

void collect_reasons(const Node& n, std::map<std::string, bool>& out) {
  for (auto& c : n.children) {
    if (c.value == "Active" || c.value == "Not Active") out[reason_key(c.key)] = c.value == "Active";
    collect_reasons(c, out);  // the text form nests HW Thermal under HW Slowdown
  }
}

SmiGpu map_gpu(const Node& g, const std::string& bus_id, bool xml) {
  auto v = [&](std::string_view x, std::string_view t) { return value_at(g, {x, t}, xml); };
  SmiGpu s;
  s.pci_bus_id = normalize_pci_bus_id(bus_id);
  s.product_name = v("product_name", "Product Name");
  s.product_brand = v("product_brand", "Product Brand");
  s.architecture = v("product_architecture", "Product Architecture");
  s.uuid = v("uuid", "GPU UUID");
  s.serial = v("serial", "Serial Number");
  s.vbios = v("vbios_version", "VBIOS Version");
  s.persistence_mode = v("persistence_mode", "Persistence Mode");
  s.compute_mode = v("compute_mode", "Compute Mode");
  s.mig_mode_current = v("mig_mode/current_mig", "MIG Mode/Current");
  s.mig_mode_pending = v("mig_mode/pending_mig", "MIG Mode/Pending");
  s.ecc_mode_current = v("ecc_mode/current_ecc", "ECC Mode/Current");
  s.ecc_mode_pending = v("ecc_mode/pending_ecc", "ECC Mode/Pending");
  if (xml) {
    s.ecc_volatile = ecc_counts(find(g, "ecc_errors/volatile"));
    s.ecc_aggregate = ecc_counts(find(g, "ecc_errors/aggregate"));
  } else {
    // Text labels: "SRAM Correctable", "DRAM Uncorrectable", "Single Bit/Total".
    auto text_counts = [&](std::string_view path) {
      Node copy;
      if (auto n = find(g, path)) {
        copy = *n;
        for (auto& c : copy.children) {
          c.key = to_lower(c.key);
          for (auto& ch : c.key) if (ch == ' ') ch = '_';
          for (auto& cc : c.children) cc.key = to_lower(cc.key);
        }
      }
      return ecc_counts(&copy);
    };
    s.ecc_volatile = text_counts("ECC Errors/Volatile");
    s.ecc_aggregate = text_counts("ECC Errors/Aggregate");
  }
  s.retired_pages_single_bit = as_int(v("retired_pages/multiple_single_bit_retirement/retired_count",
                                        "Retired Pages/Single Bit ECC"));
  s.retired_pages_double_bit = as_int(v("retired_pages/double_bit_retirement/retired_count",
                                        "Retired Pages/Double Bit ECC"));
  s.retired_pages_pending = as_yes_no(v("retired_pages/pending_retirement;retired_pages/pending_blacklist",
                                        "Retired Pages/Pending Page Blacklist;Retired Pages/Pending Page Retirement"));
  s.remapped_rows_correctable = as_int(v("remapped_rows/remapped_row_corr", "Remapped Rows/Correctable Error"));
  s.remapped_rows_uncorrectable = as_int(v("remapped_rows/remapped_row_unc", "Remapped Rows/Uncorrectable Error"));
  s.remapped_rows_pending = as_yes_no(v("remapped_rows/remapped_row_pending", "Remapped Rows/Pending"));
  s.remapped_rows_failure = as_yes_no(v("remapped_rows/remapped_row_failure", "Remapped Rows/Remapping Failure Occurred"));
  s.pcie_gen_current = as_int(v("pci/pci_gpu_link_info/pcie_gen/current_link_gen", "PCI/GPU Link Info/PCIe Generation/Current"));
  s.pcie_gen_max = as_int(v("pci/pci_gpu_link_info/pcie_gen/max_link_gen", "PCI/GPU Link Info/PCIe Generation/Max"));
  s.pcie_width_current = as_int(v("pci/pci_gpu_link_info/link_widths/current_link_width", "PCI/GPU Link Info/Link Width/Current"));
  s.pcie_width_max = as_int(v("pci/pci_gpu_link_info/link_widths/max_link_width", "PCI/GPU Link Info/Link Width/Max"));
  s.clock_graphics_mhz = as_int(v("clocks/graphics_clock", "Clocks/Graphics"));
  s.clock_sm_mhz = as_int(v("clocks/sm_clock", "Clocks/SM"));
  s.clock_mem_mhz = as_int(v("clocks/mem_clock", "Clocks/Memory"));
  s.clock_graphics_max_mhz = as_int(v("max_clocks/graphics_clock", "Max Clocks/Graphics"));
  s.clock_sm_max_mhz = as_int(v("max_clocks/sm_clock", "Max Clocks/SM"));
  s.clock_mem_max_mhz = as_int(v("max_clocks/mem_clock", "Max Clocks/Memory"));
  for (auto section : {"clocks_event_reasons", "clocks_throttle_reasons", "Clocks Event Reasons", "Clocks Throttle Reasons"})
    if (auto n = g.child(section)) collect_reasons(*n, s.clock_event_reasons);
  s.temperature_c = as_int(v("temperature/gpu_temp", "Temperature/GPU Current Temp"));
  s.temperature_slowdown_c = as_int(v("temperature/gpu_temp_slow_threshold", "Temperature/GPU Slowdown Temp"));
  s.temperature_shutdown_c = as_int(v("temperature/gpu_temp_max_threshold", "Temperature/GPU Shutdown Temp"));
  s.memory_temperature_c = as_int(v("temperature/memory_temp", "Temperature/Memory Current Temp"));
  // power_readings up to 525; gpu_power_readings from 530; instant/average draw from 535.
  s.power_draw_w = as_double(v("gpu_power_readings/power_draw;gpu_power_readings/instant_power_draw;power_readings/power_draw",
                               "GPU Power Readings/Power Draw;GPU Power Readings/Instantaneous Power Draw;Power Readings/Power Draw"));
  s.power_limit_w = as_double(v("gpu_power_readings/current_power_limit;power_readings/enforced_power_limit;power_readings/power_limit",
                                "GPU Power Readings/Current Power Limit;Power Readings/Enforced Power Limit;Power Readings/Power Limit"));
  s.power_max_limit_w = as_double(v("gpu_power_readings/max_power_limit;power_readings/max_power_limit",
                                    "GPU Power Readings/Max Power Limit;Power Readings/Max Power Limit"));
  s.fabric_state = v("fabric/state", "Fabric/State");
  s.fabric_status = v("fabric/status", "Fabric/Status");
  s.memory_total_mib = leading_int(v("fb_memory_usage/total", "FB Memory Usage/Total"));
  return s;
}

Problem too_many_gpus() {
  return Problem{Reason::malformed, "", "lists more than " + std::to_string(kMaxGpusPerNode) + " GPUs; nvidia-smi reports one node's"};
}

}  // namespace

Result<NvidiaSmiFacts> parse_nvsmi_xml(std::string_view xml) {
  pugi::xml_document doc;
  const auto res = doc.load_buffer(xml.data(), xml.size(), pugi::parse_default | pugi::parse_doctype);
  if (!res)
    return Problem{Reason::malformed, "", std::string("XML: ") + res.description() + " at byte " + std::to_string(res.offset)};
  const auto log = doc.child("nvidia_smi_log");
  if (!log) return Problem{Reason::malformed, "", "XML has no <nvidia_smi_log> root"};
  NvidiaSmiFacts f;
  for (const auto& l : kNvsmiDriverLabels)
    if (auto v = std::string(trim(log.child_value(std::string(l.xml).c_str()))); !v.empty() && !f.driver_version) f.driver_version = v;
  for (const auto& l : kNvsmiCudaLabels)
    if (auto v = std::string(trim(log.child_value(std::string(l.xml).c_str()))); nvsmi_states_a_value(v) && !f.cuda_version) f.cuda_version = v;
  for (auto n : doc.children()) {
    if (n.type() != pugi::node_doctype) continue;
    const std::string dt = n.value();
    if (auto p = dt.find("nvsmi_device_"); p != std::string::npos) {
      const auto e = dt.find(".dtd", p);
      f.dtd = dt.substr(p + 13, e == std::string::npos ? std::string::npos : e - p - 13);
    }
  }
  const auto gpus = log.children("gpu");
  if (static_cast<std::size_t>(std::distance(gpus.begin(), gpus.end())) > kMaxGpusPerNode) return too_many_gpus();
  for (auto g : log.children("gpu")) f.gpus.push_back(map_gpu(from_xml(g), g.attribute("id").value(), true));
  return f;
}

Result<NvidiaSmiFacts> parse_nvsmi_text(std::string_view text) {
  if (!is_text(text)) return Problem{Reason::malformed, "", "not text (binary data)"};
  // Build the tree from indentation: "Label : value" or a bare "Label" that opens a section.
  Node root;
  std::vector<std::pair<std::size_t, Node*>> stack{{0, &root}};
  std::vector<std::pair<std::string, Node>> gpus;
  NvidiaSmiFacts f;
  for (auto raw : split_lines(text)) {
    const auto line = trim(raw);
    if (line.empty() || starts_with(line, "====")) continue;
    const std::size_t indent = raw.find_first_not_of(' ');
    if (indent == 0 && starts_with(line, "GPU ") && line.find(':', 4) != std::string_view::npos &&
        line.find(" : ") == std::string_view::npos) {
      gpus.emplace_back(std::string(trim(line.substr(4))), Node{});
      stack = {{0, &gpus.back().second}};
      continue;
    }
    const auto sep = line.find(" : ");
    Node n;
    if (sep != std::string_view::npos || (line.back() == ':' && line.size() > 1)) {
      const auto key_end = sep != std::string_view::npos ? sep : line.size() - 1;
      n.key = std::string(trim(line.substr(0, key_end)));
      n.value = sep != std::string_view::npos ? std::string(trim(line.substr(sep + 3))) : "";
    } else {
      n.key = std::string(line);
    }
    while (stack.size() > 1 && stack.back().first >= indent) stack.pop_back();
    Node* parent = stack.back().second;
    if (gpus.empty()) {
      for (const auto& l : kNvsmiDriverLabels)
        if (n.key == l.text) f.driver_version = n.value;
      for (const auto& l : kNvsmiCudaLabels)
        if (n.key == l.text && nvsmi_states_a_value(n.value)) f.cuda_version = n.value;
    }
    parent->children.push_back(std::move(n));
    stack.emplace_back(indent, &parent->children.back());
  }
  if (gpus.empty()) return Problem{Reason::malformed, "", "no \"GPU 0000xxxx:xx:xx.x\" section found"};
  if (gpus.size() > kMaxGpusPerNode) return too_many_gpus();
  for (auto& [id, node] : gpus) f.gpus.push_back(map_gpu(node, id, false));
  return f;
}

}  // namespace gpucheck
