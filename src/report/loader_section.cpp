// Text report: what the dynamic loader would load for a framework object,
// one line per GPU library, with a warning where a copy from outside the
// package wins over the one the package ships.
#include "report/text_writer.hpp"

namespace gpucheck {

void loader_lines(Writer& w, const LoaderView& v) {
  const auto& s = w.style();
  std::string search;
  if (!v.runpath.empty()) search = "RUNPATH";
  else if (!v.rpath.empty()) search = "RPATH";
  w.fact(v.owner + " loads", v.object, search.empty() ? "no RPATH/RUNPATH" : "search path: " + search);
  for (auto& n : v.needed) {
    std::string value;
    if (!n.path) {
      value = s.bad("not found") + " (the loader would fail)";
    } else {
      value = *n.path;
      if (n.version) value += " (" + *n.version + ")";
      if (n.via) value += " via " + *n.via;
    }
    w.fact("  " + n.soname, value);
    std::string others;
    for (auto& c : n.other_copies) others += (others.empty() ? "" : ", ") + c;
    if (n.shadows_bundled)
      w.line("                  " + s.warn("shadows the package's own copy") + " (not loaded: " + others + ")");
    else if (!others.empty())
      w.line("                  " + s.dim("also present, not loaded: " + others));
  }
}

}  // namespace gpucheck
