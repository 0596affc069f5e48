// Readers of the platform tables (platform_tables.hpp); the order of the
// calls is the order keys are listed in "allowed keys".
#include <algorithm>

#include "matrix/matrix_sections.hpp"

namespace gpucheck {

namespace mv = matrix_values;

SonamePrefixes read_soname_prefixes(ObjectReader& r) {
  SonamePrefixes p;
  r.string("family", p.family, mv::identifier);
  r.string_list("prefixes", p.prefixes, mv::soname_prefix, true);
  r.sources(p.sources);
  r.reject_unknown_keys();
  return p;
}

SubLibraries read_sub_libraries(ObjectReader& r) {
  SubLibraries s;
  r.string("library", s.library, mv::identifier);
  r.string("shim", s.shim, mv::soname);
  r.string_list("sonames", s.sonames, mv::soname, true);
  r.sources(s.sources);
  r.reject_unknown_keys();
  return s;
}

LibraryWheels read_library_wheels(ObjectReader& r, std::vector<Problem>& problems) {
  LibraryWheels w;
  r.string("library", w.library, mv::identifier);
  r.string_list("wheels", w.wheels, mv::wheel_name, true);
  r.string_list("metapackages", w.metapackages, mv::wheel_name, false);
  r.sources(w.sources);
  r.reject_unknown_keys();
  // A wheel either carries the library or only names its version: the
  // importers read only the first kind.
  for (const auto& m : w.metapackages)
    if (std::find(w.wheels.begin(), w.wheels.end(), m) != w.wheels.end())
      problems.push_back(Problem{Reason::malformed, r.where("metapackages"),
                                 "\"" + m + "\" is also in wheels; a wheel either carries the library or is a metapackage"});
  return w;
}

PcieGeneration read_pcie_generation(ObjectReader& r) {
  PcieGeneration g;
  r.integer("generation", g.generation, 1, 99);
  r.number("transfer_rate_gts", g.transfer_rate_gts);
  r.optional_string("encoding", g.encoding, mv::line_encoding);
  r.optional_string("note", g.note, mv::non_empty);
  r.require_unless("encoding", g.encoding.has_value(), "note", g.note.has_value());
  r.sources(g.sources);
  r.reject_unknown_keys();
  return g;
}

CudaError read_cuda_error(ObjectReader& r) {
  CudaError e;
  r.integer("code", e.code, 1, 999);
  r.string("name", e.name, mv::cuda_error_name);
  r.sources(e.sources);
  r.reject_unknown_keys();
  return e;
}

}  // namespace gpucheck
