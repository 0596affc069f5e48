#include "util/utf8.hpp"

namespace gpucheck {

std::size_t utf8_sequence_at(std::string_view s, std::size_t i, bool* truncated) {
  if (truncated) *truncated = false;
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = byte(i);
  if (c < 0x80) return 1;
  std::size_t len = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // the range of the second byte
  if (c >= 0xC2 && c <= 0xDF) len = 2;
  else if (c == 0xE0) len = 3, lo = 0xA0;
  else if (c == 0xED) len = 3, hi = 0x9F;  // no surrogates
  else if (c >= 0xE1 && c <= 0xEF) len = 3;
  else if (c == 0xF0) len = 4, lo = 0x90;
  else if (c == 0xF4) len = 4, hi = 0x8F;  // nothing above U+10FFFF
  else if (c >= 0xF1 && c <= 0xF3) len = 4;
  else return 0;
  for (std::size_t k = 1; k < len; ++k) {
    if (i + k >= s.size()) {
      if (truncated) *truncated = true;
      return 0;
    }
    const unsigned char b = byte(i + k);
    if (b < (k == 1 ? lo : 0x80) || b > (k == 1 ? hi : 0xBF)) return 0;
  }
  return len;
}

std::optional<std::size_t> first_invalid_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    if (static_cast<unsigned char>(s[i]) < 0x80) {
      ++i;
      continue;
    }
    const std::size_t n = utf8_sequence_at(s, i);
    if (n == 0) return i;
    i += n;
  }
  return std::nullopt;
}

bool is_valid_utf8(std::string_view s) { return !first_invalid_utf8(s); }

namespace {

// How many bytes from s[i] form the longest prefix of some valid sequence
// (at least 1): one maximal invalid subpart, replaced by one U+FFFD.
std::size_t invalid_subpart(std::string_view s, std::size_t i) {
  std::size_t best = 1;
  for (std::size_t n = 2; n <= 3 && i + n <= s.size(); ++n) {
    bool truncated = false;
    if (utf8_sequence_at(s.substr(i, n), 0, &truncated) == 0 && truncated) best = n;
    else break;
  }
  return best;
}

}  // namespace

std::string to_valid_utf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = utf8_sequence_at(s, i);
    if (n > 0) {
      out.append(s.substr(i, n));
      i += n;
    } else {
      out += kReplacementCharacter;
      i += invalid_subpart(s, i);
    }
  }
  return out;
}

std::string clip_text(std::string_view s, std::size_t max) {
  if (s.size() <= max) return std::string(s);
  std::size_t cut = max;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return std::string(s.substr(0, cut)) + "… (" + std::to_string(s.size()) + " bytes)";
}

std::string quoted_value(std::string_view s) {
  std::string out = "\"";  // appended piece by piece: GCC 12 at -O3 warns (-Wrestrict) on "\"" + string
  out += clip_text(s, 60);
  out += '"';
  return out;
}

void append_utf8(std::string& out, char32_t c) {
  if ((c >= 0xD800 && c <= 0xDFFF) || c > 0x10FFFF) c = 0xFFFD;
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

}  // namespace gpucheck
