// The words a kernel check ends with, each with its one spelling in the
// facts' JSON, the child's answers, the reports and the importer.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace gpucheck {

// How one step (a precision check, a bandwidth check, the sustained run)
// ended. Which words each step can end with: docs/kernels.md.
enum class StepStatus {
  passed,           // ran and was right
  failed,           // ran and was wrong (or wrote nothing)
  ran,              // the sustained run: ran to its end (its samples say how fast)
  jit_failed,       // the driver's JIT refused the PTX
  launch_failed,    // the launch or the synchronisation after it failed
  timed_out,        // the child was killed on the step's deadline
  crashed,          // the child died of a signal during the step
  context_error,    // the CUDA context was lost during the step
  not_expected,     // the architecture lacks the precision and no kernel can run
  not_implemented,  // expected, but gpucheck has no kernel for it yet
  skipped,          // never reached (a deadline, an unusable device)
  not_run,          // not asked for
};

// How the checks on one GPU went as a whole.
enum class GpuRunStatus {
  ran,     // the steps ran (each says how)
  waived,  // not run, with the reason (a MIG instance, a GPU gpucheck cannot drive)
  failed,  // could not run at all
};

std::string_view to_string(StepStatus s);
std::string_view to_string(GpuRunStatus s);
std::optional<StepStatus> step_status_named(std::string_view name);
std::optional<GpuRunStatus> gpu_run_status_named(std::string_view name);
// "passed, failed, …": for an error that says what was expected.
std::string step_status_names();
std::string gpu_run_status_names();

}  // namespace gpucheck
