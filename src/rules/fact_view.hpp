// Facts (and what the matrix says about them) as the flat, typed subjects
// rules are evaluated on. This is where a GPU seen by PCI, nvidia-smi and the
// CUDA driver API becomes one GPU, and where a framework build meets the
// matrix's arch list; rules then only compare.
#pragma once

#include <vector>

#include "facts/facts.hpp"
#include "facts/gpu_inventory.hpp"
#include "matrix/matrix.hpp"
#include "rules/fact_value.hpp"
#include "util/dates.hpp"

namespace gpucheck {

// One subject for the host, then one per GPU, per Python environment, per
// framework build, and per framework build on each NVIDIA GPU.
// `today`: the day a driver branch's end of life is judged on (none: not judged).
std::vector<Subject> build_subjects(const Facts& facts, const Matrix& matrix, std::optional<Day> today = std::nullopt);

// The matrix's model of a GPU: by its PCI id where sysfs gave one, else by
// the name nvidia-smi or the CUDA driver gave; nullptr when none matches.
const GpuModel* gpu_model_of(const Matrix& m, const InventoryGpu& g);
// The same GPU's row in the derived PCI id table, the same way.
const GpuId* gpu_id_of(const Matrix& m, const InventoryGpu& g);

}  // namespace gpucheck
