// JSON of a Python environment (placeholder: the Python probe's author completes it).
#include "facts/json_util.hpp"

namespace gpucheck {

J to_json(const PythonEnv& e) { return J{{"interpreter", e.interpreter}}; }

}  // namespace gpucheck
