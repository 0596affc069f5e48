// PEP 440 versions and specifiers, PEP 503 names: vectors from the PEPs and
// from pypa/packaging's test suite (tests/test_version.py, test_specifiers.py).
#include <catch2/catch.hpp>

#include "parse/python_version.hpp"

using namespace gpucheck;

namespace {

Pep440Version V(const char* s) {
  auto v = Pep440Version::parse(s);
  INFO(s);
  REQUIRE(v);
  return *v;
}

bool sat(const char* version, const char* spec) {
  auto s = Pep440Specifier::parse(spec);
  INFO(spec);
  REQUIRE(s);
  return s->contains(V(version));
}

}  // namespace

TEST_CASE("PEP 503 name normalisation", "[python][pep503]") {
  CHECK(normalize_dist_name("Friendly-Bard") == "friendly-bard");
  CHECK(normalize_dist_name("FRIENDLY-BARD") == "friendly-bard");
  CHECK(normalize_dist_name("friendly.bard") == "friendly-bard");
  CHECK(normalize_dist_name("friendly_bard") == "friendly-bard");
  CHECK(normalize_dist_name("friendly--bard") == "friendly-bard");
  CHECK(normalize_dist_name("FrIeNdLy-._.-bArD") == "friendly-bard");
  CHECK(normalize_dist_name("nvidia_cudnn_cu12") == "nvidia-cudnn-cu12");
}

TEST_CASE("PEP 440 normalisation of spellings", "[python][pep440]") {
  CHECK(V("1.0a").normalized() == "1.0a0");
  CHECK(V("1.0.alpha1").normalized() == "1.0a1");
  CHECK(V("1.0-beta.2").normalized() == "1.0b2");
  CHECK(V("1.0c1").normalized() == "1.0rc1");
  CHECK(V("1.0pre1").normalized() == "1.0rc1");
  CHECK(V("1.0preview1").normalized() == "1.0rc1");
  CHECK(V("1.0-1").normalized() == "1.0.post1");
  CHECK(V("1.0.rev1").normalized() == "1.0.post1");
  CHECK(V("1.0r").normalized() == "1.0.post0");
  CHECK(V("1.0-dev").normalized() == "1.0.dev0");
  CHECK(V("v1.0").normalized() == "1.0");
  CHECK(V("1!2.0").normalized() == "1!2.0");
  CHECK(V("1.0+ubuntu-1").normalized() == "1.0+ubuntu.1");
  CHECK(V("1.0RC1").normalized() == "1.0rc1");
  CHECK(V("2.1.0+cu121").local() == "cu121");
  CHECK(V("1.13.0a0+gitunknown").is_prerelease());
  CHECK(V("2.1.0+cu121").text() == "2.1.0+cu121");  // printed as read
  for (const char* bad : {"", "french toast", "1.0+", "1.0+a..b", "1.0 beta", "1.0-beta-x", "+cu121", "1..0"}) {
    INFO(bad);
    CHECK_FALSE(Pep440Version::parse(bad));
  }
}

TEST_CASE("PEP 440 ordering: the PEP's example sequence", "[python][pep440]") {
  // PEP 440, "Summary of permitted suffixes and relative ordering".
  const char* order[] = {"1.0.dev456", "1.0a1",       "1.0a2.dev456", "1.0a12.dev456", "1.0a12",      "1.0b1.dev456",
                         "1.0b2",      "1.0b2.post345.dev456", "1.0b2.post345", "1.0rc1.dev456", "1.0rc1", "1.0",
                         "1.0+abc.5",  "1.0+abc.7",   "1.0+5",        "1.0.post456.dev34", "1.0.post456", "1.0.15",
                         "1.1.dev1"};
  const std::size_t n = sizeof order / sizeof order[0];
  for (std::size_t i = 0; i + 1 < n; ++i) {
    INFO(order[i] << " < " << order[i + 1]);
    CHECK(V(order[i]) < V(order[i + 1]));
    CHECK_FALSE(V(order[i + 1]) < V(order[i]));
  }
  CHECK(V("1.0") == V("1.0.0"));
  CHECK(V("1!0.1") == V("1!0.1.0"));
  CHECK(V("2.0") < V("1!1.0"));  // epochs first
  CHECK(V("1.0+abc") < V("1.0+1"));  // numeric local segments sort after alphanumeric ones
  CHECK(V("1.0+1.1") < V("1.0+1.1.0"));
  CHECK(V("1.0+010") == V("1.0+10"));
}

