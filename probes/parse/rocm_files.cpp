#include "parse/rocm_files.hpp"

#include <charconv>
#include <cstdio>

#include "parse/c_header.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

std::optional<std::uint64_t> parse_u64(std::string_view s) {
  if (s.empty()) return std::nullopt;
  std::uint64_t v = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, 10);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

bool is_name(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

// "6.0.2": 2 to 4 dot-separated decimal numbers, nothing else.
bool dotted(std::string_view s) {
  const auto parts = split(s, '.');
  if (parts.size() < 2 || parts.size() > 4) return false;
  for (auto p : parts)
    if (p.empty() || !parse_u64(p)) return false;
  return true;
}

std::string quote(std::string_view s) {
  constexpr std::size_t kMax = 60;
  std::string out;
  for (char c : s.substr(0, kMax)) out += (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7e) ? '?' : c;
  if (s.size() > kMax) out += "...";
  return "\"" + out + "\"";
}

Result<std::string> dotted_from_defines(const std::map<std::string, std::string>& d, const std::string& prefix,
                                        const char* what) {
  std::string out;
  for (const char* part : {"MAJOR", "MINOR", "PATCH"}) {
    const auto name = prefix + part;
    auto it = d.find(name);
    if (it == d.end()) return Problem{Reason::malformed, what, "no #define " + name};
    if (!parse_u64(it->second)) return Problem{Reason::malformed, what, name + " is not a number: " + quote(it->second)};
    out += (out.empty() ? "" : ".") + it->second;
  }
  return out;
}

}  // namespace

Result<KfdProperties> parse_kfd_properties(std::string_view text) {
  KfdProperties p;
  for (auto line : split_lines(text)) {
    line = trim(line);
    if (line.empty()) continue;
    const auto sp = line.find_first_of(" \t");
    const auto name = line.substr(0, sp);
    const auto value = sp == std::string_view::npos ? std::string_view{} : trim(line.substr(sp));
    auto v = parse_u64(value);
    if (!is_name(name) || !v) {
      p.bad_lines.push_back(quote(line));
      continue;
    }
    p.values[std::string(name)] = *v;
  }
  if (p.values.empty())
    return Problem{Reason::malformed, "KFD properties",
                   p.bad_lines.empty() ? "empty" : "no \"name number\" line (first line: " + p.bad_lines.front() + ")"};
  return p;
}

std::optional<std::string> gfx_target_name(std::uint64_t v) {
  const auto major = v / 10000 % 100, minor = v / 100 % 100, stepping = v % 100;
  // A CPU node reports 0; a value of more than six digits is no target.
  if (v == 0 || major == 0 || v >= 1000000) return std::nullopt;
  char buf[32];
  std::snprintf(buf, sizeof buf, "gfx%llu%llx%llx", static_cast<unsigned long long>(major),
                static_cast<unsigned long long>(minor), static_cast<unsigned long long>(stepping));
  return std::string(buf);
}

Result<std::string> parse_rocm_version_file(std::string_view text) {
  const auto lines = split_lines(text);
  const auto first = lines.empty() ? std::string_view{} : trim(lines.front());
  if (first.empty()) return Problem{Reason::malformed, ".info/version", "empty"};
  // "6.0.2-115": the part after '-' is the build number.
  const auto version = first.substr(0, first.find('-'));
  if (!dotted(version))
    return Problem{Reason::malformed, ".info/version", "not a version (MAJOR.MINOR.PATCH[-BUILD]): " + quote(first)};
  if (version.size() < first.size() && !parse_u64(first.substr(version.size() + 1)))
    return Problem{Reason::malformed, ".info/version", "the build number after '-' is not a number: " + quote(first)};
  return std::string(version);
}

Result<std::string> parse_rocm_version_header(std::string_view text) {
  return dotted_from_defines(macro_definitions(text), "ROCM_VERSION_", "rocm_version.h");
}

Result<std::string> parse_hip_version_header(std::string_view text) {
  const auto d = macro_definitions(text);
  auto v = dotted_from_defines(d, "HIP_VERSION_", "hip_version.h");
  if (!v) return v;
  std::string out = *v;
  if (auto it = d.find("HIP_VERSION_GITHASH"); it != d.end() && !it->second.empty() && it->second != "0")
    out += "-" + it->second;
  return out;
}

}  // namespace gpucheck
