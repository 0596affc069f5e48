// Driver calls that only the tests make (tests/unit/main.cpp serves them):
// what a library does at its worst, run through the real isolation.
#pragma once

#include <unistd.h>

#include <csignal>
#include <stdexcept>
#include <string>
#include <vector>

#include "host/process.hpp"

namespace gpucheck::test {

inline const std::vector<IsolatedEntry>& isolated_test_calls() {
  static const std::vector<IsolatedEntry> calls = {
      {"test-echo",
       [](const std::vector<std::string>& args) {
         // "big": more than a pipe buffer holds, so the parent must drain while the child writes.
         if (args.size() == 1 && args[0] == "big") return std::string(1 << 20, 'x');
         std::string out;
         for (auto& a : args) out += (out.empty() ? "" : " ") + a;
         return out;
       }},
      {"test-throw", [](const std::vector<std::string>&) -> std::string { throw std::runtime_error("driver said no"); }},
      {"test-segv",
       [](const std::vector<std::string>&) -> std::string {
         // The default action, as in an uninstrumented build: a sanitizer's
         // handler would otherwise report and exit instead of dying by signal.
         std::signal(SIGSEGV, SIG_DFL);
         std::raise(SIGSEGV);
         return "not reached";
       }},
      {"test-hang",
       [](const std::vector<std::string>&) -> std::string {
         for (;;) ::pause();
       }},
  };
  return calls;
}

}  // namespace gpucheck::test
