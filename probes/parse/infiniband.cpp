#include "parse/infiniband.hpp"

#include <charconv>

#include "util/strings.hpp"

namespace gpucheck {

std::optional<std::string> ib_state_word(std::string_view text) {
  text = trim(text);
  const auto colon = text.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  const auto word = trim(text.substr(colon + 1));
  if (word.empty() || word.size() > 32) return std::nullopt;
  return std::string(word);
}

std::optional<double> ib_rate_gbps(std::string_view text) {
  text = trim(text);
  const auto space = text.find(' ');
  if (space == std::string_view::npos || text.substr(space + 1, 6) != "Gb/sec") return std::nullopt;
  double v = 0;
  const auto num = text.substr(0, space);
  auto [end, ec] = std::from_chars(num.data(), num.data() + num.size(), v);
  if (ec != std::errc() || end != num.data() + num.size() || !(v >= 0) || v > 1e6) return std::nullopt;
  return v;
}

}  // namespace gpucheck
