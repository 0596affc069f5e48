// Node Feature Discovery feature-file lines (machine_formats.hpp), for
// nfd-worker's local source (/etc/kubernetes/node-feature-discovery/features.d/):
// `name=value`, one a line, `#` lines ignored. The facts are those the
// rules judge (rules/fact_view.hpp), so a label says what `check` saw.
// A value that breaks NFD's label rules (nfd_labels.hpp) is left out with
// a comment, never written for nfd-master to drop.
#include <map>

#include "report/format_text.hpp"
#include "report/machine_formats.hpp"
#include "report/nfd_labels.hpp"
#include "rules/fact_view.hpp"
#include "util/dates.hpp"

namespace gpucheck {

namespace {

class Lines {
 public:
  void add(const std::string& name, const std::string& value) {
    const std::string full = std::string(kNfdNamespace) + "/gpucheck." + name;
    if (nfd_label_name_ok(full) && nfd_label_value_ok(value)) {
      out_ += full + "=" + value + "\n";
    } else {
      out_ += "# gpucheck: left out " + safe_line(full) + ": \"" + safe_line(value) + "\" is not a valid label value\n";
    }
  }
  std::string& text() { return out_; }

 private:
  std::string out_;
};

const FactValue* fact(const Subject& s, const char* name) {
  auto it = s.facts.find(name);
  return it == s.facts.end() ? nullptr : &it->second;
}

// Host and GPU facts as the rules see them.
void stack_labels(const RunReport& r, Lines& out) {
  if (!r.facts || !r.matrix) return;
  const auto subjects = build_subjects(*r.facts, *r.matrix, r.today);
  std::optional<Version> lowest_cc;
  for (const auto& s : subjects) {
    if (s.scope == Scope::host) {
      if (auto* v = fact(s, "driver.version")) out.add("driver.version", v->text);
      if (auto* v = fact(s, "driver.branch")) out.add("driver.branch", v->text);
      if (auto* v = fact(s, "driver.cuda")) out.add("cuda-driver.version", v->text);
      if (auto* v = fact(s, "gpu.count")) out.add("gpu.count", v->text);
    } else if (s.scope == Scope::gpu) {
      auto* v = fact(s, "gpu.compute_capability");
      if (v && v->version && (!lowest_cc || *v->version < *lowest_cc)) lowest_cc = v->version;
    }
  }
  // The lowest among the node's GPUs: what a job can count on from each.
  if (lowest_cc) {
    out.add("compute-capability", lowest_cc->text());
    out.add("compute-capability.major", std::to_string(lowest_cc->major()));
    out.add("compute-capability.minor", std::to_string(lowest_cc->minor()));
  }
}

// A precision is proven when its kernel check passed on every GPU that
// judged it; one GPU where it was judged and did not pass makes it false.
// Not run: no label (not proven, not disproven).
void precision_labels(const RunReport& r, Lines& out) {
  if (!r.facts || !r.facts->kernels) return;
  std::map<std::string, bool> proven;
  for (const auto& g : r.facts->kernels->gpus) {
    if (g.status != GpuRunStatus::ran) continue;
    for (const auto& c : g.checks) {
      if (c.status == StepStatus::passed) proven.emplace(c.precision, true);
      else if (judged(c)) proven[c.precision] = false;
    }
  }
  for (const auto& [precision, ok] : proven) out.add("precision." + precision, ok ? "true" : "false");
}

}  // namespace

std::string render_nfd(const RunReport& r) {
  Lines out;
  // nfd-worker ignores the labels after this, so a node whose gpucheck
  // stopped running loses its last verdict instead of keeping it:
  // https://kubernetes-sigs.github.io/node-feature-discovery/stable/usage/customization-guide.html#local-feature-source
  if (r.labels_expire > 0) out.text() = "# +expiry-time=" + rfc3339_utc(r.labels_expire) + "\n";
  out.text() += "# gpucheck " + safe_line(r.version) + " " + r.command +
               (r.matrix ? ", matrix " + safe_line(r.matrix->version) : std::string()) +
               ": Node Feature Discovery local-source features (docs/output-formats.md)\n";
  out.add(r.command + ".status", std::string(to_string(r.outcome)));
  out.add(r.command + ".action", std::string(to_string(verdict_action(r.findings, r.strict))));
  stack_labels(r, out);
  precision_labels(r, out);
  return out.text();
}

}  // namespace gpucheck
