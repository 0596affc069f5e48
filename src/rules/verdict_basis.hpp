// What a verdict rests on: every fact the rules need on a GPU host, which
// probe reads it, and what the verdict does when it cannot be read. The
// gate's unverified findings (unverified.cpp) are judged by this table;
// docs/rules.md prints it (docs/exit-codes.md points there), and a test
// walks every row with a fixture where that fact is missing
// (tests/fixtures/verdict-basis.json).
#pragma once

#include <string_view>
#include <vector>

#include "rules/action.hpp"

namespace gpucheck {

// What an unread fact does to the verdict.
enum class Missing {
  error,    // an `unverified` error: check fails
  warning,  // a warning: fails under --strict
  listed,   // only listed under Unknown (with the reason): the verdict stands
};
std::string_view to_string(Missing m);  // "error", "warning", "listed"

// Where a row applies.
enum class AppliesTo {
  nvidia_host,    // a host any source says has NVIDIA GPUs (facts/gpu_host.hpp)
  amd_host,       // a host any source says has AMD GPUs
  gpu_host,       // any GPU host
  gpus_asked,     // check --gpus N
  kernels_asked,  // check --kernels
  precisions_asked,  // check --require with --kernels
};
std::string_view describe(AppliesTo a);  // "an NVIDIA GPU host", for the docs' table

struct BasisRow {
  std::string_view id;       // "cuda-driver-api": how tests name the row
  std::string_view rule;     // the finding's rule id, "unverified-cuda_driver_api"; empty: never a finding
  std::string_view fact;     // what the rules need
  std::string_view read_by;  // the probe, and what it reads
  AppliesTo applies;
  Missing failed;   // it hung, crashed, failed, answered nonsense, or a snapshot did not record it
  Missing absent;   // what it is read from is not installed or not there
  std::string_view fix;
  Action action;
};

// In the order docs/rules.md lists them (report/rules_doc.hpp).
const std::vector<BasisRow>& verdict_basis();
const BasisRow& basis_row(std::string_view id);

}  // namespace gpucheck
