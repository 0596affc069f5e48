// JSON of the ROCm stack (docs/facts-schema.md, "ROCm"): every field is
// written, unknown is null.
#include <utility>

#include "facts/json_util.hpp"

namespace gpucheck {

namespace {

J to_json(const RocmInstall& i) {
  return J{{"root", i.root}, {"version", opt(i.version)}, {"version_source", opt(i.version_source)}, {"active", i.active}};
}

J to_json(const KfdNode& n) {
  return J{{"node", n.node},
           {"gfx_target", opt(n.gfx_target)},
           {"simd_count", opt(n.simd_count)},
           {"vram_bytes", opt(n.vram_bytes)},
           {"device_id", opt(n.device_id)},
           {"name", opt(n.name)},
           {"source", n.source}};
}

J to_json(const RocmSmiFacts& s) {
  return J{{"library", opt(s.library)},
           {"init_status", opt(s.init_status)},
           {"init_message", opt(s.init_message)},
           {"version", opt(s.version)},
           {"device_count", opt(s.device_count)}};
}

}  // namespace

J to_json(const RocmFacts& r) {
  J installs = J::array(), nodes = J::array(), env = J::object();
  for (auto& i : r.installs) installs.push_back(to_json(i));
  for (auto& n : r.gpu_nodes) nodes.push_back(to_json(n));
  for (auto& [k, v] : r.env) env[k] = v;
  return J{{"installs", std::move(installs)},
           {"amdgpu_module_version", opt(r.amdgpu_module_version)},
           {"gpu_nodes", std::move(nodes)},
           {"smi", r.smi ? to_json(*r.smi) : J(nullptr)},
           {"hip_version", opt(r.hip_version)},
           {"env", std::move(env)}};
}

}  // namespace gpucheck
