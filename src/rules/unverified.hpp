// The gate's own judgement: on a host with GPUs, what a probe could not
// answer is not a pass. A launcher reads exit 0 as "this node is proven";
// a hung nvidia-smi or a crashed cuInit proves nothing.
#pragma once

#include <string>
#include <vector>

#include "facts/facts.hpp"
#include "rules/finding.hpp"

namespace gpucheck {

// One finding (category "unverified") for each fact the verdict rests on
// that could not be read, as the table of verdict_basis.hpp says: an error
// (or a warning, for the kernel log) on a GPU host, which any source may
// make one (gpu_host.hpp); the count of GPUs a job can use on any host told
// to have some (expected_gpus, from --gpus or a lock). `known` are the findings already made: a driver
// voice that failed because the driver is missing or mismatched is already
// explained there (as the matrix's cuda-init-failed leaves 803 to
// driver-mismatch); one that hung is named always. And a check that was
// asked for and did not run, on any host: kernel checks (facts.kernels
// present) with no GPU to run on or no driver to run them, or a `required`
// precision (matrix names: "bf16", "fp8") that no kernel check tested to a
// verdict.
std::vector<Finding> unverified_findings(const Facts& facts, int expected_gpus, const std::vector<std::string>& required,
                                         const std::vector<Finding>& known);

}  // namespace gpucheck
