#include "util/json_text.hpp"

#include "util/strings.hpp"

namespace gpucheck {
namespace {

// nlohmann quotes the token it stopped at, which may be a whole unterminated
// string of the input: keep its start only.
std::string shorten_last_read(std::string_view what) {
  constexpr std::string_view kLastRead = "last read: '";
  constexpr std::size_t kKeep = 40;
  const auto at = what.find(kLastRead);
  if (at == std::string_view::npos || what.size() - at - kLastRead.size() <= kKeep + 1) return std::string(what);
  return std::string(what.substr(0, at + kLastRead.size() + kKeep)) + "…'";
}

std::string strip_prefix(std::string_view what) {
  if (what.substr(0, 1) == "[")
    if (const auto close = what.find("] "); close != std::string_view::npos) what.remove_prefix(close + 2);
  // "parse error at line 3, column 14: syntax error …" → "line 3, column 14: syntax error …"
  if (const std::string_view at = "parse error at "; what.substr(0, at.size()) == at) what.remove_prefix(at.size());
  else if (const std::string_view pe = "parse error: "; what.substr(0, pe.size()) == pe) what.remove_prefix(pe.size());
  return shorten_last_read(what);
}

}  // namespace

std::string json_error_text(const nlohmann::json::exception& e, std::string_view text) {
  const std::string what = strip_prefix(e.what());
  if (what.substr(0, 5) == "line ") return what;
  // A number out of range names itself but not where it is.
  if (const auto q = what.find('\''); q != std::string::npos) {
    const auto token = std::string_view(what).substr(q + 1, what.rfind('\'') - q - 1);
    if (!token.empty())
      if (const auto at = text.find(token); at != std::string_view::npos) return line_and_column(text, at) + ": " + what;
  }
  return what;
}

}  // namespace gpucheck
