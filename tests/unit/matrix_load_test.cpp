// The matrix loader: strict validation of synthetic broken matrices (one
// defect each, tests/data/matrix-broken/), reading files and directories, and
// the matrix compiled into the binary.
#include <catch2/catch.hpp>

#include "matrix/matrix_load.hpp"
#include "matrix/strict_json.hpp"
#include "test_support.hpp"

using namespace gpucheck;
using gpucheck::test::data;
using gpucheck::test::source_path;

namespace {

MatrixDocument broken(const std::string& file) {
  return MatrixDocument{"matrix-broken/" + file, data("matrix-broken/" + file)};
}

struct BrokenCase {
  const char* file;
  const char* where;   // after "matrix-broken/<file>: "
  const char* phrase;  // in the detail
};

}  // namespace

TEST_CASE("matrix: the synthetic baseline that every broken file differs from parses", "[matrix]") {
  auto m = parse_matrix({broken("baseline-valid.json")});
  INFO((m ? "" : m.problem().where + ": " + m.problem().detail));
  REQUIRE(m.ok());
  CHECK(m->version == "2000.1.1");
  CHECK(m->date == "2000-01-01");
  CHECK(m->origin == "matrix-broken/baseline-valid.json");
  REQUIRE(m->gpus.size() == 2);
  CHECK(m->gpus[0].id == "synthetic-a");
  CHECK(test::text_of(m->gpus[0].compute_capability) == std::optional<std::string>("9.0"));
  CHECK(m->gpus[0].memory_gib == std::optional<double>(80));
  CHECK(m->gpus[0].tflops.at("fp32") == Approx(10.5));
  CHECK(m->gpus[0].figure_sources.at("tflops.fp32") == "https://example.com/synthetic-matrix");
  CHECK(m->gpus[1].figure_sources.empty());
  CHECK(m->gpus[0].data_center);
  CHECK_FALSE(m->gpus[1].data_center);
  CHECK(m->gpus[1].gfx_target == std::optional<std::string>("gfx942"));
  CHECK_FALSE(m->gpus[1].compute_capability.has_value());
  REQUIRE(m->arch_precisions.size() == 1);
  CHECK(m->arch_precisions[0].precisions == std::vector<std::string>{"fp32", "fp16"});
  REQUIRE(m->cuda_releases.size() == 2);
  CHECK(m->cuda_releases[0].date == std::optional<std::string>("2024-03"));
  CHECK_FALSE(m->cuda_releases[1].date.has_value());
  REQUIRE(m->cuda_families.size() == 1);
  CHECK(m->cuda_families[0].major == 12);
  REQUIRE(m->frameworks.size() == 2);
  CHECK(m->frameworks[0].variant == "cu121");
  CHECK(version_texts(m->frameworks[0].arch_list) == std::vector<std::string>{"8.0", "9.0"});
  REQUIRE(m->ngc.size() == 1);
  CHECK(m->ngc[0].min_driver.text() == "545");
  CHECK(m->ngc[0].forward_compat_branches.empty());
  REQUIRE(m->rocm_releases.size() == 2);
  CHECK(m->rocm_releases[0].version.text() == "6.0");
  CHECK(m->rocm_releases[0].gfx_targets == std::vector<std::string>{"gfx942", "gfx90a"});
  CHECK(m->rocm_releases[0].deprecated_gfx_targets == std::vector<std::string>{"gfx906"});
  CHECK(m->rocm_releases[0].note == std::optional<std::string>("synthetic"));
  CHECK(m->rocm_releases[1].deprecated_gfx_targets.empty());
  CHECK_FALSE(m->rocm_releases[1].note.has_value());
  REQUIRE(m->driver_branches.size() == 2);
  CHECK(m->driver_branches[0].branch == 535);
  CHECK(m->driver_branches[0].kind == DriverBranchKind::long_term_support);
  CHECK(m->driver_branches[0].end_of_life == std::optional<std::string>("2026-06"));
  CHECK(m->driver_branches[1].kind == DriverBranchKind::new_feature);
  CHECK_FALSE(m->driver_branches[1].end_of_life.has_value());
}

