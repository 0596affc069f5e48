#include "report/terminal.hpp"

#include <cstdio>

#include "util/utf8.hpp"

namespace gpucheck {

std::string Style::wrap(const char* code, std::string_view s) const {
  if (!color_) return std::string(s);
  return "\x1b[" + std::string(code) + "m" + std::string(s) + "\x1b[0m";
}

namespace {

bool is_plain(unsigned char c) { return c == '\n' || c == '\t' || (c >= 0x20 && c < 0x7f); }

// DEL as \u007f, not \x7f: nlohmann writes DEL raw inside a JSON string,
// and only the \u form keeps `--json` on standard output JSON.
void escape_byte(unsigned char c, std::string& out) {
  char buf[8];
  std::snprintf(buf, sizeof buf, c == 0x7f ? "\\u%04x" : "\\x%02x", c);
  out += buf;
}

void escape_code_point(char32_t cp, std::string& out) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(cp));
  out += buf;
}

// The code point of a well-formed sequence of n bytes at s.
char32_t decode(std::string_view s, std::size_t n) {
  const auto b = [&](std::size_t k) { return static_cast<char32_t>(static_cast<unsigned char>(s[k])); };
  if (n == 2) return ((b(0) & 0x1F) << 6) | (b(1) & 0x3F);
  if (n == 3) return ((b(0) & 0x0F) << 12) | ((b(1) & 0x3F) << 6) | (b(2) & 0x3F);
  return ((b(0) & 0x07) << 18) | ((b(1) & 0x3F) << 12) | ((b(2) & 0x3F) << 6) | (b(3) & 0x3F);
}

// What a terminal must not be handed raw: C1 controls, and the bidirectional
// marks, embeddings, overrides and isolates that reorder what is shown (a
// host name with U+202E could make "FAIL" read as "LIAF"; CVE-2021-42574).
bool is_hidden_control(char32_t cp) {
  return (cp >= 0x80 && cp < 0xA0) || cp == 0x061C || cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) ||
         (cp >= 0x2066 && cp <= 0x2069);
}

// The length of a colour sequence at s[0] (ESC '[' [0-9;]* 'm'), 0 if it is
// none, npos if s ends before it could tell.
std::size_t colour_sequence(std::string_view s) {
  if (s.size() < 2) return std::string_view::npos;
  if (s[1] != '[') return 0;
  for (std::size_t i = 2; i < s.size() && i < 16; ++i) {
    if (s[i] == 'm') return i + 1;
    if (!((s[i] >= '0' && s[i] <= '9') || s[i] == ';')) return 0;
  }
  return s.size() < 16 ? std::string_view::npos : 0;
}

}  // namespace

std::size_t terminal_safe(std::string_view in, bool keep_colour, bool at_end, std::string& out) {
  std::size_t i = 0;
  while (i < in.size()) {
    // Runs of plain bytes, nearly all of a report, are copied whole.
    std::size_t plain = i;
    while (plain < in.size() && is_plain(static_cast<unsigned char>(in[plain]))) ++plain;
    out.append(in.substr(i, plain - i));
    i = plain;
    if (i == in.size()) break;
    const auto c = static_cast<unsigned char>(in[i]);
    if (c == 0x1b && keep_colour) {
      const std::size_t n = colour_sequence(in.substr(i));
      if (n == std::string_view::npos && !at_end) return i;
      if (n != 0 && n != std::string_view::npos) {
        out.append(in.substr(i, n));
        i += n;
      } else {
        escape_byte(c, out);
        ++i;
      }
    } else if (c < 0x80) {
      escape_byte(c, out);
      ++i;
    } else {
      bool truncated = false;
      const std::size_t n = utf8_sequence_at(in, i, &truncated);
      if (n == 0 && truncated && !at_end) return i;
      if (n == 0) {
        out += kReplacementCharacter;
        ++i;
      } else if (const char32_t cp = decode(in.substr(i), n); is_hidden_control(cp)) {
        escape_code_point(cp, out);
        i += n;
      } else {
        out.append(in.substr(i, n));
        i += n;
      }
    }
  }
  return i;
}

}  // namespace gpucheck
