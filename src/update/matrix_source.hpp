// Which matrix a run starts from: the one built into the binary, or a newer
// one that `gpucheck matrix update` verified into a cache. A cached matrix
// is checked again at every start (its hash and signature, then its
// contents); a damaged one is passed over, with a note saying so, and the
// run goes on with the next newest (in the end the embedded one).
#pragma once

#include "rules/knowledge.hpp"
#include "util/result.hpp"

namespace gpucheck {

// matrix.provenance says which it is, and note why a cache was passed over.
Result<Knowledge> load_base_knowledge();

}  // namespace gpucheck
