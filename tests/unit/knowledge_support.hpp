// The built-in matrix, loaded once for the whole test binary, for the tests
// that judge with it and change nothing in it.
#pragma once

#include <stdexcept>

#include "builtin/builtin_knowledge.hpp"

namespace gpucheck::test {

inline const Knowledge& builtin_knowledge() {
  static const Knowledge k = [] {
    auto r = load_embedded_knowledge();
    if (!r) throw std::runtime_error("built-in matrix: " + r.problem().where + ": " + r.problem().detail);
    return std::move(r).value();
  }();
  return k;
}

}  // namespace gpucheck::test
