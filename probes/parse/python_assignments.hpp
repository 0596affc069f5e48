// `name = value` assignments of a Python source file, as the frameworks'
// build files hold them.
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace gpucheck {

// Simple `name = value` assignments of a Python source file or a dict
// literal: `cuda = '12.1'`, `'cuda_version': '12.2'`, `hip = None`. Values
// are returned without quotes; None as "None", True/False as written.
std::map<std::string, std::string> parse_python_assignments(std::string_view text);

}  // namespace gpucheck
