#include "report/pip_report.hpp"

#include "report/text_writer.hpp"

namespace gpucheck {

namespace {

using J = nlohmann::ordered_json;

// A person reads the first few of each list; JSON carries them all.
constexpr std::size_t kBuildsShown = 3, kExcludedShown = 3;

J excluded_json(const std::vector<PipExcluded>& list) {
  J out = J::array();
  for (const auto& e : list) out.push_back({{"build", e.label}, {"reason", e.reason}, {"unconfirmed", e.unconfirmed}});
  return out;
}

}  // namespace

std::string render_pip_text(const PipRecommendations& r, const ReportOptions& o) {
  Style s(o.color);
  Writer w(s);
  w.section("pip builds for " + r.gpus + (r.driver ? ", driver " + *r.driver : ""));
  if (r.why_none) {
    w.line(s.warn(*r.why_none));
    return w.raw().str();
  }
  for (const auto& f : r.frameworks) {
    if (f.known == 0) {
      w.fact(f.framework, s.dim("no " + std::string(r.vendor == "amd" ? "ROCm" : "CUDA") + " builds in the matrix"));
      continue;
    }
    if (f.builds.empty()) w.fact(f.framework, s.warn("none of the " + std::to_string(f.known) + " builds in the matrix is confirmed to run here"));
    for (std::size_t i = 0; i < f.builds.size() && i < kBuildsShown; ++i) {
      const auto& b = f.builds[i];
      w.fact(i == 0 ? f.framework : "", (i == 0 ? s.good(b.command) : b.command) + "  " + s.dim(b.runtime));
      if (i == 0) w.fact("", s.dim(b.why));
    }
    if (f.builds.size() > kBuildsShown) w.fact("", s.dim("and " + std::to_string(f.builds.size() - kBuildsShown) + " older builds"));
    for (std::size_t i = 0; i < f.newer.size() && i < kExcludedShown; ++i)
      w.fact("", s.dim((f.newer[i].unconfirmed ? "unconfirmed " : "not ") + f.newer[i].label + ": " + f.newer[i].reason));
    if (f.newer.size() > kExcludedShown)
      w.fact("", s.dim("and " + std::to_string(f.newer.size() - kExcludedShown) + " more newer builds left out (--format json lists them)"));
    if (!f.older.empty())
      w.fact("", s.dim(std::to_string(f.older.size()) + " older builds left out, the newest " + f.older.front().label + ": " +
                       f.older.front().reason));
  }
  return w.raw().str();
}

J pip_json(const PipRecommendations& r) {
  J out;
  out["driver"] = r.driver ? J(*r.driver) : J(nullptr);
  out["gpus"] = r.gpus;
  out["why_none"] = r.why_none ? J(*r.why_none) : J(nullptr);
  out["frameworks"] = J::array();
  for (const auto& f : r.frameworks) {
    J builds = J::array();
    for (const auto& b : f.builds)
      builds.push_back({{"build", b.label},
                        {"requirement", b.requirement},
                        {"index_url", b.index_url ? J(*b.index_url) : J(nullptr)},
                        {"command", b.command},
                        {"runtime", b.runtime},
                        {"why", b.why},
                        {"sources", b.sources}});
    out["frameworks"].push_back({{"framework", f.framework},
                                 {"builds", std::move(builds)},
                                 {"newer_excluded", excluded_json(f.newer)},
                                 {"older_excluded", excluded_json(f.older)},
                                 {"builds_known", f.known}});
  }
  return out;
}

}  // namespace gpucheck
