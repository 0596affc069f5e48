// JSON of a Python environment: interpreter, sys.path, distributions with
// their judged requirements, frameworks' build facts, the loader's view and
// the deep probe's answer. Unknown is null, never a default.
#include <utility>

#include "facts/json_util.hpp"

namespace gpucheck {

namespace {

// An environment has hundreds of distributions and thousands of
// requirements: these two are built key by key, not from an initializer
// list, which copies every value once more (a third of `check --json`).
J requirement_json(const Requirement& r) {
  J o = J::object();
  o["name"] = r.name;
  o["specifier"] = r.specifier;
  o["marker"] = opt(r.marker);
  o["applies"] = opt(r.applies);
  o["installed"] = opt(r.installed);
  o["satisfied"] = opt(r.satisfied);
  return o;
}

J distribution_json(const Distribution& d) {
  J o = J::object();
  o["name"] = d.name;
  o["version"] = d.version;
  o["installer"] = d.installer;
  o["source"] = d.source;
  J& reqs = o["requires_dist"] = J::array();
  reqs.get_ref<J::array_t&>().reserve(d.requires_dist.size());
  for (auto& r : d.requires_dist) reqs.push_back(requirement_json(r));
  return o;
}

J framework_json(const FrameworkBuild& f) {
  return J{{"name", f.name},
           {"version", f.version},
           {"local_tag", opt(f.local_tag)},
           {"cuda", opt(f.cuda)},
           {"hip", opt(f.hip)},
           {"cudnn", opt(f.cudnn)},
           {"git_version", opt(f.git_version)},
           {"cpu_only", f.cpu_only},
           {"source", f.source}};
}

J deep_framework_json(const DeepFramework& f) {
  return J{{"name", f.name},
           {"version", opt(f.version)},
           {"import_error", opt(f.import_error)},
           {"cuda_available", opt(f.cuda_available)},
           {"device_count", opt(f.device_count)},
           {"arch_list", f.arch_list},
           {"cudnn_version", opt(f.cudnn_version)},
           {"nccl_version", opt(f.nccl_version)},
           {"loaded_libraries", f.loaded_libraries},
           {"tf32_matmul", opt(f.tf32_matmul)},
           {"tf32_cudnn", opt(f.tf32_cudnn)},
           {"float32_matmul_precision", opt(f.float32_matmul_precision)},
           {"bf16_supported", opt(f.bf16_supported)},
           {"fp32_matmul_rel_error", opt(f.fp32_matmul_rel_error)},
           {"fp32_matmul_looks_tf32", opt(f.fp32_matmul_looks_tf32)}};
}

}  // namespace

J to_json(const PythonEnv& e) {
  J dists = J::array();
  for (auto& d : e.distributions) dists.push_back(distribution_json(d));
  J frameworks = J::array();
  for (auto& f : e.frameworks) frameworks.push_back(framework_json(f));
  J loader = J::array();
  for (auto& v : e.loader) loader.push_back(to_json(v));
  J deep = nullptr;
  if (e.deep) {
    J fws = J::array();
    for (auto& f : e.deep->frameworks) fws.push_back(deep_framework_json(f));
    deep = J{{"error", opt(e.deep->error)}, {"frameworks", std::move(fws)}};
  }
  return J{{"interpreter", e.interpreter},
           {"kind", e.kind},
           {"found_via", e.found_via},
           {"version", opt(e.version)},
           {"sys_path", e.sys_path},
           {"sys_path_source", e.sys_path_source},
           {"frameworks", std::move(frameworks)},
           {"loader", std::move(loader)},
           {"deep", std::move(deep)},
           {"distributions", std::move(dists)}};
}

}  // namespace gpucheck