TEST_CASE("matrix: each broken file is rejected with its one defect's place and reason", "[matrix]") {
  const BrokenCase cases[] = {
      {"bad-json.json", "line 35, column 39", "invalid JSON: syntax error while parsing object"},
      {"duplicate-key.json", "/gpus/0/name", "duplicate key \"name\""},
      {"not-an-object.json", "", "expected a JSON object at the top level, found an array"},
      {"wrong-schema.json", "/schema", "expected \"gpucheck.matrix/1\", found \"gpucheck.matrix/2\""},
      {"unknown-key.json", "/gpus/1/pci_id", "unknown key \"pci_id\" (did you mean \"pci_ids\"?); allowed keys: id, name"},
      {"unknown-document-key.json", "/gpu", "unknown key \"gpu\" (did you mean \"gpus\"?)"},
      {"missing-field.json", "/cuda_releases/0/min_driver_linux", "required field \"min_driver_linux\" is missing"},
      {"bad-version.json", "/cuda_releases/1/version", "expected a version of numbers separated by dots, like \"12.4.1\", found \"12.x\""},
      {"bad-matrix-date.json", "/date", "expected a date \"YYYY-MM-DD\""},
      {"bad-compute-capability.json", "/gpus/0/compute_capability", "expected a compute capability \"major.minor\", like \"9.0\", found \"sm_90\""},
      {"bad-arch-list.json", "/frameworks/0/arch_list/1", "compute capability \"major.minor\""},
      {"non-url-source.json", "/gpus/0/sources/0", "expected an https:// URL of the page the fact comes from, found \"see reference\""},
      {"http-source.json", "/ngc/0/sources/0", "expected an https:// URL"},
      {"empty-sources.json", "/arch_precisions/0/sources", "expected a non-empty array of https:// URLs, found []"},
      {"duplicate-gpu-id.json", "/gpus/1/id", "duplicate gpu id \"synthetic-a\": also at matrix-broken/duplicate-gpu-id.json: /gpus/0"},
      {"duplicate-cuda-release.json", "/cuda_releases/2/version", "duplicate CUDA release \"12.4\": also at matrix-broken/duplicate-cuda-release.json: /cuda_releases/0"},
      {"duplicate-framework.json", "/frameworks/2/version", "duplicate framework build \"torch 2.1 cu121\""},
      {"duplicate-ngc.json", "/ngc/1/tag", "duplicate NGC container \"pytorch:24.01-py3\""},
      {"two-pypi-defaults.json", "/frameworks/2/pypi_default",
       "duplicate PyPI default build of \"torch 2.1\": also at matrix-broken/two-pypi-defaults.json: /frameworks/0"},
      {"bad-torch-pin.json", "/frameworks/0/torch", "expected a version of numbers separated by dots, like \"12.4.1\", found \"==2.14.0\""},
      {"wrong-type.json", "/gpus/0/memory_gib", "expected a positive number, found a string \"80\""},
      {"float-major.json", "/cuda_families/0/major", "expected an integer from 1 to 99, found a number 12.5"},
      {"unknown-precision.json", "/gpus/0/tflops/FP16", "unknown key \"FP16\" (expected one of fp64"},
      {"upper-case-name-pattern.json", "/gpus/0/name_patterns/0", "lower-case substring"},
      {"bad-pci-id.json", "/gpus/0/pci_ids/0", "PCI vendor:device id"},
      {"ngc-tag-mismatch.json", "/ngc/0/tag", "begins with the release \"24.01-\", found \"24.02-py3\""},
      {"duplicate-rocm-release.json", "/rocm_releases/2/version",
       "duplicate ROCm release \"6.0\": also at matrix-broken/duplicate-rocm-release.json: /rocm_releases/0"},
      {"rocm-gfx-in-both-lists.json", "/rocm_releases/0/deprecated_gfx_targets", "\"gfx90a\" is also in gfx_targets"},
      {"bad-gfx-target.json", "/rocm_releases/1/gfx_targets/1", "an AMD gfx target, like \"gfx942\""},
      {"bad-framework-gfx-target.json", "/frameworks/0/gfx_targets/1", "an AMD gfx target, like \"gfx942\""},
      {"unknown-rocm-key.json", "/rocm_releases/1/deprecated_gfx_target",
       "unknown key \"deprecated_gfx_target\" (did you mean \"deprecated_gfx_targets\"?)"},
      {"unknown-driver-branch-kind.json", "/driver_branches/1/kind",
       "expected one of new feature, production, long-term support, found \"feature\""},
      {"duplicate-driver-branch.json", "/driver_branches/2/branch",
       "duplicate driver branch \"R535\": also at matrix-broken/duplicate-driver-branch.json: /driver_branches/0"},
      {"bad-end-of-life.json", "/driver_branches/0/end_of_life", "found \"June 2026\""},
      {"figure-without-source.json", "/gpus/0/figure_sources", "no source for \"tflops.fp32\": every figure names the page that states it"},
      {"source-without-figure.json", "/gpus/0/figure_sources/bandwidth_gbs", "a source for \"bandwidth_gbs\", which the entry does not give"},
      {"unknown-figure.json", "/gpus/0/figure_sources/memory", "unknown key \"memory\" (expected a figure of the entry: memory_gib, bandwidth_gbs"},
      {"http-figure-source.json", "/gpus/0/figure_sources/memory_gib", "expected an https:// URL"},
      {"rules-not-array.json", "/rules", "expected an array, found {}"},
      {"no-version-document.json", "", "none of the 1 matrix documents carries \"version\" and \"date\""},
      {"version-without-date.json", "/date", "required field \"date\" is missing"},
  };
  for (const auto& c : cases) {
    SECTION(c.file) {
      const auto doc = broken(c.file);
      const auto check = check_matrix({doc});
      CHECK_FALSE(check.matrix.has_value());
      REQUIRE(check.problems.size() == 1);
      const auto& p = check.problems[0];
      CHECK(p.reason == Reason::malformed);
      CHECK(p.where == doc.name + (*c.where ? std::string(": ") + c.where : std::string()));
      CHECK_THAT(p.detail, Catch::Contains(c.phrase));
      // parse_matrix reports the same single problem and returns no matrix.
      const auto m = parse_matrix({doc});
      REQUIRE_FALSE(m.ok());
      CHECK(m.problem().where == p.where);
      CHECK(m.problem().detail == p.detail);
    }
  }
}

