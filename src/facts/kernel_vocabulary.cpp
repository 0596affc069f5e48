#include "facts/kernel_vocabulary.hpp"

#include "util/word_table.hpp"

namespace gpucheck {

namespace {

using S = StepStatus;
constexpr Word<S> kSteps[] = {
    {S::passed, "passed"},       {S::failed, "failed"},
    {S::ran, "ran"},             {S::jit_failed, "jit_failed"},
    {S::launch_failed, "launch_failed"}, {S::timed_out, "timed_out"},
    {S::crashed, "crashed"},     {S::context_error, "context_error"},
    {S::not_expected, "not_expected"},   {S::not_implemented, "not_implemented"},
    {S::skipped, "skipped"},     {S::not_run, "not_run"},
};
constexpr Word<GpuRunStatus> kGpuRuns[] = {
    {GpuRunStatus::ran, "ran"}, {GpuRunStatus::waived, "waived"}, {GpuRunStatus::failed, "failed"}};

}  // namespace

std::string_view to_string(StepStatus s) { return name_of(kSteps, s); }
std::string_view to_string(GpuRunStatus s) { return name_of(kGpuRuns, s); }
std::optional<StepStatus> step_status_named(std::string_view name) { return value_named(kSteps, name); }
std::optional<GpuRunStatus> gpu_run_status_named(std::string_view name) { return value_named(kGpuRuns, name); }
std::string step_status_names() { return names_of(kSteps); }
std::string gpu_run_status_names() { return names_of(kGpuRuns); }

}  // namespace gpucheck
