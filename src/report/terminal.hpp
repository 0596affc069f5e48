// Styling for the text report: ANSI colour only when asked for; the CLI
// decides (a terminal, NO_COLOR unset, TERM not "dumb", or --color).
#pragma once

#include <string>
#include <string_view>

namespace gpucheck {

class Style {
 public:
  explicit Style(bool color) : color_(color) {}
  std::string bold(std::string_view s) const { return wrap("1", s); }
  std::string dim(std::string_view s) const { return wrap("2", s); }
  std::string warn(std::string_view s) const { return wrap("33", s); }
  std::string bad(std::string_view s) const { return wrap("31", s); }
  std::string good(std::string_view s) const { return wrap("32", s); }

 private:
  std::string wrap(const char* code, std::string_view s) const;
  bool color_;
};

}  // namespace gpucheck