TEST_CASE("matrix: a second document carrying the version is rejected at its /version", "[matrix]") {
  const auto dir = source_path("tests/data/matrix-broken/two-version-documents");
  auto docs = read_matrix_documents(dir);
  REQUIRE(docs.ok());
  REQUIRE(docs->size() == 2);
  CHECK(docs->at(0).name == dir + "/1-matrix.json");
  const auto check = check_matrix(docs.value());
  REQUIRE(check.problems.size() == 1);
  CHECK(check.problems[0].where == dir + "/2-tables.json: /version");
  CHECK_THAT(check.problems[0].detail, Catch::Contains("already set in " + dir + "/1-matrix.json"));
  const auto loaded = load_matrix(dir);
  REQUIRE_FALSE(loaded.ok());
  CHECK(loaded.problem().where == check.problems[0].where);
}

TEST_CASE("matrix: every problem is listed, and parse_matrix counts the rest", "[matrix]") {
  const std::string text = R"({"schema": "gpucheck.matrix/1", "version": "1", "date": "2000-01-01",
    "gpus": [{"id": "Bad Id", "name": "x", "vendor": "intel", "architecture": "x", "sources": ["ftp://x"]}],
    "cuda_releases": [7]})";
  const MatrixDocument doc{"synthetic.json", text};
  const auto check = check_matrix({doc});
  REQUIRE(check.problems.size() == 4);
  CHECK(check.problems[0].where == "synthetic.json: /gpus/0/id");
  CHECK(check.problems[1].where == "synthetic.json: /gpus/0/vendor");
  CHECK_THAT(check.problems[1].detail, Catch::Contains("\"nvidia\" or \"amd\", found \"intel\""));
  CHECK(check.problems[2].where == "synthetic.json: /gpus/0/sources/0");
  CHECK(check.problems[3].where == "synthetic.json: /cuda_releases/0");
  CHECK_THAT(check.problems[3].detail, Catch::Contains("expected an object, found a number 7"));
  const auto m = parse_matrix({doc});
  REQUIRE_FALSE(m.ok());
  CHECK_THAT(m.problem().detail, Catch::EndsWith("(and 3 more problems in this matrix)"));
}

TEST_CASE("matrix: a problem in one document does not hide those of the next", "[matrix]") {
  const MatrixDocument a{"a.json", "{\"schema\": \"gpucheck.matrix/1\", \"version\": \"1\", \"date\": \"2000-01-01\""};
  const MatrixDocument b{"b.json", R"({"schema": "gpucheck.matrix/1", "ngc": 3})"};
  const auto check = check_matrix({a, b});
  REQUIRE(check.problems.size() == 2);
  // 68 characters: the end of input is found at column 69.
  CHECK(check.problems[0].where == "a.json: line 1, column 69");
  CHECK_THAT(check.problems[0].detail, Catch::Contains("unexpected end of input"));
  CHECK(check.problems[1].where == "b.json: /ngc");
}

