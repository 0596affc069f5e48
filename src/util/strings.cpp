#include "util/strings.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace gpucheck {

namespace {
// find_first_not_of(" \t\r\n\v\f") calls memchr for every character: the
// nvidia-smi text of 1,024 GPUs spent a fifth of its parse there.
bool is_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
bool is_text_byte(unsigned char c) { return (c >= 0x20 && c != 0x7f) || c == '\n' || c == '\t' || c == '\r'; }
}  // namespace

std::string_view trim(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && is_space(s[b])) ++b;
  while (e > b && is_space(s[e - 1])) --e;
  return s.substr(b, e - b);
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (;;) {
    const auto pos = s.find(sep, start);
    if (pos == std::string_view::npos) {
      out.push_back(s.substr(start));
      return out;
    }
    out.push_back(s.substr(start, pos - start));
    start = pos + 1;
  }
}

std::vector<std::string_view> split_lines(std::string_view s) {
  auto lines = split(s, '\n');
  if (!lines.empty() && lines.back().empty()) lines.pop_back();
  for (auto& l : lines)
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
  return lines;
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

std::string to_upper(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return out;
}

std::string alnum_key(std::string_view s) {
  std::string out;
  for (char c : s)
    if (std::isalnum(static_cast<unsigned char>(c))) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string plural(std::size_t n, std::string_view word) { return std::to_string(n) + " " + std::string(word) + (n == 1 ? "" : "s"); }

// Built by appending: GCC 12 at -O3 warns (-Wrestrict, a false positive)
// on "x" + std::string.
std::string lanes_text(long long lanes) {
  std::string out = "x";
  out += std::to_string(lanes);
  return out;
}

std::string to_lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::optional<long long> parse_int(std::string_view s, int base) {
  s = trim(s);
  if (base == 16 && (starts_with(s, "0x") || starts_with(s, "0X"))) s.remove_prefix(2);
  if (s.empty()) return std::nullopt;
  long long v = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

std::optional<int> parse_int_in(std::string_view s, int lo, int hi) {
  const auto v = parse_int(s);
  if (!v || *v < lo || *v > hi) return std::nullopt;
  return static_cast<int>(*v);
}

std::optional<double> parse_double(std::string_view s) {
  s = trim(s);
  if (s.empty()) return std::nullopt;
  double v = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

bool is_text(std::string_view s) {
  // Sixteen bytes at a time with the compiler's portable vector types (no
  // instruction set named): every environment's METADATA headers pass here.
  using Bytes = unsigned char __attribute__((vector_size(16)));
  std::size_t i = 0;
  for (; i + sizeof(Bytes) <= s.size(); i += sizeof(Bytes)) {
    Bytes v;
    std::memcpy(&v, s.data() + i, sizeof v);
    const auto bad = ((v < 0x20) & (v != '\n') & (v != '\t') & (v != '\r')) | (v == 0x7f);
    std::uint64_t half[2];
    std::memcpy(half, &bad, sizeof half);
    if (half[0] | half[1]) return false;
  }
  return std::all_of(s.begin() + static_cast<std::ptrdiff_t>(i), s.end(), [](unsigned char c) { return is_text_byte(c); });
}

std::string join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i) out += sep;
    out += parts[i];
  }
  return out;
}

std::string fit_on_words(std::string_view s, std::size_t max) {
  if (s.size() <= max) return std::string(s);
  constexpr std::string_view kMore = "...";
  if (max < kMore.size()) return std::string(kMore.substr(0, max));
  const std::size_t room = max - kMore.size();
  // The last space at or before `room` ends the last whole word that fits.
  std::size_t cut = s.rfind(' ', room);
  if (cut == std::string_view::npos || cut == 0) {
    cut = room;
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;  // not inside a character
  }
  while (cut > 0 && (s[cut - 1] == ' ' || s[cut - 1] == '(' || s[cut - 1] == ',' || s[cut - 1] == ';' || s[cut - 1] == ':')) --cut;
  return std::string(s.substr(0, cut)) + std::string(kMore);
}

std::string parenthesized(std::string_view s) {
  const bool already = s.size() >= 2 && s.front() == '(' && s.back() == ')';
  std::string out = already ? " " : " (";
  out.append(s);
  if (!already) out += ')';
  return out;
}

std::string line_and_column(std::string_view text, std::size_t byte) {
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i < byte && i < text.size(); ++i) {
    if (text[i] == '\n') ++line, column = 1;
    else ++column;
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

}  // namespace gpucheck
