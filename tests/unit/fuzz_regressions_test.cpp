// Every input a fuzz run ever crashed on (tests/fuzz/regressions/<target>/),
// and every seed, through its target in the ordinary suite: a fixed bug
// stays fixed without a fuzzing build. The targets: tests/fuzz/fuzz_targets.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include "../fuzz/fuzz_targets.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;

TEST_CASE("every input a fuzz run found a crash with reads without one", "[fuzz][bad-input]") {
  int replayed = 0;
  for (const auto& t : gpucheck::fuzz::targets()) {
    const fs::path dir = gpucheck::test::source_path(std::string("tests/fuzz/regressions/") + t.name);
    if (!fs::is_directory(dir)) continue;
    for (const auto& e : fs::directory_iterator(dir)) {
      INFO(t.name << ": " << e.path().string());
      CHECK_NOTHROW(t.run(gpucheck::test::read_file(e.path().string())));
      ++replayed;
    }
  }
  CHECK(replayed >= 8);
}

TEST_CASE("every fuzz target has a regressions directory and names seeds that exist", "[fuzz]") {
  for (const auto& t : gpucheck::fuzz::targets()) {
    INFO(t.name);
    CHECK(fs::is_directory(gpucheck::test::source_path(std::string("tests/fuzz/regressions/") + t.name)));
    CHECK(std::string(t.seeds).size() > 0);
  }
}
