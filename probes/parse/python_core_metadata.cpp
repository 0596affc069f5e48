// Core metadata (packaging.python.org/specifications/core-metadata): the
// headers of dist-info METADATA and egg-info PKG-INFO, setuptools'
// requires.txt, and the name and version in a metadata directory's name.
#include "parse/python_core_metadata.hpp"

#include <algorithm>

#include "parse/python_lexing.hpp"
#include "util/strings.hpp"

namespace gpucheck {

std::size_t core_metadata_headers_end(std::string_view text) {
  std::size_t line = 0;
  while (line < text.size()) {
    const auto nl = text.find('\n', line);
    const std::size_t line_end = nl == std::string_view::npos ? text.size() : nl;
    if (trim(text.substr(line, line_end - line)).empty()) return line;
    line = nl == std::string_view::npos ? text.size() : nl + 1;
  }
  return std::string_view::npos;
}

Result<CoreMetadata> parse_core_metadata(std::string_view text) {
  // Only the header block is looked at (and checked for binary data): the
  // long description after it can be large and is not needed.
  const std::string_view headers = text.substr(0, core_metadata_headers_end(text));
  if (!is_text(headers) || (headers.empty() && !is_text(text.substr(0, 512))))
    return Problem{Reason::malformed, "", "holds binary data, not text"};
  // Only three headers are kept; the rest (classifiers, long licence
  // texts) are skipped without copying, as a run reads every installed
  // distribution's.
  enum class Field { other, name, version, requires_dist };
  const auto field_of = [](std::string_view key) {
    const auto is = [key](std::string_view want) {
      return key.size() == want.size() &&
             std::equal(key.begin(), key.end(), want.begin(),
                        [](char a, char b) { return (a >= 'A' && a <= 'Z' ? static_cast<char>(a - 'A' + 'a') : a) == b; });
    };
    return is("name") ? Field::name : is("version") ? Field::version : is("requires-dist") ? Field::requires_dist : Field::other;
  };
  CoreMetadata m;
  Field field = Field::other;
  std::string value;
  bool have_name = false, have_version = false;
  auto flush = [&] {
    if (field == Field::other) return;
    std::string v(trim(value));
    if (field == Field::name && !have_name) {
      m.name = std::move(v);
      have_name = true;
    } else if (field == Field::version && !have_version) {
      m.version = std::move(v);
      have_version = true;
    } else if (field == Field::requires_dist && !v.empty()) {
      m.requires_dist.push_back(std::move(v));
    }
    field = Field::other;
    value.clear();
  };
  std::size_t pos = 0;
  while (pos < headers.size()) {
    const auto nl = headers.find('\n', pos);
    std::string_view line = headers.substr(pos, (nl == std::string_view::npos ? headers.size() : nl) - pos);
    pos = nl == std::string_view::npos ? headers.size() : nl + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (is_blank(line[0])) {  // a continuation of the previous header
      if (field != Field::other) {
        value += " ";
        value += trim(line);
      }
      continue;
    }
    flush();
    const auto colon = line.find(':');
    if (colon == std::string_view::npos) continue;  // not a header: ignored, as email.parser does
    field = field_of(trim(line.substr(0, colon)));
    if (field != Field::other) value = trim(line.substr(colon + 1));
  }
  flush();
  if (!have_name || m.name.empty()) return Problem{Reason::malformed, "", "no Name header (truncated or not core metadata)"};
  if (!have_version || m.version.empty()) return Problem{Reason::malformed, "", "no Version header (truncated or not core metadata)"};
  return m;
}

std::vector<std::string> parse_requires_txt(std::string_view text) {
  std::vector<std::string> out;
  std::string section_marker;
  for (auto raw : split_lines(text)) {
    auto line = trim(raw);
    if (line.empty() || line[0] == '#') continue;
    if (line.front() == '[' && line.back() == ']') {
      auto inner = trim(line.substr(1, line.size() - 2));
      const auto colon = inner.find(':');
      const std::string extra(trim(inner.substr(0, colon)));
      const std::string marker = colon == std::string_view::npos ? "" : std::string(trim(inner.substr(colon + 1)));
      section_marker.clear();
      if (!marker.empty()) section_marker = "(" + marker + ")";
      if (!extra.empty()) section_marker += (section_marker.empty() ? "" : " and ") + std::string("extra == \"") + extra + "\"";
      continue;
    }
    std::string req(line);
    if (!section_marker.empty()) {
      // A requirement line may carry its own marker; both must hold.
      const auto semi = req.find(';');
      if (semi == std::string::npos) req += "; " + section_marker;
      else req = req.substr(0, semi) + "; (" + std::string(trim(std::string_view(req).substr(semi + 1))) + ") and " + section_marker;
    }
    out.push_back(req);
  }
  return out;
}

std::optional<NameVersion> split_metadata_dir_name(std::string_view dir_name) {
  std::string_view s = dir_name;
  for (std::string_view ext : {".dist-info", ".egg-info"}) {
    if (s.size() > ext.size() && s.substr(s.size() - ext.size()) == ext) {
      s.remove_suffix(ext.size());
      const auto dash = s.find('-');
      if (dash == std::string_view::npos || dash == 0) return std::nullopt;
      NameVersion nv{std::string(s.substr(0, dash)), std::string(s.substr(dash + 1))};
      // egg-info: "name-1.0-py3.10"; wheels escape "-" in the version, so a second dash ends it.
      if (auto d2 = nv.version.find('-'); d2 != std::string::npos) nv.version.resize(d2);
      if (nv.version.empty()) return std::nullopt;
      return nv;
    }
  }
  return std::nullopt;
}

}  // namespace gpucheck
