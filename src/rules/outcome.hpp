// What a verdict says (docs/exit-codes.md): every format and the exit code
// name it from here.
#pragma once

#include <string>
#include <string_view>

namespace gpucheck {

// pass: exit 0. fail: exit 1. incomplete: exit 3, a `--from` paste with no
// failing finding that does not show what a verdict needs (a GPU, its
// driver, a framework): never a pass on what it did not show.
enum class Outcome { pass, fail, incomplete };

std::string_view to_string(Outcome o);  // "pass", "fail", "incomplete"
std::string upper(Outcome o);           // "PASS", "FAIL", "INCOMPLETE"

// What a paste does not show that a verdict needs, and the command whose
// output, asked of the reporter, would show it.
struct NotShown {
  std::string what;     // "NVIDIA driver"
  std::string ask_for;  // "nvidia-smi"
};

}  // namespace gpucheck
