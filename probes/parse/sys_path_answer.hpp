// What an interpreter says when the Python probe asks for its sys.path.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "util/result.hpp"

namespace gpucheck {

// The interpreter's answer to the sys.path question (python_probe.cpp):
// NUL-separated version, prefix, base prefix, executable, then sys.path.
struct InterpreterAnswer {
  std::string version;  // "3.10.12"
  std::string prefix, base_prefix, executable;
  std::vector<std::string> path;  // without "" (the current directory)
};
Result<InterpreterAnswer> parse_interpreter_answer(std::string_view text);

}  // namespace gpucheck
