#include "rules/engine.hpp"

#include <algorithm>
#include <map>

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
    auto it = facts.find(text.substr(open + 1, close - open - 1));
    out += it == facts.end() ? "unknown" : it->second.text;
    pos = close + 1;
  }
  return out;
}

std::vector<Finding> evaluate_rules(const std::vector<Rule>& rules, const std::vector<Subject>& subjects) {
  std::vector<Finding> out;
  std::vector<std::string> names;
  for (auto& r : rules) {
    names.clear();
    referenced_facts(r.when, names);
    // rule id + message -> index in out, to merge identical findings.
    std::map<std::string, std::size_t> seen;
    for (auto& s : subjects) {
      if (s.scope != r.scope || evaluate(r.when, s.facts) != Tri::yes) continue;
      const std::string message = fill_placeholders(r.message, s.facts);
      if (auto it = seen.find(message); it != seen.end()) {
        out[it->second].scope += "; " + s.label;
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
      f.sources = r.sources;
      for (auto& n : names)
        if (auto it = s.facts.find(n); it != s.facts.end()) f.evidence.push_back({n, it->second.text, it->second.source});
      seen.emplace(message, out.size());
      out.push_back(std::move(f));
    }
  }
  sort_findings(out);
  return out;
}

void sort_findings(std::vector<Finding>& findings) {
  std::stable_sort(findings.begin(), findings.end(),
                   [](const Finding& a, const Finding& b) { return a.severity > b.severity; });
}

}  // namespace gpucheck
