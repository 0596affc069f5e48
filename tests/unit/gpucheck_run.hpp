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
// A verdict's exit code (docs/exit-codes.md): pass, fail, or a paste that
// does not show what a verdict needs; 2 would mean it could not be read.
inline bool is_verdict(int exit_code) { return exit_code == 0 || exit_code == 1 || exit_code == 3; }

inline CommandResult run_gpucheck(const std::vector<std::string>& args) {
  auto r = run_process(gpucheck_binary(), args, Millis(60000));
  REQUIRE(r);
  REQUIRE_FALSE(r->timed_out);
  return *r;
}

// The same, with NAME=VALUE pairs added to the environment and from
// another working directory (through env(1) and sh(1), which every Linux has).
inline CommandResult run_gpucheck_with(const std::vector<std::string>& env, const std::string& cwd,
                                       const std::vector<std::string>& args) {
  std::vector<std::string> argv{"-c", "cd \"$0\" && exec \"$@\"", cwd.empty() ? "." : cwd, "/usr/bin/env"};
  argv.insert(argv.end(), env.begin(), env.end());
  argv.push_back(gpucheck_binary());
  argv.insert(argv.end(), args.begin(), args.end());
  auto r = run_process("/bin/sh", argv, Millis(60000));
  REQUIRE(r);
  REQUIRE_FALSE(r->timed_out);
  return *r;
}

}  // namespace gpucheck::test
