// The bytes people paste, as UTF-8 text: UTF-16 (what PowerShell's `>`
// writes), Windows-1252 and Latin-1, stray NULs and terminal colour codes
// are text; a file whose bytes are not text (an ELF, an archive, an image,
// or mostly control bytes) is refused with where it shows.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "util/result.hpp"

namespace gpucheck {

struct DecodedPaste {
  std::string text;                 // valid UTF-8, without a byte order mark
  std::optional<std::string> note;  // how it was read, when not as plain UTF-8
};

Result<DecodedPaste> decode_paste(std::string_view bytes, const std::string& name);

}  // namespace gpucheck
