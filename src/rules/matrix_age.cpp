#include "rules/matrix_age.hpp"

namespace gpucheck {

std::optional<int> matrix_age_days(const Matrix& m, Day today) {
  const auto date = parse_iso_date(m.date);
  if (!date) return std::nullopt;
  return days_between(*date, today);
}

std::optional<Finding> matrix_age_finding(const Matrix& m, Day today) {
  const auto days = matrix_age_days(m, today);
  if (!days || *days <= kMatrixMaxAgeDays) return std::nullopt;
  const int age = *days;
  Finding f;
  f.rule = "matrix-age";
  f.category = "matrix-age";
  f.severity = Severity::info;
  f.scope = "host";
  f.title = "The compatibility matrix is " + std::to_string(age) + " days old";
  f.message = "The matrix in use (" + m.version + ", " + m.origin + ") is dated " + m.date + ", " + std::to_string(age) +
              " days before " + iso_date_text(today) + ": drivers, CUDA releases, framework builds and containers newer than it, "
              "and known-bad combinations found since, are not judged";
  f.evidence.push_back(Evidence{"matrix.date", m.date, m.origin});
  f.evidence.push_back(Evidence{"today", iso_date_text(today), "system clock (GPUCHECK_TODAY when set)"});
  f.fix = "Run gpucheck matrix update (docs/matrix-updates.md), or use a newer gpucheck, or a newer matrix with --matrix PATH";
  f.action = Action::fix_software;
  return f;
}

}  // namespace gpucheck
