#include "report/check_report.hpp"

#include <cctype>

#include <map>

#include "facts/facts_json.hpp"
#include "report/matrix_json.hpp"
#include "report/paste_section.hpp"
#include "report/text_writer.hpp"
#include "util/strings.hpp"
#include "util/json_text.hpp"

namespace gpucheck {

namespace {

std::string severity_label(const Style& s, Severity sev) {
  switch (sev) {
    case Severity::error: return s.bad("error  ");
    case Severity::warning: return s.warn("warning");
    case Severity::info: return s.dim("info   ");
  }
  return "";
}


void finding_lines(std::ostringstream& out, const Style& s, const Finding& f, const std::string& in) {
  out << in << severity_label(s, f.severity) << "  " << s.bold(f.title) << "  " << s.dim("[" + f.category + "]") << "\n";
  out << in << "    " << f.message << "\n";
  for (auto& d : f.details) out << in << "    " << s.dim("also:     ") << d << "\n";
  out << in << "    " << s.dim("where:    ") << f.scope << "\n";
  if (!f.evidence.empty()) {
    out << in << "    " << s.dim("evidence:") << "\n";
    for (auto& e : f.evidence) out << in << "      " << e.fact << " = " << e.value << "  " << s.dim("(" + e.source + ")") << "\n";
  }
  out << in << "    " << s.dim("fix:      ") << f.fix << "\n";
  out << in << "    " << s.dim("action:   ") << to_string(f.action) << "\n";
  for (auto& src : f.sources) out << in << "    " << s.dim("source:   ") << src << "\n";
  out << in << "    " << s.dim("rule:     " + f.rule) << "\n";
}

// The stack in a few lines (check_report.hpp).
void summary(Writer& w, const Facts& f) {
  w.section("Stack");
  for (const auto& [label, value] : stack_summary(f)) w.fact(label, value);
}

// What hung or was not started for --timeout: a launcher's log should name
// it without a second run.
std::vector<const Note*> timed_out_notes(const Facts& f) {
  std::vector<const Note*> out;
  for (auto& n : f.notes)
    if (n.problem.reason == Reason::timed_out) out.push_back(&n);
  return out;
}

}  // namespace

namespace {

// A paste's "report.txt:12" or "report.txt:3-7 (collect_env)" as "line 12",
// "lines 3-7": where in the paste a value of the stack stands.
std::string paste_line(const Facts& f, std::string_view source) {
  if (!f.report || source.empty()) return {};
  const std::string prefix = f.report->name + ":";
  if (source.substr(0, prefix.size()) != prefix) return {};
  auto at = source.substr(prefix.size());
  at = at.substr(0, at.find(' '));
  if (at.empty() || !std::isdigit(static_cast<unsigned char>(at.front()))) return {};
  return std::string(at.find('-') == std::string_view::npos ? "  (line " : "  (lines ").append(at).append(")");
}

}  // namespace

std::vector<std::pair<std::string, std::string>> stack_summary(const Facts& f) {
  std::vector<std::pair<std::string, std::string>> rows;
  auto fact = [&rows](std::string label, std::string value) { rows.emplace_back(std::move(label), std::move(value)); };
  std::map<std::string, int> models;
  std::vector<std::string> order;
  auto add = [&](const std::string& m) {
    if (!models.count(m)) order.push_back(m);
    ++models[m];
  };
  if (f.nvidia_smi && !f.nvidia_smi->gpus.empty()) {
    for (auto& g : f.nvidia_smi->gpus) add(g.product_name.value_or("unknown NVIDIA GPU"));
  } else if (f.cuda && !f.cuda->devices.empty()) {
    for (auto& d : f.cuda->devices) add(d.name.value_or("unknown CUDA device"));
  } else {
    for (auto& d : f.pci)
      if (d.kind == PciKind::gpu) add(d.name.value_or(std::string(to_string(d.vendor)) + " " + d.vendor_id + ":" + d.device_id));
  }
  if (order.empty())  // a ROCm report names its GPUs only as KFD node stand-ins
    for (auto& n : f.software.rocm.gpu_nodes) {
      std::string name = n.name.value_or("AMD GPU");
      if (n.gfx_target) name.append(" (").append(*n.gfx_target).append(")");
      add(name);
    }
  std::string gpus;
  for (auto& m : order) gpus += (gpus.empty() ? "" : ", ") + std::to_string(models[m]) + " × " + m;
  const std::string none = nothing_found(f);
  if (!gpus.empty() && f.nvidia_smi && !f.nvidia_smi->gpus.empty()) gpus += paste_line(f, f.nvidia_smi->source);
  fact("GPUs", gpus.empty() ? none : gpus);
  std::string driver = f.nvidia_driver.kernel_module.version.value_or(
      f.nvidia_smi && f.nvidia_smi->driver_version ? *f.nvidia_smi->driver_version
      : f.nvidia_driver.libcuda.version            ? *f.nvidia_driver.libcuda.version + " (user-space libcuda)"
                                                   : none);
  if (f.cuda && f.cuda->driver_version) driver += ", CUDA " + *f.cuda->driver_version;
  else if (f.nvidia_smi && f.nvidia_smi->cuda_version) driver += ", CUDA " + *f.nvidia_smi->cuda_version;
  if (f.nvidia_driver.kernel_module.version) driver += paste_line(f, f.nvidia_driver.kernel_module.source);
  else if (f.nvidia_smi && f.nvidia_smi->driver_version) driver += paste_line(f, f.nvidia_smi->source);
  fact("NVIDIA driver", driver);
  for (auto& t : f.software.toolkits)
    if (t.active) fact("CUDA toolkit", t.version.value_or("version unknown") + parenthesized(t.root) + paste_line(f, t.version_source.value_or("")));
  for (auto& e : f.software.python) {
    std::vector<std::string> fws;
    for (auto& fw : e.frameworks)
      if (fw.name == "ollama") fact("Application", "ollama " + (fw.version.empty() ? std::string("(version not shown)") : fw.version) + paste_line(f, fw.source));
      else fws.push_back(fw.name + " " + (fw.version.empty() ? "(version not shown)" : fw.version) + paste_line(f, fw.source));
    if (!fws.empty()) fact("Python", e.interpreter + ": " + join(fws, ", "));
  }
  for (auto& i : f.software.rocm.installs)
    if (i.active) fact("ROCm", i.version.value_or("version unknown") + parenthesized(i.root) + paste_line(f, i.version_source.value_or("")));
  if (auto& n = f.system.container.ngc) fact("NGC image", n->framework.value_or("?") + " " + n->version.value_or("?"));
  if (f.kernels) {
    int passed = 0, expected = 0;
    for (auto& g : f.kernels->gpus)
      for (auto& c : g.checks)
        if (judged(c)) {
          ++expected;
          if (c.status == StepStatus::passed) ++passed;
        }
    int copies = 0, copies_passed = 0;
    for (auto& p : f.kernels->peer_copies)
      if (p.status != StepStatus::skipped) {
        ++copies;
        if (p.status == StepStatus::passed) ++copies_passed;
      }
    std::string peers;
    if (copies) peers = ", " + std::to_string(copies_passed) + " of " + std::to_string(copies) + " peer copies";
    fact("Kernel checks", f.kernels->error ? "could not run: " + *f.kernels->error
                                           : std::to_string(passed) + " of " + std::to_string(expected) +
                                                 " checks run" + peers + " passed on " + std::to_string(f.kernels->gpus.size()) +
                                                 " GPU(s) (details: gpucheck kernels)");
  }
  return rows;
}

nlohmann::ordered_json finding_json(const Finding& f) {
  nlohmann::ordered_json j;
  j["rule"] = f.rule;
  j["category"] = f.category;
  j["severity"] = std::string(to_string(f.severity));
  j["title"] = f.title;
  j["message"] = f.message;
  j["scope"] = f.scope;
  j["gpus"] = f.gpus;
  j["details"] = f.details;
  j["evidence"] = nlohmann::ordered_json::array();
  for (auto& e : f.evidence) j["evidence"].push_back({{"fact", e.fact}, {"value", e.value}, {"source", e.source}});
  j["fix"] = f.fix;
  j["action"] = std::string(to_string(f.action));
  j["sources"] = f.sources;
  return j;
}

std::string render_finding_text(const Finding& f, const ReportOptions& o, const std::string& indent) {
  Style s(o.color);
  std::ostringstream out;
  finding_lines(out, s, f, indent);
  return out.str();
}

std::string render_check_text(const CheckReport& r, const ReportOptions& o) {
  Style s(o.color);
  Writer w(s);
  const int errors = count(r.findings, Severity::error), warnings = count(r.findings, Severity::warning),
            infos = count(r.findings, Severity::info);
  w.raw() << s.bold("gpucheck " + o.version) << "  " << s.dim("matrix " + r.matrix.version + " (" + r.matrix.origin + "), " + r.source)
          << "\n\n";
  if (r.findings.empty()) w.raw() << s.good("No findings.") << "\n";
  for (auto& f : r.findings) {
    finding_lines(w.raw(), s, f, "");
    w.raw() << "\n";
  }
  summary(w, r.facts);
  paste_section(w, r.facts);
  for (const Note* n : timed_out_notes(r.facts)) w.fact("Timed out", n->subject + ": " + n->item + ": " + n->problem.detail);
  if (!r.facts.notes.empty())
    w.line(s.dim(plural(static_cast<int>(r.facts.notes.size()), "fact") + " could not be read; `gpucheck probe" +
                 (r.facts.from_report ? " --from FILE" : "") + "` lists them with the reason"));
  if (!r.not_shown.empty()) {
    w.section("Not in the report (a verdict needs it)");
    for (const auto& n : r.not_shown) w.fact(n.what, "ask the reporter for `" + n.ask_for + "`");
    w.line("or for `gpucheck probe --json` on that machine: it shows all of them");
  }
  std::string counts = plural(errors, "error") + ", " + plural(warnings, "warning") + ", " + std::to_string(infos) + " info";
  const std::string word = upper(r.outcome);
  w.raw() << "\n"
          << (r.outcome == Outcome::pass ? s.good(word) : r.outcome == Outcome::fail ? s.bad(word) : s.warn(word)) << "  " << counts
          << (r.strict && warnings && !errors ? " (--strict: warnings fail)" : "")
          << (r.outcome == Outcome::fail ? "; action: " + std::string(to_string(verdict_action(r.findings, r.strict))) : "")
          << (r.outcome == Outcome::incomplete ? "; the report does not show what a verdict needs" : "") << "\n";
  return w.raw().str();
}

std::string render_check_json(const CheckReport& r, const ReportOptions& o) {
  nlohmann::ordered_json j;
  j["schema"] = kCheckSchema;
  j["gpucheck_version"] = o.version;
  j["matrix"] = matrix_json(r.matrix);
  j["source"] = r.source;
  j["verdict"] = std::string(to_string(r.outcome));
  j["action"] = std::string(to_string(verdict_action(r.findings, r.strict)));
  j["strict"] = r.strict;
  j["counts"] = {{"error", count(r.findings, Severity::error)},
                 {"warning", count(r.findings, Severity::warning)},
                 {"info", count(r.findings, Severity::info)}};
  j["findings"] = nlohmann::ordered_json::array();
  for (auto& f : r.findings) j["findings"].push_back(finding_json(f));
  j["not_shown"] = nlohmann::ordered_json::array();
  for (auto& n : r.not_shown) j["not_shown"].push_back({{"what", n.what}, {"ask_for", n.ask_for}});
  j["timed_out"] = nlohmann::ordered_json::array();
  for (const Note* n : timed_out_notes(r.facts))
    j["timed_out"].push_back({{"probe", n->subject}, {"item", n->item}, {"detail", n->problem.detail}});
  j["facts"] = to_json(r.facts);
  return dump_json(j, 2) + "\n";
}

}  // namespace gpucheck
