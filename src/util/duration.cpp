#include "util/duration.hpp"

#include <cmath>

#include "util/strings.hpp"

namespace gpucheck {

std::optional<double> parse_duration_seconds(std::string_view text) {
  text = trim(text);
  struct Unit {
    std::string_view suffix;
    double seconds;
  };
  // "ms" before "m" and "s": the longest suffix that matches is the unit.
  static constexpr Unit kUnits[] = {{"ms", 0.001}, {"s", 1}, {"m", 60}, {"h", 3600}};
  double scale = 1;
  for (const auto& u : kUnits) {
    if (text.size() > u.suffix.size() && text.substr(text.size() - u.suffix.size()) == u.suffix) {
      text.remove_suffix(u.suffix.size());
      scale = u.seconds;
      break;
    }
  }
  // from_chars would take "inf", "nan" and "1e400"; a duration is none of them.
  if (text.empty() || !(std::isdigit(static_cast<unsigned char>(text.front())) || text.front() == '.')) return std::nullopt;
  const auto v = parse_double(text);
  if (!v || !std::isfinite(*v * scale)) return std::nullopt;
  return *v * scale;
}

}  // namespace gpucheck