TEST_CASE("PEP 440 specifiers: comparison operators", "[python][pep440]") {
  CHECK(sat("2.0", ">=2.0"));
  CHECK(sat("2.0.1", ">=2.0"));
  CHECK_FALSE(sat("1.9", ">=2.0"));
  CHECK(sat("2.0", "<=2.0"));
  CHECK(sat("2.0", "!=2.1"));
  CHECK_FALSE(sat("2.1.0", "!=2.1"));
  CHECK(sat("1.5", ">=1.0,<2.0"));
  CHECK_FALSE(sat("2.0", ">=1.0,<2.0"));
  CHECK(sat("2.0", "==2.0.0"));  // zero padding
}

TEST_CASE("PEP 440: local versions", "[python][pep440]") {
  // "If the specified version identifier is a public version identifier (no
  // local version label), then the local version label of any candidate
  // versions MUST be ignored when matching versions."
  CHECK(sat("2.1.0+cu121", "==2.1.0"));
  CHECK(sat("2.1.0+cu121", "==2.1.0+cu121"));
  CHECK_FALSE(sat("2.1.0+cu118", "==2.1.0+cu121"));
  CHECK_FALSE(sat("2.1.0", "==2.1.0+cu121"));
  CHECK(sat("2.1.0+cu121", ">=2.1"));
  CHECK(sat("2.1.0+cu121", "<=2.1.0"));
  CHECK_FALSE(sat("2.1.0+cu121", "!=2.1.0"));
  CHECK(sat("2.1.0+cu121", "==2.1.*"));
  // ">V" excludes V's local versions (packaging: _compare_greater_than).
  CHECK_FALSE(sat("2.1.0+cu121", ">2.1.0"));
  CHECK_FALSE(Pep440Specifier::parse(">=2.1+cu121"));  // only == and != may name a local version
}

TEST_CASE("PEP 440: wildcards and compatible release", "[python][pep440]") {
  CHECK(sat("1.2.3", "==1.2.*"));
  CHECK(sat("1.2", "==1.2.*"));
  CHECK_FALSE(sat("1.3", "==1.2.*"));
  CHECK(sat("1.3", "!=1.2.*"));
  CHECK(sat("1.2.0rc1", "==1.2.*"));
  CHECK(sat("12.1.105", "==12.*"));
  // ~=2.2 is >=2.2, ==2.*; ~=1.4.5 is >=1.4.5, ==1.4.*.
  CHECK(sat("2.3", "~=2.2"));
  CHECK_FALSE(sat("3.0", "~=2.2"));
  CHECK(sat("1.4.9", "~=1.4.5"));
  CHECK_FALSE(sat("1.5.0", "~=1.4.5"));
  CHECK_FALSE(sat("1.4.4", "~=1.4.5"));
  CHECK(sat("2.2.post3", "~=2.2.post3"));
  CHECK(sat("1.4.5.0", "~=1.4.5.0"));
  CHECK_FALSE(Pep440Specifier::parse("~=1"));      // one release segment
  CHECK_FALSE(Pep440Specifier::parse(">=1.0.*"));  // a wildcard only with == and !=
  CHECK_FALSE(Pep440Specifier::parse("=>1.0"));
  CHECK_FALSE(Pep440Specifier::parse(">=1.0,"));
  CHECK(Pep440Specifier::parse("")->contains(V("0.0.1")));
}

TEST_CASE("PEP 440: pre-, post- and dev-releases against < and >", "[python][pep440]") {
  CHECK_FALSE(sat("3.0.dev1", "<3.0"));  // "<V" excludes V's pre-releases …
  CHECK_FALSE(sat("3.0rc1", "<3.0"));
  CHECK(sat("3.0rc1", "<3.0rc2"));  // … unless V is itself one
  CHECK(sat("2.9", "<3.0"));
  CHECK_FALSE(sat("3.0.post1", ">3.0"));  // ">V" excludes V's post-releases …
  CHECK(sat("3.0.post2", ">3.0.post1"));  // … unless V is one
  CHECK(sat("3.1", ">3.0"));
  CHECK(sat("1.13.0a0+gitunknown", ">=1.12"));
  CHECK(sat("1.0.dev1", "==1.0.dev1"));
  CHECK(sat("1.0.post1", ">=1.0"));
  CHECK(sat("1.0rc1", "<=1.0"));
}

TEST_CASE("PEP 440: arbitrary equality", "[python][pep440]") {
  auto s = Pep440Specifier::parse("===foobar");
  REQUIRE(s);
  CHECK(s->contains(std::string_view("FooBar")));
  CHECK_FALSE(s->contains(std::string_view("foobaz")));
  CHECK(Pep440Specifier::parse("===1.0")->contains(V("1.0")));
  CHECK_FALSE(Pep440Specifier::parse("===1.0")->contains(V("1.0.0")));  // text, not value
}
