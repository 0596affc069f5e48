// Version parsing and ordering, and facts that hold a parsed version.
#include <catch2/catch.hpp>

#include "rules/fact_value.hpp"
#include "util/version.hpp"

using gpucheck::FactValue;
using gpucheck::Version;

TEST_CASE("driver versions keep their text and compare numerically", "[version]") {
  auto v = Version::parse("535.104.05");
  REQUIRE(v);
  CHECK(v->text() == "535.104.05");
  CHECK(v->major() == 535);
  CHECK(v->minor() == 104);
  CHECK(v->patch() == 5);
  CHECK(*Version::parse("535.104.05") < *Version::parse("535.129.03"));
  CHECK(*Version::parse("550.54.14") < *Version::parse("550.90.07"));
  CHECK(*Version::parse("470.256.02") < *Version::parse("535.54.03"));
}

TEST_CASE("missing components compare as zero", "[version]") {
  CHECK(*Version::parse("12.2") == *Version::parse("12.2.0"));
  CHECK(*Version::parse("12") < *Version::parse("12.0.1"));
  CHECK(*Version::parse("12.10") > *Version::parse("12.9"));
}

TEST_CASE("local tags are kept as suffix and do not order", "[version]") {
  auto v = Version::parse("2.1.0+cu121");
  REQUIRE(v);
  CHECK(v->suffix() == "+cu121");
  CHECK(v->parts() == std::vector<long>{2, 1, 0});
  CHECK(*v == *Version::parse("2.1.0"));
}

TEST_CASE("non-versions are refused", "[version]") {
  CHECK_FALSE(Version::parse(""));
  CHECK_FALSE(Version::parse("N/A"));
  CHECK_FALSE(Version::parse(".5"));
  CHECK_FALSE(Version::parse("1654423001593"));  // a serial number, not a version
}

TEST_CASE("CUDA's integer versions", "[version]") {
  CHECK(Version::from_cuda_int(12020)->text() == "12.2");
  CHECK(Version::from_cuda_int(11080)->text() == "11.8");
  CHECK(Version::from_cuda_int(13000)->text() == "13.0");
  CHECK(Version::from_cuda_int(12090)->text() == "12.9");
  // What a crafted answer or a broken driver reports is not a version.
  for (long long bad : {-1LL, 0LL, 999LL, 1000000LL, 2147483647LL, 99999999999LL}) CHECK_FALSE(Version::from_cuda_int(bad));
}

TEST_CASE("major.minor of a version, for ABI checks", "[version]") {
  const auto cudnn = Version::parse("9.1.0");
  REQUIRE(cudnn);
  CHECK(cudnn->major_minor().text() == "9.1");
  CHECK(cudnn->major_minor() == *Version::parse("9.1"));
  CHECK(Version::parse("12")->major_minor().text() == "12.0");  // a missing minor reads as 0
  CHECK(Version::parse("2.1.0+cu121")->major_minor().suffix().empty());
}

TEST_CASE("a version fact is parsed once when it is made", "[version][rules]") {
  const auto f = FactValue::of_version("535.104.05", "test");
  REQUIRE(f.version);
  CHECK(f.version->text() == "535.104.05");
  CHECK_FALSE(FactValue::of_version("Not Found", "test").version);
  const auto archs = FactValue::of_list({"8.0", "sm_90", "9.0a"}, "test");
  REQUIRE(archs.item_versions.size() == 3);
  CHECK(archs.item_versions[0] == Version::parse("8.0"));
  CHECK_FALSE(archs.item_versions[1]);
  CHECK(archs.item_versions[2]->suffix() == "a");
}
