// The object-like macros of a C header, the one part of a header the probes
// read: libraries and Python state their versions there ("#define
// CUDNN_MAJOR 9", "#define PY_VERSION \"3.11.7\"").
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace gpucheck {

// NAME -> VALUE of each "#define NAME [VALUE]" line: a trailing comment and
// a string's quotes removed, "" for a bare name; function-like macros left out.
std::map<std::string, std::string> macro_definitions(std::string_view header);

}  // namespace gpucheck
