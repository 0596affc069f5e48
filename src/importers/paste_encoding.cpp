#include "importers/paste_encoding.hpp"

#include <algorithm>
#include <array>
#include <cstdio>

#include "util/strings.hpp"
#include "util/utf8.hpp"

namespace gpucheck {
namespace {

// Windows-1252's 0x80–0x9F (the rest of the byte range is Latin-1's code
// points); 0 marks the five bytes it leaves undefined.
constexpr std::array<char16_t, 32> kCp1252High = {
    0x20AC, 0,      0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0,      0x017D, 0,
    0,      0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0,      0x017E, 0x0178};

struct Magic {
  std::string_view bytes, what;
};
constexpr Magic kBinary[] = {{"\x7f" "ELF", "an ELF executable or library"}, {"\x1f\x8b", "gzip data"}, {"PK\x03\x04", "a zip archive"},
                             {"\x89PNG", "a PNG image"}, {"\xff\xd8\xff", "a JPEG image"}, {"GIF8", "a GIF image"},
                             {"\xfd" "7zXZ", "xz data"}, {"BZh", "bzip2 data"}};

bool is_text_control(unsigned char c) { return c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

// UTF-16 without a byte order mark: ASCII text has a NUL in every other
// byte. Which half holds them says the byte order.
std::optional<bool> utf16_little_endian(std::string_view s) {
  const std::size_t n = std::min<std::size_t>(s.size(), 1024) & ~std::size_t{1};
  if (n < 8) return std::nullopt;
  std::size_t even = 0, odd = 0;
  for (std::size_t i = 0; i < n; i += 2) {
    even += s[i] == '\0';
    odd += s[i + 1] == '\0';
  }
  const std::size_t pairs = n / 2;
  if (odd * 10 >= pairs * 7 && even * 10 <= pairs) return true;
  if (even * 10 >= pairs * 7 && odd * 10 <= pairs) return false;
  return std::nullopt;
}

std::string from_utf16(std::string_view s, bool little) {
  std::string out;
  out.reserve(s.size());
  auto unit = [&](std::size_t i) -> char16_t {
    const auto a = static_cast<unsigned char>(s[i]), b = static_cast<unsigned char>(s[i + 1]);
    return static_cast<char16_t>(little ? a | (b << 8) : (a << 8) | b);
  };
  for (std::size_t i = 0; i + 1 < s.size(); i += 2) {
    char32_t c = unit(i);
    if (c >= 0xD800 && c <= 0xDBFF && i + 3 < s.size()) {
      const char32_t low = unit(i + 2);
      if (low >= 0xDC00 && low <= 0xDFFF) {
        c = 0x10000 + ((c - 0xD800) << 10) + (low - 0xDC00);
        i += 2;
      }
    }
    append_utf8(out, c);
  }
  if (s.size() % 2) append_utf8(out, 0xFFFD);
  return out;
}

// True when s has a multi-byte UTF-8 sequence: then a stray invalid byte
// is damage in UTF-8 text, not a sign of another encoding.
bool has_utf8_sequence(std::string_view s) {
  for (std::size_t i = 0; i < s.size(); ++i)
    if (static_cast<unsigned char>(s[i]) >= 0xC2 && utf8_sequence_at(s, i) > 1) return true;
  return false;
}

std::string from_cp1252(std::string_view s) {
  std::string out;
  out.reserve(s.size() + s.size() / 8);
  for (char ch : s) {
    const auto b = static_cast<unsigned char>(ch);
    if (b < 0x80) out += ch;
    else if (b < 0xA0) append_utf8(out, kCp1252High[b - 0x80] ? kCp1252High[b - 0x80] : 0xFFFD);
    else append_utf8(out, b);
  }
  return out;
}

// Terminal escape sequences carry colour, not content: CSI (ESC [ … final
// byte), OSC (ESC ] … BEL or ESC \), and any other ESC with the byte after it.
std::string without_escapes(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\x1b') {
      out += s[i];
      continue;
    }
    if (i + 1 < s.size() && s[i + 1] == '[') {
      i += 2;
      while (i < s.size() && !(s[i] >= 0x40 && s[i] <= 0x7e)) ++i;
    } else if (i + 1 < s.size() && s[i + 1] == ']') {
      i += 2;
      while (i < s.size() && s[i] != '\a' && !(s[i] == '\x1b' && i + 1 < s.size() && s[i + 1] == '\\')) ++i;
      if (i < s.size() && s[i] == '\x1b') ++i;
    } else {
      ++i;
    }
  }
  return out;
}

}  // namespace

Result<DecodedPaste> decode_paste(std::string_view bytes, const std::string& name) {
  for (const auto& m : kBinary)
    if (starts_with(bytes, m.bytes)) return Problem{Reason::malformed, name, "is " + std::string(m.what) + ", not text"};
  DecodedPaste out;
  std::string text;
  if (starts_with(bytes, "\xff\xfe") || starts_with(bytes, "\xfe\xff")) {
    const bool little = bytes[0] == '\xff';
    text = from_utf16(bytes.substr(2), little);
    out.note = std::string("UTF-16") + (little ? "LE" : "BE") + ", read as such";
  } else if (const auto little = utf16_little_endian(bytes)) {
    text = from_utf16(bytes, *little);
    out.note = std::string("UTF-16") + (*little ? "LE" : "BE") + " without a byte order mark, read as such";
  } else {
    text.assign(bytes);
  }
  if (starts_with(text, "\xEF\xBB\xBF")) text.erase(0, 3);

  if (text.find('\x1b') != std::string::npos) text = without_escapes(text);
  // Control bytes other than whitespace: a few are damage (a NUL
  // from a bad copy), dropped and noted; many mean the file is not text.
  std::size_t controls = 0, first = std::string::npos;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 && !is_text_control(c)) {
      if (first == std::string::npos) first = i;
      ++controls;
    }
  }
  if (controls > 0) {
    char byte[8];
    std::snprintf(byte, sizeof byte, "0x%02x", static_cast<unsigned char>(text[first]));
    const std::string where = "byte " + std::string(byte) + " at " + line_and_column(text, first);
    if (controls > 8 && controls * 100 > text.size())
      return Problem{Reason::malformed, name, "is binary data, not text (" + std::to_string(controls) + " control bytes, the first " + where + ")"};
    std::string kept;
    kept.reserve(text.size());
    for (char ch : text) {
      const auto c = static_cast<unsigned char>(ch);
      if (c >= 0x20 || is_text_control(c)) kept += ch;
    }
    text = std::move(kept);
    const std::string dropped = std::to_string(controls) + " control byte" + (controls == 1 ? "" : "s") + " dropped, the first " + where;
    out.note = out.note ? *out.note + "; " + dropped : dropped;
  }

  if (const auto at = first_invalid_utf8(text)) {
    const std::string where = line_and_column(text, *at);
    std::string how;
    if (!has_utf8_sequence(text)) {
      text = from_cp1252(text);
      how = "not UTF-8 (first at " + where + "): read as Windows-1252 (Latin-1)";
    } else {
      text = to_valid_utf8(text);
      how = "bytes that are not UTF-8, first at " + where + ", read as U+FFFD";
    }
    out.note = out.note ? *out.note + "; " + how : how;
  }
  out.text = std::move(text);
  return out;
}

}  // namespace gpucheck
