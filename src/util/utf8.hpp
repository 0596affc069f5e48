// UTF-8 validity. Every byte gpucheck reads comes from a host or a file it
// does not own; JSON writers and terminals need valid UTF-8, so strings are
// checked (and invalid bytes replaced) where they leave the program.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace gpucheck {

// Length of the well-formed UTF-8 sequence starting at s[i] (1 to 4), or 0
// when the bytes there are not one (RFC 3629: no overlongs, no surrogates,
// nothing above U+10FFFF). `truncated` is set when s ends inside a sequence
// that would be valid if more bytes followed.
std::size_t utf8_sequence_at(std::string_view s, std::size_t i, bool* truncated = nullptr);

// The offset of the first byte that starts no valid UTF-8 sequence.
std::optional<std::size_t> first_invalid_utf8(std::string_view s);
bool is_valid_utf8(std::string_view s);

// s with each maximal invalid subpart replaced by U+FFFD, as the Unicode
// standard recommends (and as nlohmann::json's error_handler_t::replace does).
std::string to_valid_utf8(std::string_view s);

// A foreign value quoted in a message: s itself when it has at most max
// bytes, else its first max bytes (never half a character) and "… (N bytes)".
// A 20 MB string in a matrix is named, not echoed.
std::string clip_text(std::string_view s, std::size_t max);
// The same in double quotes, at most 60 bytes of it: `found "…"` in a problem.
std::string quoted_value(std::string_view s);

// Appends code point c as UTF-8 (U+FFFD for a surrogate or past U+10FFFF).
void append_utf8(std::string& out, char32_t c);

inline constexpr std::string_view kReplacementCharacter = "\xEF\xBF\xBD";

}  // namespace gpucheck
