// `nvidia-smi --query-gpu=… --format=csv`: a header of field names, then
// one row per GPU. Only a header with field names gpucheck knows opens a
// block (a noheader CSV names nothing).
#include <array>

#include "facts/fact_limits.hpp"
#include "importers/block_readers.hpp"
#include "importers/block_util.hpp"
#include "parse/nvsmi_labels.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

enum class Field { other, index, name, driver, bus_id, uuid, memory_total, compute_cap, power_limit, persistence, compute_mode, mig_mode, vbios, serial, temperature };

// nvidia-smi --help-query-gpu's names (and their aliases); the header
// writes them with a unit in brackets: "memory.total [MiB]".
Field field_named(std::string_view h) {
  h = trim(h.substr(0, h.find(" [")));
  static constexpr std::array<std::pair<std::string_view, Field>, 21> kNames{{
      {"index", Field::index}, {"name", Field::name}, {"gpu_name", Field::name}, {"driver_version", Field::driver},
      {"pci.bus_id", Field::bus_id}, {"gpu_bus_id", Field::bus_id}, {"uuid", Field::uuid}, {"gpu_uuid", Field::uuid},
      {"memory.total", Field::memory_total}, {"compute_cap", Field::compute_cap}, {"power.limit", Field::power_limit},
      {"enforced.power.limit", Field::power_limit}, {"persistence_mode", Field::persistence}, {"compute_mode", Field::compute_mode},
      {"mig.mode.current", Field::mig_mode}, {"vbios_version", Field::vbios}, {"serial", Field::serial},
      {"temperature.gpu", Field::temperature}, {"pci.bus", Field::other}, {"count", Field::other}, {"pstate", Field::other},
  }};
  for (auto& [n, f] : kNames)
    if (h == n) return f;
  return Field::other;
}

std::vector<std::string_view> cells(std::string_view t) {
  auto c = split(t, ',');
  for (auto& x : c) x = trim(x);
  return c;
}

bool is_header(std::string_view t) {
  if (t.find(',') == std::string_view::npos) return false;
  bool known = false;
  for (auto c : cells(t)) {
    if (c.empty()) return false;
    for (char ch : c.substr(0, c.find(" [")))
      if (!(std::islower(static_cast<unsigned char>(ch)) || ch == '.' || ch == '_' || std::isdigit(static_cast<unsigned char>(ch)))) return false;
    known = known || field_named(c) != Field::other;
  }
  return known;
}

Opens opens(const PasteText& p, std::size_t i) { return is_header(p.trimmed(i)) ? Opens::surely : Opens::no; }

bool continues(const PasteText& p, std::size_t first, std::size_t i) {
  return cells(p.trimmed(i)).size() == cells(p.trimmed(first)).size() && !is_header(p.trimmed(i));
}

std::optional<std::string> stated(std::string_view v) {
  if (!nvsmi_states_a_value(v) || v == "[N/A]") return std::nullopt;
  return std::string(v);
}

std::optional<double> number(std::string_view v) { return parse_double(first_word(v)); }

void read(const PasteText& p, std::size_t first, std::size_t last, BlockFacts& out) {
  std::vector<Field> fields;
  for (auto c : cells(p.trimmed(first))) fields.push_back(field_named(c));
  NvidiaSmiFacts s;
  s.source = p.span(first, last, "nvidia-smi --query-gpu");
  std::vector<CudaDevice> devices;
  // One GPU past the limit is enough for import_paste to refuse the report.
  for (std::size_t k = first + 1; k <= last && s.gpus.size() <= kMaxGpusPerNode; ++k) {
    const auto row = cells(p.trimmed(k));
    SmiGpu g;
    g.pci_bus_id = report_gpu_key(s.gpus.size());
    std::optional<std::string> cc;
    for (std::size_t c = 0; c < row.size() && c < fields.size(); ++c) {
      const auto v = stated(row[c]);
      if (!v) continue;
      switch (fields[c]) {
        case Field::index: g.pci_bus_id = "report:GPU" + *v; break;
        case Field::name: g.product_name = v; break;
        case Field::driver: s.driver_version = v; out.where["nvidia_smi.driver_version"] = p.at(k); break;
        case Field::bus_id: break;  // kept below: the report's GPU ids join the other blocks' by index
        case Field::uuid: g.uuid = v; break;
        case Field::memory_total: if (auto n = number(*v); n && *n >= 0 && *n < 1e12) g.memory_total_mib = static_cast<std::int64_t>(*n); break;
        case Field::compute_cap: cc = v; break;
        case Field::power_limit: g.power_limit_w = number(*v); break;
        case Field::persistence: g.persistence_mode = v; break;
        case Field::compute_mode: g.compute_mode = v; break;
        case Field::mig_mode: g.mig_mode_current = v; break;
        case Field::vbios: g.vbios = v; break;
        case Field::serial: g.serial = v; break;
        case Field::temperature: if (auto n = number(*v); n && *n > -273 && *n < 1000) g.temperature_c = static_cast<int>(*n); break;
        case Field::other: break;
      }
    }
    if (cc) {
      CudaDevice d;
      d.ordinal = static_cast<int>(devices.size());
      d.name = g.product_name;
      d.uuid = g.uuid;
      d.compute_capability = cc;
      d.pci_bus_id = g.pci_bus_id;
      devices.push_back(std::move(d));
    }
    s.gpus.push_back(std::move(g));
  }
  out.facts.nvidia_smi = std::move(s);
  if (!devices.empty()) {
    out.facts.cuda = CudaDriverApiFacts{};
    out.facts.cuda->devices = std::move(devices);
  }
}

}  // namespace

BlockReader nvsmi_csv_reader() { return {"nvidia-smi --query-gpu", opens, continues, read}; }

}  // namespace gpucheck
