// CTest learns the test names from the binary (catch_discover_tests), and a
// ';' is CMake's list separator: a name holding one became two CTest tests
// whose filters matched nothing, so the case never ran on CI and still
// "passed". Twelve did, until this check. A name that starts with '-' is
// read by Catch2 as an option when CTest passes it, so that case fails to run.
#include <catch2/catch.hpp>
#include <filesystem>
#include <regex>
#include <string>

#include "test_support.hpp"

TEST_CASE("no test case name holds a semicolon or starts with a dash, which CTest cannot pass to Catch2", "[tests]") {
  const std::regex name(R"re(TEST_CASE\("([^"]*)")re");
  int cases = 0;
  for (auto& e : std::filesystem::directory_iterator(gpucheck::test::source_path("tests/unit"))) {
    if (e.path().extension() != ".cpp") continue;
    const std::string text = gpucheck::test::read_file(e.path().string());
    for (std::sregex_iterator it(text.begin(), text.end(), name), end; it != end; ++it) {
      ++cases;
      INFO(e.path().filename().string() << ": " << (*it)[1].str());
      CHECK((*it)[1].str().find(';') == std::string::npos);
      CHECK((*it)[1].str().rfind('-', 0) != 0);
    }
  }
  CHECK(cases > 200);  // the scan found the suite
}
