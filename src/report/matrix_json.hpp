// The matrix a verdict was judged by, as `check --json`, `recommend --json`
// and `matrix show --json` all write it: one form in one place.
#pragma once

#include <nlohmann/json.hpp>

#include "matrix/matrix.hpp"

namespace gpucheck {

// version, date, origin, source; for a cached matrix also path, url,
// fetched and signed_by; note when a damaged cache was passed over.
nlohmann::ordered_json matrix_json(const Matrix& m);

}  // namespace gpucheck
