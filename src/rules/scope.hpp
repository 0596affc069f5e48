// The kinds of subject a rule is judged on, and which facts each one sees:
// a GPU's subject also holds the host's facts, a framework build's its
// environment's, a build on a GPU all four.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace gpucheck {

enum class Scope { host, gpu, env, framework, framework_gpu };

std::string_view to_string(Scope s);  // "host", "gpu", "env", "framework", "framework_gpu"
std::optional<Scope> scope_named(std::string_view name);
std::string scope_names();  // "\"host\", \"gpu\", \"env\", \"framework\" or \"framework_gpu\"", for errors

// Whether a subject of scope `subject` carries the facts of scope `fact`.
bool scope_includes(Scope subject, Scope fact);

}  // namespace gpucheck
