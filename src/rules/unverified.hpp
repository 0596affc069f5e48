// The gate's own judgement: on a host with GPUs, what a probe could not
// answer is not a pass. A launcher reads exit 0 as "this node is proven";
// a hung nvidia-smi or a crashed cuInit proves nothing.
#pragma once

#include <string>
#include <vector>

#include "facts/facts.hpp"
#include "rules/finding.hpp"

namespace gpucheck {

// One error finding (category "unverified") for each probe whose answer
// matters and did not come: a program or driver call that hung, crashed or
// failed, or a program or call not started for the run's --timeout. None
// on a host without a GPU (PCI, or expected_gpus from --gpus or a lock).
// `known` are the findings already made: a driver voice that failed
// because the driver is missing or mismatched is already explained there
// (as the matrix's cuda-init-failed leaves 803 to driver-mismatch); one
// that hung is named always.
//
// And a check that was asked for and did not run, on any host: kernel
// checks (facts.kernels present) with no GPU to run on or no driver to run
// them, or a `required` precision (matrix names: "bf16", "fp8") that no
// kernel check tested to a verdict.
std::vector<Finding> unverified_findings(const Facts& facts, int expected_gpus, const std::vector<std::string>& required,
                                         const std::vector<Finding>& known);

}  // namespace gpucheck
