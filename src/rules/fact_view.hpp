// Facts (and what the matrix says about them) as the flat, typed subjects
// rules are evaluated on. This is where a GPU seen by PCI, nvidia-smi and the
// CUDA driver API becomes one GPU, and where a framework build meets the
// matrix's arch list; rules then only compare.
#pragma once

#include <vector>

#include "facts/facts.hpp"
#include "matrix/matrix.hpp"
#include "rules/fact_value.hpp"
#include "util/dates.hpp"

namespace gpucheck {

// One subject for the host, then one per GPU, per Python environment, per
// framework build, and per framework build on each NVIDIA GPU.
// `today`: the day a driver branch's end of life is judged on (none: not judged).
std::vector<Subject> build_subjects(const Facts& facts, const Matrix& matrix, std::optional<Day> today = std::nullopt);

}  // namespace gpucheck
