// NVIDIA's Xid catalogue, as the matrix holds it (matrix/xids.json), made
// rules: one per Xid (and one per recovery action Xid 154 can name), each
// with the catalogue's severity and action, fired by the Xids the kernel
// log holds since boot. Made wherever the tables are (check_knowledge,
// lay_knowledge), so `check`, `explain` and the built-in image see them.
#pragma once

#include <vector>

#include "matrix/matrix.hpp"
#include "rules/rule.hpp"
#include "util/result.hpp"

namespace gpucheck {

inline constexpr const char* kXidRuleOrigin = "matrix xids";

// The rules; a severity or action the rules layer does not know is a
// problem with the entry's place. An id `taken` holds is not made: a rule
// laid over the catalogue's wins.
RuleCheck xid_rules(const Matrix& m, const std::vector<Rule>& taken);

// Whether a rule was made from the Xid catalogue (and is made again when
// the catalogue changes).
bool is_xid_rule(const Rule& r);

}  // namespace gpucheck
