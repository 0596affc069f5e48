// A matrix is knowledge as of its date: past 90 days, releases and
// known-bad combinations newer than it are missing, and `check` says so
// rather than pass silently on what it cannot know.
#pragma once

#include <optional>

#include "matrix/matrix.hpp"
#include "rules/finding.hpp"
#include "util/dates.hpp"

namespace gpucheck {

inline constexpr int kMatrixMaxAgeDays = 90;

// Days from the matrix's date to `today` (negative: dated after it);
// nullopt when its date does not read.
std::optional<int> matrix_age_days(const Matrix& m, Day today);

// An info finding (category matrix-age) when the matrix in use is older
// than kMatrixMaxAgeDays on `today`; nullopt when it is not, or when its
// date does not read.
std::optional<Finding> matrix_age_finding(const Matrix& m, Day today);

}  // namespace gpucheck
