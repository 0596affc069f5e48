#include "util/memory_size.hpp"

#include <cctype>
#include <cstdio>

#include "util/strings.hpp"

namespace gpucheck {

std::string one_decimal(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

std::string MemorySize::text() const {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", amount);
  return std::string(buf) + (binary ? " GiB" : " GB");
}

std::optional<MemorySize> parse_memory_size(std::string_view text) {
  std::string_view s = trim(text);
  std::size_t digits = 0;
  while (digits < s.size() && (std::isdigit(static_cast<unsigned char>(s[digits])) || s[digits] == '.')) ++digits;
  if (digits == 0 || digits > 24) return std::nullopt;
  const auto amount = parse_double(s.substr(0, digits));
  if (!amount || !(*amount > 0) || *amount > 1e9) return std::nullopt;
  const std::string unit = to_lower(trim(s.substr(digits)));
  struct Unit {
    const char* name;
    double scale;  // to GB or GiB
    bool binary;
  };
  static constexpr Unit kUnits[] = {{"", 1, false},         {"g", 1, false},         {"gb", 1, false},
                                    {"gib", 1, true},       {"m", 1e-3, false},      {"mb", 1e-3, false},
                                    {"mib", 1.0 / 1024, true}, {"t", 1e3, false},    {"tb", 1e3, false},
                                    {"tib", 1024, true}};
  for (const auto& u : kUnits)
    if (unit == u.name) return MemorySize{*amount * u.scale, u.binary};
  return std::nullopt;
}

}  // namespace gpucheck
