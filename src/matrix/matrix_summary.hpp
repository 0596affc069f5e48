// What a matrix holds and how current it is, for `matrix show`: the newest
// entry of each table, so a reader sees where the knowledge stops.
#pragma once

#include <string>
#include <vector>

#include "matrix/matrix.hpp"

namespace gpucheck {

struct TableNewest {
  std::string table;                // "CUDA releases"
  std::vector<std::string> newest;  // "13.3.1 (2026-06)"; per framework where the table holds several
};

// One row per table with dated or versioned entries, in matrix order.
std::vector<TableNewest> newest_entries(const Matrix& m);

}  // namespace gpucheck
