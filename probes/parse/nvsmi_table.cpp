#include "parse/nvsmi_table.hpp"

#include <regex>

#include "facts/fact_limits.hpp"
#include "parse/nvsmi.hpp"
#include "parse/nvsmi_labels.hpp"
#include "util/pci_address.hpp"
#include "util/strings.hpp"

namespace gpucheck {
namespace {

std::vector<std::string_view> cells(std::string_view row) {
  auto parts = split(trim(row), '|');
  // "| a | b | c |" splits into "", a, b, c, "": drop the outer empties.
  if (!parts.empty() && trim(parts.front()).empty()) parts.erase(parts.begin());
  if (!parts.empty() && trim(parts.back()).empty()) parts.pop_back();
  for (auto& p : parts) p = trim(p);
  return parts;
}

std::vector<std::string_view> words(std::string_view s) {
  std::vector<std::string_view> out;
  for (auto w : split(s, ' '))
    if (!w.empty()) out.push_back(w);
  return out;
}

bool is_index(std::string_view s) { return !s.empty() && parse_int(s).has_value(); }

std::optional<std::string> on_off(std::string_view s) {
  if (s == "On" || s == "Enabled") return std::string("Enabled");
  if (s == "Off" || s == "Disabled") return std::string("Disabled");
  return std::nullopt;
}

// The table abbreviates compute modes; -q and the XML spell them out.
std::optional<std::string> compute_mode(std::string_view s) {
  if (s == "Default") return std::string("Default");
  if (s == "E. Process") return std::string("Exclusive_Process");
  if (s == "E. Thread") return std::string("Exclusive_Thread");
  if (s == "Prohibited") return std::string("Prohibited");
  return std::nullopt;
}

std::optional<std::string> match(std::string_view s, const std::regex& re, int group = 1) {
  std::match_results<std::string_view::const_iterator> m;
  if (!std::regex_search(s.begin(), s.end(), m, re)) return std::nullopt;
  return m[group].str();
}

// First row: "  0  Tesla K80     Off  | 0000E5F5:00:00.0 Off |     0 |"
std::optional<SmiGpu> first_row(const std::vector<std::string_view>& c) {
  auto w = words(c[0]);
  auto bus = words(c[1]);
  if (w.size() < 2 || bus.empty() || bus[0].find(':') == std::string_view::npos) return std::nullopt;
  SmiGpu g;
  g.pci_bus_id = normalize_pci_bus_id(bus[0]);
  std::size_t name_end = w.size();
  if (auto p = on_off(w.back())) {
    g.persistence_mode = p;
    --name_end;
  } else if (w.back() == "WDDM" || w.back() == "TCC") {
    --name_end;  // Windows' driver model, in the persistence column
  }
  std::string name;
  for (std::size_t i = 1; i < name_end; ++i) name += (i > 1 ? " " : "") + std::string(w[i]);
  if (!name.empty()) g.product_name = name;
  const auto ecc = c[2];
  if (auto n = parse_int(ecc)) {
    g.ecc_mode_current = "Enabled";
    g.ecc_volatile.uncorrected = *n;
  } else if (ecc == "Off") {
    g.ecc_mode_current = "Disabled";
  } else if (ecc == "On") {
    g.ecc_mode_current = "Enabled";  // with MIG enabled the counts live in the MIG instances
  }
  return g;
}

// Second row: " N/A   50C    P0    59W / 149W |  0MiB / 11441MiB |  97%  Default |".
// Either side of the power may be "N/A" ("N/A /  75W": no draw sensor, a
// 75 W limit), and so may the utilisation ("N/A      Default").
void second_row(const std::vector<std::string_view>& c, SmiGpu& g) {
  static const std::regex kTemp(R"((?:^|\s)(-?\d+)C(?:\s|$))"),
      kPower(R"((\d+(?:\.\d+)?W|N/A)\s*/\s*(\d+(?:\.\d+)?W|N/A))"), kMemory(R"((\d+)MiB\s*/\s*(\d+)MiB)");
  auto watts = [](const std::optional<std::string>& s) -> std::optional<double> {
    if (!s || s->back() != 'W') return std::nullopt;
    return parse_double(std::string_view(*s).substr(0, s->size() - 1));
  };
  if (auto t = match(c[0], kTemp)) g.temperature_c = parse_int_in(*t, -273, 1000);
  g.power_draw_w = watts(match(c[0], kPower, 1));
  g.power_limit_w = watts(match(c[0], kPower, 2));
  if (auto m = match(c[1], kMemory, 2)) g.memory_total_mib = parse_int(*m);
  auto util_end = c[2].find('%');
  if (util_end == std::string_view::npos && starts_with(c[2], "N/A")) util_end = 2;
  if (util_end != std::string_view::npos) g.compute_mode = compute_mode(trim(c[2].substr(util_end + 1)));
}

}  // namespace

namespace {

// The banner's value after "<label>:", for the first label of `labels`
// the line holds.
template <std::size_t N>
std::optional<std::string> banner_value(std::string_view line, const std::array<NvsmiLabel, N>& labels) {
  for (const auto& l : labels) {
    const std::string key = std::string(l.text) + ":";
    const auto at = line.find(key);
    if (at == std::string_view::npos) continue;
    // A value ends at the column's border or the gap before the next field:
    // "Driver Version: 535.161.07   CUDA Version: Not Found |".
    auto rest = trim(line.substr(at + key.size()));
    rest = trim(rest.substr(0, std::min(rest.find('|'), rest.find("  "))));
    return std::string(rest);
  }
  return std::nullopt;
}

bool is_banner(std::string_view line) {
  return line.find("NVIDIA-SMI ") != std::string_view::npos && banner_value(line, kNvsmiDriverLabels).has_value();
}

}  // namespace

bool looks_like_nvsmi_table(std::string_view text) {
  for (auto raw : split_lines(text))
    if (is_banner(trim(raw))) return true;
  return false;
}

Result<NvidiaSmiFacts> parse_nvsmi_table(std::string_view text) {
  if (!is_text(text)) return Problem{Reason::malformed, "", "not text (binary data)"};
  const auto lines = split_lines(text);
  NvidiaSmiFacts f;
  std::size_t i = 0;
  while (i < lines.size() && !is_banner(lines[i])) ++i;
  if (i == lines.size())
    return Problem{Reason::malformed, "",
                   "no \"NVIDIA-SMI … Driver Version: …\" (or R610's \"KMD Version: …\") banner: not an nvidia-smi table"};
  f.driver_version = banner_value(lines[i], kNvsmiDriverLabels);
  if (auto c = banner_value(lines[i], kNvsmiCudaLabels); c && nvsmi_states_a_value(*c)) f.cuda_version = c;

  bool mig_column = false;
  for (++i; i < lines.size(); ++i) {
    const auto line = trim(lines[i]);
    if (line.find("MIG M.") != std::string_view::npos) mig_column = true;
    if (starts_with(line, "|===")) break;
  }
  int row_in_gpu = 0;
  for (++i; i < lines.size(); ++i) {
    const auto line = trim(lines[i]);
    if (starts_with(line, "+") || starts_with(line, "|-")) continue;  // separators between GPUs
    if (!starts_with(line, "|")) break;                                // end of the GPU table
    const auto c = cells(line);
    if (c.size() < 3) break;  // "| Processes: …" and the like
    const auto w = words(c[0]);
    if (!w.empty() && is_index(w[0])) {
      auto g = first_row(c);
      if (!g)
        return Problem{Reason::malformed, "line " + std::to_string(i + 1),
                       "expected a GPU row (index, name, bus id), found: " + std::string(line)};
      f.gpus.push_back(std::move(*g));
      if (f.gpus.size() > kMaxGpusPerNode)
        return Problem{Reason::malformed, "line " + std::to_string(i + 1),
                       "lists more than " + std::to_string(kMaxGpusPerNode) + " GPUs; nvidia-smi reports one node's"};
      row_in_gpu = 1;
      continue;
    }
    if (f.gpus.empty()) continue;
    ++row_in_gpu;
    if (row_in_gpu == 2) second_row(c, f.gpus.back());
    if (row_in_gpu == 3 && mig_column) f.gpus.back().mig_mode_current = on_off(c[2]);
  }
  return f;
}

}  // namespace gpucheck
