// The libFuzzer entry points (clang's -fsanitize=fuzzer): one binary for
// every target of fuzz_targets.cpp, chosen by GPUCHECK_FUZZ_TARGET.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "fuzz_targets.hpp"

namespace {
const gpucheck::fuzz::Target* g_target = nullptr;
}

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const char* name = std::getenv("GPUCHECK_FUZZ_TARGET");
  g_target = name ? gpucheck::fuzz::target_named(name) : nullptr;
  if (!g_target) {
    std::fprintf(stderr, "GPUCHECK_FUZZ_TARGET must name one of:");
    for (const auto& t : gpucheck::fuzz::targets()) std::fprintf(stderr, " %s", t.name);
    std::fprintf(stderr, "\n");
    std::exit(2);
  }
  return 0;
}

// Every reader is linear: an input that takes longer than a second plus
// four per MiB (sanitized, on a loaded machine) is a finding, long before
// libFuzzer's own -timeout. The quadratic paste reader of the 2026-12-03
// audit took 10 s on 50 KB.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto start = std::chrono::steady_clock::now();
  g_target->run(std::string_view(reinterpret_cast<const char*>(data), size));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double budget = 1.0 + 4.0 * static_cast<double>(size) / (1 << 20);
  if (seconds > budget) {
    std::fprintf(stderr, "oracle: %s took %.2f s on %zu bytes (budget %.2f s)\n", g_target->name, seconds, size, budget);
    std::abort();
  }
  return 0;
}
