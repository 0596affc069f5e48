#include "report/advice_report.hpp"

#include "report/check_report.hpp"
#include "rules/engine.hpp"
#include "rules/fact_catalogue.hpp"
#include "report/text_writer.hpp"

namespace gpucheck {

namespace {

using J = nlohmann::ordered_json;

J choice_json(const std::optional<NgcChoice>& c) {
  if (!c) return nullptr;
  return J{{"tag", c->tag}, {"release", c->release}, {"detail", c->detail}, {"sources", c->sources}};
}

}  // namespace

std::string render_recommendations_text(const Recommendations& r, const ReportOptions& o) {
  Style s(o.color);
  Writer w(s);
  w.section("NGC containers for driver " + r.driver.value_or("unknown") + ", " + r.gpus);
  if (r.why_none) w.line(s.warn(*r.why_none));
  if (!r.driver) return w.raw().str();
  for (auto& f : r.frameworks) {
    const std::string image = "nvcr.io/nvidia/" + f.framework + ":";
    if (f.releases_known == 0) {
      w.fact(f.framework, s.dim("no releases in the matrix"));
      continue;
    }
    w.fact(f.framework, f.native ? s.good(image + f.native->tag) + "  " + s.dim(f.native->detail)
                                 : s.warn("none of the " + std::to_string(f.releases_known) + " releases in the matrix runs natively"));
    if (f.forward_compat)
      w.fact("", s.warn(image + f.forward_compat->tag) + " through forward compatibility  " + s.dim(f.forward_compat->detail));
    for (auto& b : f.newer_blocked) w.fact("", s.dim("not " + b));
  }
  return w.raw().str();
}

J recommendations_json(const Recommendations& r) {
  J out;
  out["driver"] = r.driver ? J(*r.driver) : J(nullptr);
  out["gpus"] = r.gpus;
  out["why_none"] = r.why_none ? J(*r.why_none) : J(nullptr);
  out["frameworks"] = J::array();
  for (auto& f : r.frameworks)
    out["frameworks"].push_back({{"framework", f.framework},
                                 {"native", choice_json(f.native)},
                                 {"forward_compat", choice_json(f.forward_compat)},
                                 {"newer_blocked", f.newer_blocked},
                                 {"releases_known", f.releases_known}});
  return out;
}

std::string render_explanations_text(const std::string& message, const std::vector<Explanation>& es, const std::string& where,
                                     const ReportOptions& o) {
  Style s(o.color);
  std::ostringstream out;
  out << s.bold("\"" + message + "\"") << "\n\n";
  if (es.empty()) {
    out << "No rule of the matrix knows this message. `gpucheck check` still judges the whole stack; for another\n"
           "machine, `gpucheck check --from REPORT` reads its collect_env or nvidia-smi output (docs/report-formats.md).\n";
    return out.str();
  }
  for (auto& e : es) {
    out << s.bold(e.rule->title) << "  " << s.dim("[" + e.rule->category + ", rule " + e.rule->id + "]") << "\n";
    out << "    " << s.dim("matches:      ") << e.matched << "\n";
    out << "    " << s.dim("the message:  ") << e.meaning << "\n";
    out << "    " << s.dim("fix:          ") << fill_placeholders(e.rule->fix, {}) << "\n";
    const std::string verdict = where + " " + std::string(to_string(e.applies));
    out << "    " << s.dim("facts:        ")
        << (e.applies == Applies::here ? s.bad(verdict) : e.applies == Applies::not_here ? s.good(verdict) : s.warn(verdict));
    if (!e.unknown.empty()) {
      out << " (not known there: ";
      for (std::size_t i = 0; i < e.unknown.size(); ++i) out << (i ? ", " : "") << fact_noun(e.unknown[i]);
      out << ")";
    }
    out << "\n";
    if (e.applies == Applies::here)
      for (auto& f : e.findings) out << render_finding_text(f, o, "    ");
    else
      for (auto& src : e.rule->sources) out << "    " << s.dim("source:       ") << src << "\n";
    out << "\n";
  }
  return out.str();
}

J explanations_json(const std::string& message, const std::vector<Explanation>& es) {
  J out;
  out["schema"] = "gpucheck.explain/1";
  out["message"] = message;
  out["explanations"] = J::array();
  for (auto& e : es) {
    J j{{"rule", e.rule->id}, {"category", e.rule->category}, {"title", e.rule->title}, {"matched", e.matched},
        {"meaning", e.meaning},
        {"applies", e.applies == Applies::here ? "yes" : e.applies == Applies::not_here ? "no" : "unknown"}, {"unknown_facts", e.unknown}, {"fix", fill_placeholders(e.rule->fix, {})},
        {"sources", e.rule->sources}};
    j["findings"] = J::array();
    for (auto& f : e.findings) j["findings"].push_back(finding_json(f));
    out["explanations"].push_back(std::move(j));
  }
  return out;
}

}  // namespace gpucheck
