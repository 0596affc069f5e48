// CTest learns the test names from the binary (catch_discover_tests), and a
// ';' is CMake's list separator: a name holding one became two CTest tests
// whose filters matched nothing, so the case never ran on CI and still
// "passed". Twelve did, until this check.
#include <catch2/catch.hpp>
#include <filesystem>
#include <regex>
#include <string>

#include "test_support.hpp"

TEST_CASE("no test case name holds a semicolon, which CTest would split into names that run nothing", "[tests]") {
  const std::regex name(R"re(TEST_CASE\("([^"]*)")re");
  int cases = 0;
  for (auto& e : std::filesystem::directory_iterator(gpucheck::test::source_path("tests/unit"))) {
    if (e.path().extension() != ".cpp") continue;
    const std::string text = gpucheck::test::read_file(e.path().string());
    for (std::sregex_iterator it(text.begin(), text.end(), name), end; it != end; ++it) {
      ++cases;
      INFO(e.path().filename().string() << ": " << (*it)[1].str());
      CHECK((*it)[1].str().find(';') == std::string::npos);
    }
  }
  CHECK(cases > 200);  // the scan found the suite
}
