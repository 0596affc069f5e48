#include "rules/explain.hpp"

#include <algorithm>
#include <cctype>

#include "rules/engine.hpp"

namespace gpucheck {

namespace {

std::string normalise(const std::string& s) {
  std::string out;
  bool space = false;
  for (unsigned char c : s) {
    if (std::isspace(c)) {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += static_cast<char>(std::tolower(c));
  }
  return out;
}

// A query shorter than this only matches phrases that contain it whole, so
// "error" alone does not match every rule.
constexpr std::size_t kMinQuery = 8;

}  // namespace

std::string_view to_string(Applies a) {
  switch (a) {
    case Applies::here: return "shows it";
    case Applies::not_here: return "does not show it";
    case Applies::cannot_tell: return "cannot tell";
  }
  return "";
}

std::vector<Explanation> explain(const std::string& message, const std::vector<Rule>& rules,
                                 const std::vector<Subject>& message_subjects, const std::vector<Subject>& subjects) {
  std::vector<Explanation> out;
  const std::string m = normalise(message);
  if (m.empty()) return out;
  for (auto& r : rules) {
    std::string matched;
    for (auto& phrase : r.explains) {
      const std::string p = normalise(phrase);
      if (m.find(p) != std::string::npos || (m.size() >= kMinQuery && p.find(m) != std::string::npos)) {
        matched = phrase;
        break;
      }
    }
    if (matched.empty()) continue;
    Explanation e;
    e.rule = &r;
    e.matched = matched;
    const auto said = evaluate_rules({r}, message_subjects);
    e.meaning = said.empty() ? fill_placeholders(r.message, {}) : said.front().message;
    e.findings = evaluate_rules({r}, subjects);
    // Only where nothing fired: did every subject rule it out, or could some not tell?
    bool unknown = false, any_subject = false;
    if (e.findings.empty())
      for (auto& s : subjects) {
        if (s.scope != r.scope) continue;
        any_subject = true;
        unknown = unknown || evaluate(r.when, s.facts) == Tri::unknown;
      }
    if (!e.findings.empty()) e.applies = Applies::here;
    else if (any_subject && !unknown) e.applies = Applies::not_here;
    else {
      std::vector<std::string> names;
      referenced_facts(r.when, names);
      for (auto& n : names) {
        const bool somewhere = std::any_of(subjects.begin(), subjects.end(), [&](const Subject& s) {
          return s.scope == r.scope && s.facts.count(n);
        });
        if (!somewhere) e.unknown.push_back(n);
      }
    }
    out.push_back(std::move(e));
  }
  // What holds here first, then what cannot be told, then what is ruled out.
  std::stable_sort(out.begin(), out.end(), [](const Explanation& a, const Explanation& b) {
    auto rank = [](Applies x) { return x == Applies::here ? 0 : x == Applies::cannot_tell ? 1 : 2; };
    return rank(a.applies) < rank(b.applies);
  });
  return out;
}

}  // namespace gpucheck
