// The matrix's age: check says when the knowledge it judged by is older
// than 90 days, on the day GPUCHECK_TODAY names (tests fix the day; see
// main.cpp), and matrix show prints the age and each table's newest entry.
#include <algorithm>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "gpucheck_run.hpp"
#include "rules/matrix_age.hpp"
#include "test_support.hpp"

using namespace gpucheck;
using gpucheck::test::run_gpucheck_with;
using nlohmann::json;

namespace {

Matrix dated(const std::string& date) {
  Matrix m;
  m.version = "test";
  m.date = date;
  m.origin = "synthetic";
  return m;
}

Day day(const char* text) { return parse_iso_date(text).value(); }

const std::string kH100 = gpucheck::test::source_path("tests/fixtures/hosts/h100-sxm-8gpu");

}  // namespace

TEST_CASE("calendar days read as real days only", "[dates]") {
  CHECK(parse_iso_date("2026-02-28"));
  CHECK_FALSE(parse_iso_date("2026-02-29"));  // not a leap year
  CHECK(parse_iso_date("2028-02-29"));
  CHECK_FALSE(parse_iso_date("2026-13-01"));
  CHECK_FALSE(parse_iso_date("2026-1-01"));
  CHECK_FALSE(parse_iso_date("yesterday"));
  CHECK(days_between(day("2026-11-30"), day("2027-03-01")) == 91);
  CHECK(iso_date_text(day("2026-03-05")) == "2026-03-05");
}

TEST_CASE("a matrix older than 90 days is noted, one of 90 is not", "[rules][matrix-age]") {
  const auto m = dated("2026-11-30");
  CHECK_FALSE(matrix_age_finding(m, day("2027-02-28")));  // 90 days
  const auto f = matrix_age_finding(m, day("2027-03-01"));
  REQUIRE(f);
  CHECK(f->severity == Severity::info);
  CHECK(f->category == "matrix-age");
  CHECK_THAT(f->title, Catch::Contains("91 days old"));
  CHECK_FALSE(matrix_age_finding(m, day("2026-01-01")));   // dated after the day judged: not old
  CHECK_FALSE(matrix_age_finding(dated("someday"), day("2030-01-01")));
}

TEST_CASE("check notes an old matrix and still passes on it", "[cli][matrix-age]") {
  auto old = run_gpucheck_with({"GPUCHECK_TODAY=2027-06-01"}, "", {"--root", kH100, "check", "--json"});
  auto now = run_gpucheck_with({"GPUCHECK_TODAY=2026-12-02"}, "", {"--root", kH100, "check", "--json"});
  auto ids = [](const std::string& out) {
    std::vector<std::string> v;
    const auto report = json::parse(out);
    for (auto& f : report["findings"]) v.push_back(f["rule"]);
    return v;
  };
  const auto a = ids(old.out), b = ids(now.out);
  CHECK(std::count(a.begin(), a.end(), "matrix-age") == 1);
  CHECK(std::count(b.begin(), b.end(), "matrix-age") == 0);
  CHECK(a.size() == b.size() + 1);
  CHECK(old.exit_code == now.exit_code);  // info only: the gate is the same

  auto bad = run_gpucheck_with({"GPUCHECK_TODAY=2027-02-30"}, "", {"--root", kH100, "check"});
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.err, Catch::Contains("GPUCHECK_TODAY") && Catch::Contains("YYYY-MM-DD"));
}

TEST_CASE("matrix show says how old the matrix is and where each table stops", "[cli][matrix-age]") {
  auto r = run_gpucheck_with({"GPUCHECK_TODAY=2027-06-01"}, "", {"matrix", "show"});
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("days old: older than 90 days"));
  CHECK_THAT(r.out, Catch::Contains("CUDA releases:"));
  CHECK_THAT(r.out, Catch::Contains("NGC releases:"));
  CHECK_THAT(r.out, Catch::Contains("pytorch "));
}
