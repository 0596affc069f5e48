// Runs the gpucheck binary for the end-to-end tests. GPUCHECK_TEST_BINARY,
// when set, names another build of it (CI runs these tests against the
// optimised release binary as well as the one built beside them).
#pragma once

#include <catch2/catch.hpp>
#include <cstdlib>
#include <string>
#include <vector>

#include "host/process.hpp"

namespace gpucheck::test {

inline std::string gpucheck_binary() {
  const char* other = std::getenv("GPUCHECK_TEST_BINARY");
  return other && *other ? other : GPUCHECK_BINARY;
}

// The finished run (a minute at most; a timeout fails the test).
inline CommandResult run_gpucheck(const std::vector<std::string>& args) {
  auto r = run_process(gpucheck_binary(), args, Millis(60000));
  REQUIRE(r);
  REQUIRE_FALSE(r->timed_out);
  return *r;
}

}  // namespace gpucheck::test
