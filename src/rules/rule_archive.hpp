// How the rules are written into the built-in matrix image and read back
// (rules/knowledge_image.hpp), conditions with their operands already typed:
// the companion of matrix/matrix_archive.hpp, under the same test.
#pragma once

#include "matrix/matrix_archive.hpp"
#include "rules/rule.hpp"

namespace gpucheck {

template <class A>
void serialize(A& a, FactValue& v) {
  a(v.kind, v.text, v.version, v.number, v.boolean, v.items, v.item_versions, v.source);
}

template <class A>
void serialize(A& a, Condition& c) {
  a(c.kind, c.children, c.fact, c.op, c.values, c.operands, c.other);
}

template <class A>
void serialize(A& a, Rule& r) {
  a(r.id, r.category, r.severity, r.scope, r.title, r.when, r.message, r.fix, r.action, r.explains, r.sources, r.defined_in);
}

}  // namespace gpucheck
