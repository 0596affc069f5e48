// Catch2's main, once for the whole suite. Probes called in the tests make
// their driver calls through this binary re-executed (host/process.hpp), so
// it serves them too, and the calls the process tests make.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <cstdlib>

#include "isolated_test_calls.hpp"
#include "probe.hpp"

int main(int argc, char** argv) {
  auto calls = gpucheck::isolated_calls();
  const auto& mine = gpucheck::test::isolated_test_calls();
  calls.insert(calls.end(), mine.begin(), mine.end());
  gpucheck::serve_isolated_call(argc, argv, calls);
  // Every gpucheck a test runs judges the matrix's age on one fixed day, so
  // no golden file or finding count changes with the calendar; the age
  // tests set their own day.
  ::setenv("GPUCHECK_TODAY", "2026-12-02", 0);
  // Nor with what `gpucheck matrix update` left in this machine's caches:
  // the suite judges by the embedded matrix unless a test names a cache.
  ::setenv("GPUCHECK_CACHE_DIR", "/nonexistent/gpucheck-test-cache", 0);
  return Catch::Session().run(argc, argv);
}
