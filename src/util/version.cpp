#include "util/version.hpp"

#include <algorithm>
#include <cctype>

namespace gpucheck {

std::optional<Version> Version::parse(std::string_view text) {
  Version v;
  std::size_t i = 0;
  while (true) {
    if (i >= text.size() || !std::isdigit(static_cast<unsigned char>(text[i]))) return std::nullopt;
    long n = 0;
    std::size_t digits = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
      if (++digits > 9) return std::nullopt;  // not a version, a serial number
      n = n * 10 + (text[i] - '0');
      ++i;
    }
    v.parts_.push_back(n);
    if (i + 1 < text.size() && text[i] == '.' && std::isdigit(static_cast<unsigned char>(text[i + 1]))) {
      ++i;
      continue;
    }
    break;
  }
  v.suffix_ = std::string(text.substr(i));
  v.text_ = std::string(text);
  return v;
}

std::optional<Version> Version::from_cuda_int(long long value) {
  if (value < 1000 || value > 999999) return std::nullopt;
  return parse(std::to_string(value / 1000) + "." + std::to_string((value % 1000) / 10));
}

Version Version::major_minor() const {
  Version v;
  v.parts_ = {major(), minor()};
  v.text_ = std::to_string(major()) + "." + std::to_string(minor());
  return v;
}

std::strong_ordering Version::operator<=>(const Version& o) const {
  const auto n = std::max(parts_.size(), o.parts_.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (auto c = part(i) <=> o.part(i); c != 0) return c;
  }
  return std::strong_ordering::equal;
}

std::vector<std::string> version_texts(const std::vector<Version>& versions) {
  std::vector<std::string> out;
  out.reserve(versions.size());
  for (const auto& v : versions) out.push_back(v.text());
  return out;
}

}  // namespace gpucheck
