// Catch2's main, once for the whole suite. Probes called in the tests make
// their driver calls through this binary re-executed (host/process.hpp), so
// it serves them too, and the calls the process tests make.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "isolated_test_calls.hpp"
#include "probe.hpp"

int main(int argc, char** argv) {
  auto calls = gpucheck::isolated_calls();
  const auto& mine = gpucheck::test::isolated_test_calls();
  calls.insert(calls.end(), mine.begin(), mine.end());
  gpucheck::serve_isolated_call(argc, argv, calls);
  return Catch::Session().run(argc, argv);
}
