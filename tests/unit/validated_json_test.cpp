// The fast reader of already-validated JSON must hand the loaders exactly
// what nlohmann's own parser would: same values, same number kinds.
#include <catch2/catch.hpp>

#include "matrix/matrix_document.hpp"
#include "matrix/validated_json.hpp"

using namespace gpucheck;
using nlohmann::json;

TEST_CASE("validated JSON reads every embedded document as nlohmann does", "[matrix]") {
  const auto docs = embedded_compatibility_documents();
  REQUIRE(docs.size() > 10);
  for (const auto& d : docs) {
    INFO(d.name);
    auto fast = parse_validated_json(d.text, d.name);
    REQUIRE(fast);
    CHECK(*fast == json::parse(d.text));
    CHECK(fast->dump() == json::parse(d.text).dump());
  }
}

TEST_CASE("validated JSON keeps nlohmann's number kinds", "[matrix]") {
  auto j = parse_validated_json(R"({"u": 12, "i": -3, "f": 1.5, "big": 18446744073709551615, "s": "x\u00e9", "n": null, "b": [true, false], "e": {}})", "t");
  REQUIRE(j);
  CHECK(j->at("u").is_number_unsigned());
  CHECK(j->at("i").is_number_integer());
  CHECK_FALSE(j->at("i").is_number_unsigned());
  CHECK(j->at("f").is_number_float());
  CHECK(j->at("big").get<std::uint64_t>() == 18446744073709551615ull);
  CHECK(j->at("s") == "x\xc3\xa9");
  CHECK(j->at("n").is_null());
  CHECK(j->at("b") == json::array({true, false}));
  CHECK(j->at("e") == json::object());
}

TEST_CASE("validated JSON that was damaged since is a problem naming it", "[matrix]") {
  for (const char* bad : {"", "{", "{\"a\": }", "[1, 2", "\xff\xfe", "{\"a\": 1} trailing"}) {
    INFO(bad);
    auto j = parse_validated_json(bad, "embedded:gpus.json");
    REQUIRE_FALSE(j);
    CHECK(j.problem().where == "embedded:gpus.json");
    CHECK(j.problem().detail.find("damaged since?") != std::string::npos);
  }
}
