// A lockfile as plain data: the GPU stack of one host, one fact per entry,
// each with the policy verify judges it by. Text form: docs/lockfile.md.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpucheck {

// The schema this gpucheck writes and the newest it reads.
inline constexpr int kLockSchema = 1;

enum class Policy {
  exact,        // the same text
  same_branch,  // the same leading components (the field says how many)
  at_least,     // this version or a newer one
  ignore,       // written for people, never compared
};

std::string_view to_string(Policy p);
std::optional<Policy> parse_policy(std::string_view s);

struct LockEntry {
  std::string section;               // "driver"
  std::string key;                   // "version"
  std::optional<std::string> value;  // nullopt: the host does not have it (written `none`)
  Policy policy = Policy::exact;
  std::string comment;               // where the value came from; kept for people only

  std::string field() const { return section + "." + key; }
};

struct Lock {
  int schema = kLockSchema;
  std::vector<LockEntry> entries;  // in the order of kSections, then as written

  const LockEntry* find(std::string_view section, std::string_view key) const;
};

// What a lock holds besides the host's facts; the caller supplies both
// (the matrix and the rule engine live elsewhere).
struct LockContext {
  std::string gpucheck_version;
  std::optional<std::string> matrix_version;  // nullopt: written `none`
  std::optional<std::string> check_verdict;   // nullopt: written "not evaluated"
};

}  // namespace gpucheck
