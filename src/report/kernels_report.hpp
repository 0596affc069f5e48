// The `gpucheck kernels` table: per GPU, each precision check (expected,
// status, rate against the datasheet), the bandwidth checks and the
// sustained run, for a person.
#pragma once

#include <string>

#include "facts/kernel_facts.hpp"

namespace gpucheck {

std::string render_kernels_text(const KernelFacts& k);

}  // namespace gpucheck
