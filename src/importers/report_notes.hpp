// What another tool's report cannot tell, as notes: a report of PyTorch's or
// nvidia-smi's says nothing of PCI devices, the kernel module or the kernel
// log, and the facts must say "not in the report" rather than "none found".
#pragma once

#include <string>

#include "facts/facts.hpp"

namespace gpucheck {

// Adds one Reason::not_recorded note per subject the report does not hold
// (PCI devices, kernel module and userspace driver libraries, services,
// kernel log, the CUDA driver API, nvidia-smi), each when no block of the
// paste filled it. `what` names the report in the detail: "a collect_env
// report", "the paste".
void add_report_notes(Facts& f, const std::string& where, const std::string& what);

}  // namespace gpucheck
