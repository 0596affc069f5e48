#include "parse/cuda_files.hpp"

#include <nlohmann/json.hpp>

#include "parse/c_header.hpp"
#include "util/strings.hpp"
#include "util/version.hpp"
#include "util/json_text.hpp"

namespace gpucheck {

Result<std::string> cuda_version_from_version_json(std::string_view text) {
  auto j = parse_json(text);
  if (!j) return Problem{Reason::malformed, "", "version.json: " + j.problem().detail};
  const auto cuda = j->find("cuda");
  if (!j->is_object() || cuda == j->end() || !cuda->is_object() || !cuda->contains("version"))
    return Problem{Reason::malformed, "", "version.json: no cuda.version"};
  const auto& v = (*cuda)["version"];
  if (!v.is_string() || !Version::parse(v.get<std::string>()))
    return Problem{Reason::malformed, "", "cuda.version is not a version"};
  return v.get<std::string>();
}

Result<std::string> cuda_version_from_version_txt(std::string_view text) {
  const auto at = text.find("CUDA Version ");
  if (at == std::string_view::npos) return Problem{Reason::malformed, "", "no \"CUDA Version\" line"};
  auto rest = trim(text.substr(at + 13));
  rest = rest.substr(0, rest.find_first_of(" \r\n"));
  if (!Version::parse(rest)) return Problem{Reason::malformed, "", "\"CUDA Version\" is not followed by a version"};
  return std::string(rest);
}

Result<std::string> cuda_version_from_nvcc(std::string_view text) {
  for (auto line : split_lines(text)) {
    const auto at = line.find(", V");
    if (line.find("release ") == std::string_view::npos || at == std::string_view::npos) continue;
    auto v = trim(line.substr(at + 3));
    if (Version::parse(v)) return std::string(v);
  }
  return Problem{Reason::malformed, "", "no \"release X.Y, VX.Y.Z\" line in nvcc --version"};
}

std::map<std::string, long> integer_defines(std::string_view header) {
  std::map<std::string, long> out;
  for (auto& [name, text] : macro_definitions(header)) {
    std::string_view value = text;
    value = value.substr(0, value.find_first_of(" \t"));
    while (!value.empty() && (value.back() == 'U' || value.back() == 'L' || value.back() == 'u' || value.back() == 'l'))
      value.remove_suffix(1);
    if (auto n = parse_int(value)) out[name] = static_cast<long>(*n);
  }
  return out;
}

std::optional<std::string> version_from_defines(const std::map<std::string, long>& defines,
                                                const std::vector<std::string>& names) {
  std::string v;
  for (auto& n : names) {
    auto it = defines.find(n);
    if (it == defines.end()) return std::nullopt;
    if (!v.empty()) v += '.';
    v += std::to_string(it->second);
  }
  return v;
}

std::optional<DistInfoName> parse_dist_info_dir(std::string_view d) {
  constexpr std::string_view kSuffix = ".dist-info";
  if (d.size() <= kSuffix.size() || d.substr(d.size() - kSuffix.size()) != kSuffix) return std::nullopt;
  d.remove_suffix(kSuffix.size());
  // Wheel rules: the name's dashes are escaped to underscores, so the first
  // dash separates name and version.
  const auto dash = d.find('-');
  if (dash == std::string_view::npos || dash == 0 || dash + 1 >= d.size()) return std::nullopt;
  return DistInfoName{std::string(d.substr(0, dash)), std::string(d.substr(dash + 1))};
}

std::vector<std::string> mountinfo_mount_points(std::string_view text) {
  std::vector<std::string> out;
  for (auto line : split_lines(text)) {
    const auto fields = split(line, ' ');
    if (fields.size() < 5) continue;
    std::string p;
    const auto f = fields[4];
    for (std::size_t i = 0; i < f.size(); ++i) {
      if (f[i] == '\\' && i + 3 < f.size()) {
        if (auto c = parse_int(f.substr(i + 1, 3), 8)) {
          p += static_cast<char>(*c);
          i += 3;
          continue;
        }
      }
      p += f[i];
    }
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace gpucheck
