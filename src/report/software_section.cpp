// Text report: CUDA toolkits, GPU libraries, container runtime facts.
#include "report/text_writer.hpp"

namespace gpucheck {

void software_section(Writer& w, const Facts& f) {
  const auto& s = f.software;
  w.section("CUDA toolkits");
  if (s.toolkits.empty()) w.line("none installed");
  for (auto& t : s.toolkits) {
    std::string v = or_unknown(t.version, "version unknown") + "  (" + t.kind + ")";
    if (t.active) v += "  " + w.style().good("active");
    w.fact(t.root, v, t.version_source.value_or(""));
    if (t.active && !t.active_because.empty()) {
      std::string why;
      for (auto& b : t.active_because) why += (why.empty() ? "" : "; ") + b;
      w.fact("", w.style().dim("active because: " + why));
    }
  }
  w.section("GPU libraries");
  if (s.libraries.empty()) w.line(nothing_found(f));
  for (auto& l : s.libraries)
    w.fact(l.name, or_unknown(l.version, "version unknown") + "  " + l.library.value_or("(no library file)"),
           l.version_source.value_or(l.found_in));
  if (s.container_toolkit_injected || s.cuda_compat) {
    w.section("Container GPU support");
    if (s.container_toolkit_injected) {
      std::string ev;
      for (auto& e : s.container_toolkit_evidence) ev += (ev.empty() ? "" : "; ") + e;
      w.fact("Driver injected", "by the NVIDIA container toolkit", ev);
    }
    if (s.cuda_compat) w.fact("cuda-compat", "in use: " + *s.cuda_compat + (s.cuda_compat_entry ? ", put first by " + *s.cuda_compat_entry : ""));
  }
}

}  // namespace gpucheck
