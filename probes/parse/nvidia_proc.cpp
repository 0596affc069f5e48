#include "parse/nvidia_proc.hpp"

#include "util/strings.hpp"
#include "util/version.hpp"

namespace gpucheck {

Result<KernelModule> parse_nvrm_version(std::string_view text) {
  if (!is_text(text)) return Problem{Reason::malformed, "", "not text (binary data)"};
  KernelModule m;
  bool seen = false;
  for (auto line : split_lines(text)) {
    line = trim(line);
    if (starts_with(line, "GCC version:")) {
      auto g = trim(line.substr(12));
      if (starts_with(g, "gcc version ")) g.remove_prefix(12);
      m.gcc_version = std::string(trim(g));
      continue;
    }
    if (!starts_with(line, "NVRM version:")) continue;
    seen = true;
    // Tokens are separated by runs of two spaces; split on single spaces and
    // find the first token that parses as a version with at least two parts.
    auto rest = trim(line.substr(13));
    const bool open = rest.find("Open Kernel Module") != std::string_view::npos;
    m.flavor = open ? "open" : "proprietary";
    const auto words = split(rest, ' ');
    for (std::size_t i = 0; i < words.size(); ++i) {
      const auto w = words[i];
      if (w == "x86_64" || w == "aarch64" || w == "ppc64le" || w == "arm64") m.arch = std::string(w);
      auto v = Version::parse(w);
      if (!m.version && v && v->parts().size() >= 2 && v->suffix().empty()) {
        m.version = std::string(w);
        std::string build;
        for (std::size_t k = i + 1; k < words.size(); ++k)
          if (!words[k].empty()) {
            if (!build.empty()) build += ' ';
            build += words[k];
          }
        if (!build.empty()) m.build = build;
      }
    }
  }
  if (!seen) return Problem{Reason::malformed, "", "no \"NVRM version:\" line"};
  if (!m.version) return Problem{Reason::malformed, "", "the NVRM line holds no version number"};
  return m;
}

ProcGpu parse_gpu_information(std::string_view text) {
  ProcGpu g;
  for (auto line : split_lines(text)) {
    const auto colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    const auto key = trim(line.substr(0, colon));
    auto value = std::string(trim(line.substr(colon + 1)));
    if (value.empty()) continue;
    if (key == "Model") g.model = value;
    else if (key == "GPU UUID") g.uuid = value;
    else if (key == "Video BIOS") g.vbios = value;
    else if (key == "Bus Type") g.bus_type = value;
    else if (key == "Bus Location") g.bus_location = to_lower(value);
    else if (key == "Device Minor") g.device_minor = value;
    else if (key == "GPU Excluded") g.excluded = value;
  }
  return g;
}

}  // namespace gpucheck
