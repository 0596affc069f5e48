// The GPUs `gpucheck fit` answers for, as its arithmetic takes them
// (fit/fit_plan.hpp): a model the matrix names, with its datasheet's
// figures, or the GPUs this host (or --root, or a --from report) has, with
// the memory they report and the links they negotiated.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "facts/facts.hpp"
#include "fit/fit_plan.hpp"
#include "matrix/matrix.hpp"
#include "util/result.hpp"

namespace gpucheck {

// A model's datasheet figures; NVLink counted each way (the datasheets give
// both directions together), an NVLink bridge not assumed to be fitted.
fit::GpuSpec gpu_spec_of(const GpuModel& model);

// `--gpu`: a matrix id, else the one model whose id or name holds the words
// given ("a100 80gb"); a problem that lists the candidates otherwise.
Result<const GpuModel*> named_gpu(const Matrix& m, std::string_view query);

struct HostGpus {
  fit::GpuSpec spec;  // the first GPU's kind
  int count = 0;      // the GPUs of that kind
  std::vector<std::string> notes;
};
// nullopt when the facts show no GPU.
std::optional<HostGpus> host_gpus(const Facts& facts, const Matrix& m);

}  // namespace gpucheck
