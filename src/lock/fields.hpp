// The fields a lock may hold, in the order they are written, with the policy
// each gets by default. The one place the lock's schema lives in code;
// docs/lockfile.md describes the same table for people.
#pragma once

#include <string_view>
#include <vector>

#include "lock/lock.hpp"

namespace gpucheck {

struct FieldSpec {
  std::string_view section;
  std::string_view key;       // "*": any key (frameworks, wheels)
  Policy default_policy;
  int branch_depth;           // components same-branch compares: driver 1 (550.x), Python 2 (3.10.x)
};

// Sections in the order a lock writes them.
const std::vector<std::string_view>& lock_sections();
// nullptr: not a field of this schema.
const FieldSpec* find_field(std::string_view section, std::string_view key);
bool is_known_section(std::string_view section);
// Keys are [A-Za-z0-9._-]+: pip names, framework names, field names.
bool is_valid_key(std::string_view key);
// The index of a section in lock_sections(), for ordering.
int section_rank(std::string_view section);

}  // namespace gpucheck
