// One line (machine_formats.hpp): what fits where a launcher keeps a short
// reason: Slurm's node reason, a Kubernetes termination message, a log line.
#include "report/format_text.hpp"
#include "report/machine_formats.hpp"

namespace gpucheck {

std::string render_oneline(const RunReport& r) {
  if (!r.failed) return "PASS\n";
  const Finding* first = nullptr;
  int more = 0;
  for (const auto& f : r.findings) {
    if (!finding_fails(f, r.strict)) continue;
    if (first) ++more;
    else first = &f;
  }
  // A run fails without a failing finding only when a check did (kernels).
  std::string what;
  if (first) what = first->title + (first->scope.empty() || first->scope == "host" ? "" : " (" + first->scope + ")");
  else
    for (const auto& c : r.checks)
      if (c.status == CheckOutcome::Status::failed && c.kind != "verdict") {
        what = c.group + ": " + c.name + (c.detail.empty() ? "" : ": " + c.detail);
        break;
      }
  if (what.empty()) what = "gpucheck " + r.command + " failed";
  if (more) what += " (and " + std::to_string(more) + " more)";
  return "FAIL: " + safe_line(what) + "\n";
}

}  // namespace gpucheck
