#include "rules/engine.hpp"

#include "rules/fact_catalogue.hpp"

#include <algorithm>
#include <map>

#include "util/pci_address.hpp"
#include "util/strings.hpp"

namespace gpucheck {

std::string fill_placeholders(const std::string& text, const FactMap& facts) {
  std::string out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const auto open = text.find('{', pos);
    const auto close = open == std::string::npos ? std::string::npos : text.find('}', open);
    if (close == std::string::npos) {
      out += text.substr(pos);
      break;
    }
    out += text.substr(pos, open - pos);
    // A fact the subject lacks is named, not left as {gpu.name} or "unknown".
    const std::string name = text.substr(open + 1, close - open - 1);
    auto it = facts.find(name);
    if (it != facts.end()) {
      out += it->second.text;
    } else {  // piece by piece: GCC 12's -Wrestrict misfires on "<" + string at -O3
      out += '<';
      out += fact_noun(name);
      out += '>';
    }
    pos = close + 1;
  }
  return out;
}

namespace {

void replace_all(std::string& s, const std::string& from, const std::string& to) {
  if (from.empty()) return;
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) s.replace(at, from.size(), to);
}

// A message with its GPU's own address taken out: the same fault on two
// GPUs reads the same.
std::string generic(std::string message, const Subject& s) {
  replace_all(message, s.gpu_address, "{gpu.address}");
  return message;
}

struct GpuHits {
  std::vector<const Subject*> subjects;
  std::vector<std::string> messages;  // generic(), one per subject
};

std::vector<std::string> addresses(const std::vector<const Subject*>& subjects) {
  std::vector<std::string> out;
  for (auto* s : subjects) out.push_back(s->gpu_address);
  return out;
}

// One finding for every GPU a rule held on: "8 GPUs (NVIDIA H100 80GB HBM3):
// 0000:{18,2a,…}:00.0"; the GPUs whose message differs are the details.
void name_gpus(Finding& f, const GpuHits& hits) {
  const auto all = addresses(hits.subjects);
  f.gpus = all;
  if (all.size() < 2) return;
  std::vector<std::string> names;
  for (auto* s : hits.subjects)
    if (!s->gpu_name.empty() && std::find(names.begin(), names.end(), s->gpu_name) == names.end()) names.push_back(s->gpu_name);
  const std::string& on = hits.subjects.front()->on;
  f.scope = (on.empty() ? "" : on + " on ") + std::to_string(all.size()) + " GPUs" +
            (names.empty() ? "" : " (" + join(names, ", ") + ")") + ": " + compact_pci_bus_ids(all);
  std::vector<std::string> distinct;  // in order of first sight
  for (auto& m : hits.messages)
    if (std::find(distinct.begin(), distinct.end(), m) == distinct.end()) distinct.push_back(m);
  for (std::size_t d = 0; d < distinct.size(); ++d) {
    std::vector<const Subject*> with;
    for (std::size_t i = 0; i < hits.subjects.size(); ++i)
      if (hits.messages[i] == distinct[d]) with.push_back(hits.subjects[i]);
    std::string text = distinct[d];
    const std::string where = compact_pci_bus_ids(addresses(with));
    replace_all(text, "{gpu.address}", where);
    // Messages that differ each say which GPUs they are about.
    if (distinct.size() > 1) text = where + ": " + text;
    if (d == 0) f.message = text;
    else f.details.push_back(text);
  }
  // A fix is often a command (nvidia-smi -r -i ADDRESS): the list it takes, not the brace form.
  replace_all(f.fix, hits.subjects.front()->gpu_address, join(all, ","));
  for (auto& e : f.evidence)
    if (e.fact == "gpu.address") e.value = compact_pci_bus_ids(all);
}

}  // namespace

std::vector<Finding> evaluate_rules(const std::vector<Rule>& rules, const std::vector<Subject>& subjects) {
  std::vector<Finding> out;
  std::vector<std::string> names;
  for (auto& r : rules) {
    names.clear();
    referenced_facts(r.when, names);
    // What merges findings of this rule -> index in out: the message, or
    // for GPUs what runs on them (one fault on several GPUs is one finding).
    std::map<std::string, std::size_t> seen;
    std::map<std::size_t, GpuHits> on_gpus;
    for (auto& s : subjects) {
      if (s.scope != r.scope || evaluate(r.when, s.facts) != Tri::yes) continue;
      const std::string message = fill_placeholders(r.message, s.facts);
      const bool on_gpu = !s.gpu_address.empty();
      const std::string key = on_gpu ? "GPU\n" + s.on : message;
      if (auto it = seen.find(key); it != seen.end()) {
        if (on_gpu) {
          on_gpus[it->second].subjects.push_back(&s);
          on_gpus[it->second].messages.push_back(generic(message, s));
        } else {
          out[it->second].scope += "; " + s.label;
        }
        continue;
      }
      Finding f;
      f.rule = r.id;
      f.category = r.category;
      f.severity = r.severity;
      f.title = r.title;
      f.message = message;
      f.scope = s.label;
      f.fix = fill_placeholders(r.fix, s.facts);
      f.action = r.action;
      f.sources = r.sources;
      for (auto& n : names)
        if (auto it = s.facts.find(n); it != s.facts.end()) f.evidence.push_back({n, it->second.text, it->second.source});
      if (on_gpu) on_gpus[out.size()] = GpuHits{{&s}, {generic(message, s)}};
      seen.emplace(key, out.size());
      out.push_back(std::move(f));
    }
    for (auto& [i, hits] : on_gpus) name_gpus(out[i], hits);
  }
  sort_findings(out);
  return out;
}

void sort_findings(std::vector<Finding>& findings) {
  std::stable_sort(findings.begin(), findings.end(),
                   [](const Finding& a, const Finding& b) { return a.severity > b.severity; });
}

}  // namespace gpucheck
