#include "fit/fit_numbers.hpp"

#include <cmath>
#include <cstdio>

namespace gpucheck::fit {

std::string count_text(std::int64_t n) {
  std::string digits = std::to_string(n < 0 ? -n : n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return (n < 0 ? "-" : "") + out;
}

std::string number_text(double v) {
  if (!std::isfinite(v)) return "?";
  if (std::fabs(v) >= 1000) return count_text(static_cast<std::int64_t>(std::llround(v)));
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

namespace {

std::string scaled(double v, const char* const* units, int count, double step) {
  int i = 0;
  while (std::fabs(v) >= step * 0.9995 && i + 1 < count) v /= step, ++i;
  return number_text(v) + " " + units[i];
}

}  // namespace

std::string bytes_text(double bytes) {
  static const char* const units[] = {"bytes", "kB", "MB", "GB", "TB", "PB"};
  return scaled(bytes, units, 6, 1000);
}

std::string gib_text(std::int64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GiB", static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0));
  return buf;
}

std::string flops_text(double flops) {
  static const char* const units[] = {"FLOP", "kFLOP", "MFLOP", "GFLOP", "TFLOP", "PFLOP"};
  return scaled(flops, units, 6, 1000);
}

}  // namespace gpucheck::fit
