// A team's knowledge on top of the shipped matrix: a layer is a set of
// matrix documents without a version of their own; each of its entries
// replaces the entry of the matrix below with the same identity
// (matrix/matrix_keys.hpp) or adds one. A layer that carries a version and
// date is a whole matrix and replaces everything below it instead.
#pragma once

#include "matrix/matrix.hpp"

namespace gpucheck {

// Lays `layer`'s entries over `base`, in place; order is kept (a replaced
// entry stays where it was, new ones follow).
void lay_over(Matrix& base, Matrix layer);

}  // namespace gpucheck