TEST_CASE("matrix: no documents, empty text and rules are handled", "[matrix]") {
  CHECK(parse_matrix({}).problem().reason == Reason::absent);
  const auto empty = parse_matrix({MatrixDocument{"e.json", ""}});
  REQUIRE_FALSE(empty.ok());
  CHECK(empty.problem().where == "e.json: line 1, column 1");
  // The rules section belongs to the rule loader: any array passes here.
  const auto rules = parse_matrix({MatrixDocument{
      "r.json", R"({"schema": "gpucheck.matrix/1", "version": "1.0", "date": "2000-01-01", "rules": [{"anything": 1}]})"}});
  REQUIRE(rules.ok());
  CHECK(rules->gpus.empty());
}

TEST_CASE("matrix: strict JSON escapes pointer tokens and keeps nested duplicates apart", "[matrix]") {
  CHECK(pointer_append("/a", "b/c~d") == "/a/b~1c~0d");
  CHECK(parse_strict_json(R"({"a": {"x": 1}, "b": {"x": 2}})", "t").ok());
  const auto dup = parse_strict_json(R"({"a": [{"x": 1}, {"x": 1, "x": 2}]})", "t");
  REQUIRE_FALSE(dup.ok());
  CHECK(dup.problem().where == "t: /a/1/x");
  // Hostile nesting is refused early instead of exhausting memory.
  const std::string deep = "{\"a\": " + std::string(100000, '[') + std::string(100000, ']') + "}";
  const auto refused = parse_strict_json(deep, "t");
  REQUIRE_FALSE(refused.ok());
  CHECK_THAT(refused.problem().detail, Catch::Contains("nested deeper than 64 levels"));
  CHECK(refused.problem().where.rfind("t: /a/0/0/", 0) == 0);
}

TEST_CASE("matrix: reading a directory sorts by relative path and descends", "[matrix]") {
  test::TempDir dir;
  test::write_file(dir.path() / "b.json", R"({"schema": "gpucheck.matrix/1", "version": "1.2", "date": "2000-01-02"})");
  test::write_file(dir.path() / "a" / "z.json", R"({"schema": "gpucheck.matrix/1", "cuda_families": [
    {"major": 12, "sources": ["https://example.com/synthetic"]}]})");
  test::write_file(dir.path() / "a.txt", "not a matrix document");
  auto docs = read_matrix_documents(dir.str());
  REQUIRE(docs.ok());
  REQUIRE(docs->size() == 2);
  CHECK(docs->at(0).name == (dir.path() / "a" / "z.json").string());
  CHECK(docs->at(1).name == (dir.path() / "b.json").string());

  auto m = load_matrix(dir.str());
  REQUIRE(m.ok());
  CHECK(m->origin == dir.str());
  CHECK(m->version == "1.2");
  REQUIRE(m->cuda_families.size() == 1);

  // A single file holds the whole matrix too.
  auto single = load_matrix((dir.path() / "b.json").string());
  REQUIRE(single.ok());
  CHECK(single->origin == (dir.path() / "b.json").string());
}

TEST_CASE("matrix: unreadable paths are errors with the path", "[matrix]") {
  test::TempDir dir;
  const auto missing = read_matrix_documents((dir.path() / "nope").string());
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.problem().reason == Reason::absent);
  CHECK(missing.problem().where == (dir.path() / "nope").string());
  const auto empty = read_matrix_documents(dir.str());
  REQUIRE_FALSE(empty.ok());
  CHECK_THAT(empty.problem().detail, Catch::Contains("no *.json"));
}

TEST_CASE("matrix: the embedded documents are the source tree's matrix/ files", "[matrix]") {
  const auto docs = embedded_matrix_documents();
  REQUIRE_FALSE(docs.empty());
  bool has_header = false;
  for (const auto& d : docs) {
    CHECK(d.name.rfind("embedded:matrix/", 0) == 0);
    CHECK(d.validated);  // read without the duplicate-key check
    if (d.name == "embedded:matrix/matrix.json") {
      has_header = true;
      CHECK(d.text == test::read_file(source_path("matrix/matrix.json")));
    }
  }
  CHECK(has_header);
}

TEST_CASE("matrix: the embedded matrix parses", "[matrix][embedded]") {
  // As the build validates it: strictly, duplicate keys refused.
  auto strict = embedded_matrix_documents();
  for (auto& d : strict) d.validated = false;
  CHECK(check_matrix(strict).problems.empty());
  const auto check = check_matrix(embedded_matrix_documents());
  for (const auto& p : check.problems) UNSCOPED_INFO(p.where << ": " << p.detail);
  CHECK(check.problems.empty());
  const auto m = load_embedded_matrix();
  REQUIRE(m.ok());
  CHECK(m->origin == "embedded");
  CHECK_FALSE(m->version.empty());
}
