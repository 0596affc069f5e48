// The CPU side of a correctness check: inputs in the format under test
// (rounded first, so the GPU and the reference see the same numbers), laid
// out as the kernel loads them, the expected outputs with a tolerance each,
// and the comparison. NaN never passes; an element still holding the poison
// the output was filled with before the run fails as "unwritten".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/catalog.hpp"
#include "kernels/fragments.hpp"

namespace gpucheck::kernels {

// Written over every output buffer before each run (cuMemsetD32). As binary32
// and binary64 it is a NaN; as int32 it is 2146959359, beyond any INT8 dot
// product of the checks (|sum| <= 32 * 128 * 128 + 1000).
inline constexpr std::uint32_t kPoison = 0x7FF7FFFFu;

struct CheckData {
  int tiles = 0;
  std::vector<std::uint8_t> a, b, c;       // bytes as the kernel reads them
  std::vector<double> expected, tolerance;  // one per output element, in d's order
  std::size_t d_bytes() const;
  std::size_t elem_bytes = 4;
};

MmaShape shape_of(const KernelSpec& k);

// Deterministic for a seed. For one loop trip (iters = 1).
CheckData make_check_data(const KernelSpec& k, int tiles, std::uint64_t seed);

struct Comparison {
  std::uint64_t checked = 0, wrong = 0, unwritten = 0, nan = 0;
  double max_abs_error = 0;     // over the finite, written elements
  std::string first_mismatch;   // "element 17 (tile 0, chain 0, lane 4, reg 1): got 1.5, expected 2 ± 0"
};

Comparison compare(const KernelSpec& k, const CheckData& data, const std::vector<std::uint8_t>& d);

// Elements still poisoned or NaN (for long throughput runs, whose values are
// not compared).
std::uint64_t count_unwritten(const KernelSpec& k, const std::vector<std::uint8_t>& d);

// How the tolerance is set for this kernel, in words (reported with the result).
std::string tolerance_rule(const KernelSpec& k);

}  // namespace gpucheck::kernels
