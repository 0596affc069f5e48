// JSON of a loader view (placeholder: the loader probe's author completes it).
#include "facts/json_util.hpp"

namespace gpucheck {

J to_json(const LoaderView& v) { return J{{"object", v.object}}; }

}  // namespace gpucheck
