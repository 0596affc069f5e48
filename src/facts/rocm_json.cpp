// JSON of the ROCm stack (placeholder: the ROCm probe's author completes it).
#include "facts/json_util.hpp"

namespace gpucheck {

J to_json(const RocmFacts& r) { return J{{"installs", J::array()}, {"amdgpu_module_version", opt(r.amdgpu_module_version)}}; }

}  // namespace gpucheck
