// Untrusted text for the machine formats (format_text.hpp).
#include "report/format_text.hpp"

#include "report/terminal.hpp"
#include "util/utf8.hpp"

namespace gpucheck {

std::string safe_text(std::string_view s) {
  std::string out;
  terminal_safe(s, false, true, out);
  return out;
}

std::string safe_line(std::string_view s) {
  std::string out = safe_text(s);
  for (char& c : out)
    if (c == '\n' || c == '\t' || c == '\r') c = ' ';
  return out;
}

std::string xml_text(std::string_view s) {
  const std::string text = safe_text(s);
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    // U+FFFE and U+FFFF: EF BF BE, EF BF BF.
    if (i + 2 < text.size() && static_cast<unsigned char>(text[i]) == 0xEF && static_cast<unsigned char>(text[i + 1]) == 0xBF &&
        (static_cast<unsigned char>(text[i + 2]) == 0xBE || static_cast<unsigned char>(text[i + 2]) == 0xBF)) {
      out += kReplacementCharacter;
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

}  // namespace gpucheck
