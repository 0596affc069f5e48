// conda-meta records and their match specs (docs.conda.io, "Package match
// specifications"), and the build string in a record's file name.
#include "parse/conda_meta.hpp"

#include <nlohmann/json.hpp>

#include "parse/python_version.hpp"
#include "util/strings.hpp"

namespace gpucheck {

Result<CondaRecord> parse_conda_meta(std::string_view text) {
  using nlohmann::json;
  // conda-meta records list every installed file ("files", "paths_data"):
  // megabytes for a big package. Those members are dropped while parsing.
  json::parser_callback_t drop_big = [](int depth, json::parse_event_t event, json& parsed) {
    if (depth == 1 && event == json::parse_event_t::key && parsed.is_string()) {
      const auto& k = parsed.get_ref<const std::string&>();
      return k != "files" && k != "paths_data" && k != "link";
    }
    return true;
  };
  json j = json::parse(text.begin(), text.end(), drop_big, false);
  if (j.is_discarded()) return Problem{Reason::malformed, "", "not JSON"};
  if (!j.is_object()) return Problem{Reason::malformed, "", "not a JSON object"};
  auto str = [&](const char* k) -> std::optional<std::string> {
    auto it = j.find(k);
    if (it == j.end() || !it->is_string()) return std::nullopt;
    return it->get<std::string>();
  };
  CondaRecord r;
  auto name = str("name"), version = str("version");
  if (!name || name->empty()) return Problem{Reason::malformed, "", "no \"name\" string"};
  if (!version || version->empty()) return Problem{Reason::malformed, "", "no \"version\" string"};
  r.name = *name;
  r.version = *version;
  r.build = str("build").value_or("");
  r.channel = str("channel");
  r.url = str("url");
  if (auto it = j.find("depends"); it != j.end() && it->is_array())
    for (auto& d : *it)
      if (d.is_string()) r.depends.push_back(d.get<std::string>());
  return r;
}

CondaDepend parse_conda_depend(std::string_view spec) {
  CondaDepend d;
  auto s = trim(spec);
  auto parts = split(s, ' ');
  std::vector<std::string_view> words;
  for (auto p : parts)
    if (!trim(p).empty()) words.push_back(trim(p));
  if (words.empty()) return d;
  d.name = std::string(words[0]);
  if (words.size() < 2) {
    d.specifier = "";
    return d;
  }
  d.raw = std::string(words[1]);
  if (d.raw.find('|') != std::string::npos) return d;  // alternatives: no PEP 440 spelling
  std::string out;
  for (auto clause : split(d.raw, ',')) {
    std::string c(trim(clause));
    if (c.empty()) return d;
    const bool has_op = c[0] == '<' || c[0] == '>' || c[0] == '=' || c[0] == '!' || c[0] == '~';
    if (!has_op) {
      // conda: a bare version is fuzzy ("11.8" matches 11.8.*); "11.8.*" likewise.
      if (c.size() < 2 || c.substr(c.size() - 2) != ".*") c += ".*";
      c = "==" + c;
    } else if (c[0] == '=' && (c.size() < 2 || c[1] != '=')) {
      // "=1.2" is conda's fuzzy equality.
      c = "==" + c.substr(1) + (c.size() > 2 && c.substr(c.size() - 2) == ".*" ? "" : ".*");
    }
    if (!out.empty()) out += ",";
    out += c;
  }
  if (!Pep440Specifier::parse(out)) return d;
  d.specifier = out;
  return d;
}

std::string conda_build_of_record_file(std::string_view file_name) {
  std::string_view stem = file_name;
  if (stem.size() >= 5 && stem.substr(stem.size() - 5) == ".json") stem.remove_suffix(5);
  return std::string(stem.substr(stem.rfind('-') + 1));
}

}  // namespace gpucheck
