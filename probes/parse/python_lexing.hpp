// The characters of Python-like syntax that the parsers here share: those of
// an identifier, and the blanks within one line.
#pragma once

#include <cctype>

namespace gpucheck {

inline bool is_ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
inline bool is_ident(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
// Not '\n': a line break ends what these parsers read.
inline bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

}  // namespace gpucheck
