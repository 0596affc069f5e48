// GPU memory as the user writes it (--min-memory) and as gpucheck prints it.
// Vendors sell memory in decimal-looking sizes ("80GB") that the GPU reports
// in binary units (an H100 80GB has 79.6 GiB): G, GB, M, MB, T and TB mean
// the size a GPU is sold as; GiB, MiB and TiB are binary and compared with
// what the GPU reports.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace gpucheck {

struct MemorySize {
  double amount = 0;    // in GB (sold size) or GiB (binary)
  bool binary = false;  // GiB: compare with the reported memory
  std::string text() const;  // "80 GB", "79.5 GiB"
};

// "80G", "80GB", "80GiB", "40960M", "40960MiB", "0.5T", "80" (GB); nullopt
// for anything else (a unit it does not know, a negative or empty amount).
std::optional<MemorySize> parse_memory_size(std::string_view text);

// A size to one decimal, as `probe` prints it: "79.6", "80.0".
std::string one_decimal(double v);

}  // namespace gpucheck
