// The libFuzzer entry points (clang's -fsanitize=fuzzer): one binary for
// every target of fuzz_targets.cpp, chosen by GPUCHECK_FUZZ_TARGET.
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

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  g_target->run(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
