// Core metadata: dist-info METADATA, egg-info PKG-INFO and requires.txt, and
// the metadata directory's own name. Parsers take strings, never paths.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/result.hpp"

namespace gpucheck {

// The core metadata fields we use (https://packaging.python.org/specifications/core-metadata/).
struct CoreMetadata {
  std::string name, version;
  std::vector<std::string> requires_dist;  // raw Requires-Dist values
};

// RFC 822-style headers up to the first blank line. Errors: binary data, no
// Name or Version header (a truncated file).
Result<CoreMetadata> parse_core_metadata(std::string_view text);
// Where that header block ends (the start of the first blank line, spaces
// allowed), or npos when `text` has none yet: a head read short of it.
std::size_t core_metadata_headers_end(std::string_view text);

// setuptools' requires.txt: requirement lines under "[extra]", "[:marker]"
// or "[extra:marker]" sections, returned as PEP 508 lines with the section's
// marker appended.
std::vector<std::string> parse_requires_txt(std::string_view text);

// "torch-2.1.0+cu121.dist-info" -> {"torch", "2.1.0+cu121"}; egg-info names
// may carry "-py3.10" after the version.
struct NameVersion {
  std::string name, version;
};
std::optional<NameVersion> split_metadata_dir_name(std::string_view dir_name);

}  // namespace gpucheck
