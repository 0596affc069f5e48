// Every fact name a rule may use, with its type and the subject it belongs
// to. The rule loader rejects a condition that names anything else, so a typo
// in the matrix fails validation instead of silently never firing; docs/rules.md
// lists this table.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "rules/fact_value.hpp"
#include "rules/scope.hpp"

namespace gpucheck {

struct FactSpec {
  const char* name;     // "gpu.compute_capability"; "env.*" stands for every GPU environment variable
  FactKind kind;
  Scope scope;          // the narrowest subject that has it
  const char* meaning;
};

const std::vector<FactSpec>& fact_catalogue();
const FactSpec* find_fact_spec(std::string_view name);
// What a fact is, in a few words, for a message whose fact was not read (or,
// in `explain`, is not known from the message alone): "compute capability",
// "product name"; the name itself for one the catalogue lacks.
std::string fact_noun(std::string_view name);


}  // namespace gpucheck
