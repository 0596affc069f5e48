#include "report/matrix_json.hpp"

namespace gpucheck {

nlohmann::ordered_json matrix_json(const Matrix& m) {
  const MatrixProvenance& p = m.provenance;
  nlohmann::ordered_json j = {{"version", m.version}, {"date", m.date}, {"origin", m.origin}, {"source", p.source}};
  if (!p.path.empty()) j["path"] = p.path;
  if (p.source == "cached") {
    j["url"] = p.url;
    j["fetched"] = p.fetched;
    j["signed_by"] = p.signed_by;
  }
  if (!p.note.empty()) j["note"] = p.note;
  return j;
}

}  // namespace gpucheck
