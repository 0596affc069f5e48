// One line (machine_formats.hpp): what fits where a launcher keeps a short
// reason: Slurm's node reason, a Kubernetes termination message, a log line.
#include "report/format_text.hpp"
#include "report/machine_formats.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

// Where a finding holds, in a few words: "8 GPUs", "GPU 0000:18:00.0".
std::string short_scope(const Finding& f) {
  if (f.gpus.size() > 1) return std::to_string(f.gpus.size()) + " GPUs";
  if (f.gpus.size() == 1) return "GPU " + f.gpus.front();
  return f.scope == "host" ? "" : f.scope;
}

}  // namespace

std::string render_oneline(const RunReport& r) {
  if (r.outcome == Outcome::pass) return "PASS\n";
  if (r.outcome == Outcome::incomplete) {
    std::vector<std::string> missing;
    for (const auto& n : r.not_shown) missing.push_back(n.what);
    const std::string head = "INCOMPLETE: not in the report: ", tail = " [none]";
    return head + fit_on_words(safe_line(join(missing, ", ")), kOnelineMax - head.size() - tail.size()) + tail + "\n";
  }
  // The finding that asks for the most drastic action leads: the line's
  // action is the verdict's, and what it names is why.
  const Action action = verdict_action(r.findings, r.strict);
  const Finding* first = nullptr;
  int more = 0;
  for (const auto& f : r.findings) {
    if (!finding_fails(f, r.strict)) continue;
    if (!first && f.action == action) first = &f;
    else ++more;
  }
  // A run fails without a failing finding only when a check did (kernels).
  std::string what;
  if (first) {
    const std::string where = short_scope(*first);
    what = first->title + (where.empty() ? "" : " (" + where + ")");
  } else {
    for (const auto& c : r.checks)
      if (c.status == CheckOutcome::Status::failed && c.kind != "verdict") {
        what = c.group + ": " + c.name + (c.detail.empty() ? "" : ": " + c.detail);
        break;
      }
  }
  if (what.empty()) what = "gpucheck " + r.command + " failed";
  // The action closes the line, where a cut never reaches: "[reboot]".
  const std::string tail = (more ? " (and " + std::to_string(more) + " more)" : "") + " [" + std::string(to_string(action)) + "]";
  const std::string head = "FAIL: ";
  return head + fit_on_words(safe_line(what), kOnelineMax - head.size() - tail.size()) + tail + "\n";
}

}  // namespace gpucheck
