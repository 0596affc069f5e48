// Every fact name a rule may use, with its type and the subject it belongs
// to. The rule loader rejects a condition that names anything else, so a typo
// in the matrix fails validation instead of silently never firing; docs/rules.md
// lists this table.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "rules/fact_value.hpp"

namespace gpucheck {

struct FactSpec {
  const char* name;     // "gpu.compute_capability"; "env.*" stands for every GPU environment variable
  FactKind kind;
  const char* scope;    // the narrowest subject that has it: "host", "gpu", "env", "framework", "framework_gpu"
  const char* meaning;
};

const std::vector<FactSpec>& fact_catalogue();
const FactSpec* find_fact_spec(std::string_view name);

// Which subjects carry a scope's facts: a "framework_gpu" subject also has
// host, gpu, env and framework facts.
bool scope_includes(std::string_view subject_scope, std::string_view fact_scope);
bool known_scope(std::string_view scope);

}  // namespace gpucheck
