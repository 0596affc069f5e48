// The built-in matrix image (rules/knowledge_image.hpp): what a run loads
// must be what the embedded documents load to, field for field, so a field
// the archive forgets, or an image left stale by the build, fails here; and
// bytes that are not an image are refused with a problem, never a crash.
#include <catch2/catch.hpp>
#include <string>

#include "builtin/builtin_knowledge.hpp"
#include "matrix/matrix_document.hpp"
#include "rules/knowledge_image.hpp"

#include "knowledge_support.hpp"

using namespace gpucheck;

namespace {

const Knowledge& from_documents() {
  static const Knowledge k = [] {
    auto checked = check_knowledge(embedded_compatibility_documents());
    REQUIRE(checked.problems.empty());
    return std::move(*checked.knowledge);
  }();
  return k;
}

const Knowledge& from_image() { return gpucheck::test::builtin_knowledge(); }

}  // namespace

TEST_CASE("the built-in image holds what the embedded documents load to, field for field", "[matrix][image]") {
  const Matrix& a = from_image().matrix;
  const Matrix& b = from_documents().matrix;
  CHECK(a.version == b.version);
  CHECK(a.date == b.date);
  CHECK(a.origin == "embedded");
  // Table by table, so a failure names the table; the defaulted == of each
  // struct compares every field it has.
  CHECK(a.gpus.size() == b.gpus.size());
  CHECK((a.gpus == b.gpus));
  CHECK((a.arch_precisions == b.arch_precisions));
  CHECK((a.cuda_releases == b.cuda_releases));
  CHECK((a.cuda_families == b.cuda_families));
  CHECK(a.frameworks.size() == b.frameworks.size());
  CHECK((a.frameworks == b.frameworks));
  CHECK((a.ngc == b.ngc));
  CHECK((a.rocm_releases == b.rocm_releases));
  CHECK((a.driver_branches == b.driver_branches));
  REQUIRE(from_image().rules.size() == from_documents().rules.size());
  for (std::size_t i = 0; i < from_image().rules.size(); ++i) {
    INFO("rule " << from_documents().rules[i].id);
    CHECK((from_image().rules[i] == from_documents().rules[i]));
  }
  // Versions keep the text the matrix wrote ("12.4" stays "12.4"), which
  // == (numeric: 12.4 == 12.4.0) does not compare.
  for (std::size_t i = 0; i < a.cuda_releases.size(); ++i) CHECK(a.cuda_releases[i].version.text() == b.cuda_releases[i].version.text());
}

TEST_CASE("the built-in image's version and date are read without its tables", "[matrix][image]") {
  const auto header = embedded_matrix_header();
  REQUIRE(header);
  CHECK(header->version == from_documents().matrix.version);
  CHECK(header->date == from_documents().matrix.date);

  // The header alone, cut from a whole image: enough for the version, not for a matrix.
  const std::string image = write_knowledge_image(from_documents());
  const std::string cut = image.substr(0, image.find(header->date) + header->date.size());
  CHECK(read_image_header(cut, "cut")->version == header->version);
  const auto k = read_knowledge_image(cut, "cut");
  REQUIRE_FALSE(k);
  CHECK(k.problem().where == "cut");
  CHECK(k.problem().reason == Reason::malformed);
}

TEST_CASE("an image written and read back is the knowledge it was written from", "[matrix][image]") {
  Knowledge k = from_documents();
  k.rules.resize(3);
  k.matrix.gpus.resize(2);
  k.matrix.gpus[1].tflops["fp8"] = 1979.0;
  k.matrix.gpus[1].note = "synthetic: a note";
  k.matrix.origin.clear();  // where a matrix came from is the loader's to say, not the image's
  const auto back = read_knowledge_image(write_knowledge_image(k), "round trip");
  REQUIRE(back);
  CHECK((back->matrix == k.matrix));
  CHECK((back->rules == k.rules));
}

TEST_CASE("bytes that are not a whole matrix image are refused with a problem, never a crash", "[matrix][image][errors]") {
  const std::string image = write_knowledge_image(from_documents());
  for (const std::string& bad : {std::string(), std::string("{\"version\": \"2026.12.1\"}"), std::string("gpucheck matrix image 2\n") + image.substr(24)}) {
    const auto k = read_knowledge_image(bad, "bad");
    REQUIRE_FALSE(k);
    CHECK(k.problem().detail.find("not a matrix image of this gpucheck") == 0);
    CHECK_FALSE(read_image_header(bad, "bad"));
  }
  // Cut anywhere: every prefix ends early somewhere in the tables or rules.
  for (std::size_t cut = 24; cut < image.size(); cut += image.size() / 40) {
    INFO("cut at byte " << cut);
    CHECK_FALSE(read_knowledge_image(std::string_view(image).substr(0, cut), "cut"));
  }
}
