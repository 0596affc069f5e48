// Iluvatar CoreX's ixsmi, an nvidia-smi look-alike (its table, -q and -q -x
// forms copy NVIDIA's layout; GuanceCloud/datakit's test data holds all
// three). Its GPUs are not NVIDIA's: the block is named and its GPUs and
// driver are said in a note, and nothing of it becomes an NVIDIA fact.
#include <cctype>

#include "importers/block_readers.hpp"
#include "importers/block_util.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

bool contains(std::string_view s, std::string_view what) { return s.find(what) != std::string_view::npos; }

enum class Form { table, query, xml };

std::optional<Form> form_at(const PasteText& p, std::size_t i) {
  const auto t = p.trimmed(i);
  if (contains(t, "IX-ML:")) return Form::table;
  if (contains(t, "IXSMI LOG")) return Form::query;
  if (contains(t, "<ixsmi_log")) return Form::xml;
  if (starts_with(t, "<?xml") && contains(p.trimmed(i + 1), "ixsmi_log")) return Form::xml;
  return std::nullopt;
}

Opens opens(const PasteText& p, std::size_t i) {
  if (form_at(p, i)) return Opens::surely;
  const auto t = p.trimmed(i);
  // The rule or time stamp above the table's banner.
  if ((starts_with(t, "+-") || starts_with(t, "Timestamp")) &&
      ((i + 1 < p.lines.size() && contains(p.lines[i + 1], "IX-ML:")) || (i + 2 < p.lines.size() && contains(p.lines[i + 2], "IX-ML:"))))
    return Opens::surely;
  return Opens::no;
}

Form block_form(const PasteText& p, std::size_t first) {
  for (std::size_t k = first; k < first + 3 && k < p.lines.size(); ++k)
    if (auto f = form_at(p, k)) return *f;
  return Form::table;
}

bool continues(const PasteText& p, std::size_t first, std::size_t i) {
  const auto raw = p.lines[i];
  const auto t = trim(raw);
  switch (block_form(p, first)) {
    case Form::xml: return !contains(p.lines[i - 1], "</ixsmi_log>");
    case Form::query: return t.empty() || raw.front() == ' ' || raw.front() == '\t' || contains(t, " : ") || starts_with(t, "GPU ");
    case Form::table:
      if (contains(t, "IX-ML:")) return i <= first + 2;
      if (starts_with(t, "|") || starts_with(t, "+")) return true;
      if (!t.empty()) return false;
      for (std::size_t k = i + 1; k < i + 3 && k < p.lines.size(); ++k)
        if (const auto n = p.trimmed(k); !n.empty()) return starts_with(n, "+") || starts_with(n, "|");
      return false;
  }
  return false;
}

// "<product_name>Iluvatar BI-V100</product_name>" -> the text between the tags.
std::string_view element(std::string_view t, std::string_view tag) {
  std::string open = "<";
  open.append(tag).append(">");
  if (!starts_with(t, open)) return {};
  const auto rest = t.substr(open.size());
  return rest.substr(0, rest.find('<'));
}

void read(const PasteText& p, std::size_t first, std::size_t last, BlockFacts& out) {
  std::string driver;
  std::vector<std::string> gpus;
  const Form form = block_form(p, first);
  for (std::size_t k = first; k <= last; ++k) {
    const auto t = p.trimmed(k);
    if (form == Form::xml) {
      if (auto v = element(t, "driver_version"); !v.empty()) driver = std::string(v);
      if (auto v = element(t, "product_name"); !v.empty()) gpus.emplace_back(v);
    } else if (form == Form::query) {
      if (auto kv = key_text(t); kv && kv->key == "Driver Version") driver = std::string(kv->value);
      if (auto kv = key_text(t); kv && kv->key == "Product Name") gpus.emplace_back(kv->value);
    } else if (const auto at = t.find("Driver Version:"); at != std::string_view::npos) {
      driver = std::string(first_word(t.substr(at + 15)));
    } else if (const auto cell0 = starts_with(t, "| ") ? trim(t.substr(1)) : std::string_view{};
               !cell0.empty() && std::isdigit(static_cast<unsigned char>(cell0[0]))) {
      // "| 0    Iluvatar BI-V100         | 00000000:65:00.0     | …"
      auto cell = trim(t.substr(1, t.find('|', 1) - 1));
      const auto name = trim(cell.substr(cell.find(' ') == std::string_view::npos ? cell.size() : cell.find(' ')));
      if (!name.empty() && std::isalpha(static_cast<unsigned char>(name[0]))) gpus.emplace_back(name);
    }
  }
  std::string note = "Iluvatar CoreX's ixsmi, not NVIDIA's nvidia-smi: its GPUs";
  note += gpus.empty() ? "" : " (" + join(gpus, ", ") + ")";
  note += driver.empty() ? "" : " and driver " + driver;
  note += " are not judged";
  out.note = note;
  out.kind = form == Form::xml ? "ixsmi -q -x" : form == Form::query ? "ixsmi -q" : "ixsmi";
}

}  // namespace

BlockReader ixsmi_reader() { return {"ixsmi", opens, continues, read}; }

}  // namespace gpucheck
