// Every reader of bytes gpucheck does not own, as a fuzz target: the text in,
// whatever the reader makes of it out through the JSON and text writers
// that would print it. A target must never crash, hang or trip a sanitizer,
// whatever the bytes (docs/robustness.md).
#pragma once

#include <string_view>
#include <vector>

namespace gpucheck::fuzz {

struct Target {
  const char* name;
  void (*run)(std::string_view input);
  const char* seeds;  // where its seed inputs are, relative to the source tree (';' between)
};

const std::vector<Target>& targets();
const Target* target_named(std::string_view name);

}  // namespace gpucheck::fuzz
