// A team's knowledge on top of the shipped matrix: a layer is a set of
// matrix documents without a version of their own; each of its entries
// replaces the entry of the matrix below with the same identity
// (matrix/matrix_keys.hpp) or adds one. A layer that carries a version and
// date is a whole matrix and replaces everything below it instead.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "matrix/matrix.hpp"

namespace gpucheck {

// Replaces each entry of `base` whose key(entry) a `layer` entry shares,
// where it stands, and appends the others in their order. The one layering
// step, for the tables (below) and the rules (rules/knowledge.cpp).
template <class T, class Key>
void lay_entries(std::vector<T>& base, std::vector<T> layer, Key key) {
  std::map<std::string, std::size_t> at;
  for (std::size_t i = 0; i < base.size(); ++i) at.emplace(key(base[i]), i);
  for (auto& entry : layer) {
    if (const auto it = at.find(key(entry)); it != at.end()) {
      base[it->second] = std::move(entry);
    } else {
      at.emplace(key(entry), base.size());
      base.push_back(std::move(entry));
    }
  }
}

// Lays `layer`'s entries over `base`, in place; order is kept (a replaced
// entry stays where it was, new ones follow).
void lay_over(Matrix& base, Matrix layer);

}  // namespace gpucheck
