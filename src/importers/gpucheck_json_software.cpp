// The inverse of src/facts/{software,python,rocm,loader}_json.cpp: toolkits,
// libraries, Python environments (distributions, frameworks, loader views,
// the deep probe's answer) and ROCm.
#include "importers/gpucheck_json.hpp"

namespace gpucheck {

namespace {

using Node = JsonReader::Node;

Requirement read_requirement(JsonReader& r, const Node& n) {
  Requirement q;
  q.name = r.string(n, "name");
  q.specifier = r.string(n, "specifier");
  q.marker = r.opt_string(n, "marker");
  q.applies = r.opt_bool(n, "applies");
  q.installed = r.opt_string(n, "installed");
  q.satisfied = r.opt_bool(n, "satisfied");
  return q;
}

Distribution read_distribution(JsonReader& r, const Node& n) {
  Distribution d;
  d.name = r.string(n, "name");
  d.version = r.string(n, "version");
  d.installer = r.string(n, "installer");
  d.source = r.string(n, "source");
  for (auto& q : r.objects(r.child(n, "requires_dist"))) d.requires_dist.push_back(read_requirement(r, q));
  return d;
}

FrameworkBuild read_framework(JsonReader& r, const Node& n) {
  FrameworkBuild f;
  f.name = r.string(n, "name");
  f.version = r.string(n, "version");
  f.local_tag = r.opt_string(n, "local_tag");
  f.cuda = r.opt_string(n, "cuda");
  f.hip = r.opt_string(n, "hip");
  f.cudnn = r.opt_string(n, "cudnn");
  f.git_version = r.opt_string(n, "git_version");
  f.cpu_only = r.boolean(n, "cpu_only");
  f.source = r.string(n, "source");
  return f;
}

DeepFramework read_deep_framework(JsonReader& r, const Node& n) {
  DeepFramework f;
  f.name = r.string(n, "name");
  f.version = r.opt_string(n, "version");
  f.import_error = r.opt_string(n, "import_error");
  f.cuda_available = r.opt_bool(n, "cuda_available");
  f.device_count = r.opt_narrow<int>(n, "device_count");
  f.arch_list = r.strings(n, "arch_list");
  f.cudnn_version = r.opt_string(n, "cudnn_version");
  f.nccl_version = r.opt_string(n, "nccl_version");
  f.loaded_libraries = r.strings(n, "loaded_libraries");
  f.tf32_matmul = r.opt_bool(n, "tf32_matmul");
  f.tf32_cudnn = r.opt_bool(n, "tf32_cudnn");
  f.float32_matmul_precision = r.opt_string(n, "float32_matmul_precision");
  f.bf16_supported = r.opt_bool(n, "bf16_supported");
  f.fp32_matmul_rel_error = r.opt_double(n, "fp32_matmul_rel_error");
  f.fp32_matmul_looks_tf32 = r.opt_bool(n, "fp32_matmul_looks_tf32");
  return f;
}

LoaderView read_loader_view(JsonReader& r, const Node& n) {
  LoaderView v;
  v.object = r.string(n, "object");
  v.owner = r.string(n, "owner");
  v.rpath = r.strings(n, "rpath");
  v.runpath = r.strings(n, "runpath");
  for (auto& e : r.objects(r.child(n, "needed"))) {
    ResolvedNeed need;
    need.soname = r.string(e, "soname");
    need.path = r.opt_string(e, "path");
    need.via = r.opt_string(e, "via");
    need.version = r.opt_string(e, "version");
    need.other_copies = r.strings(e, "other_copies");
    need.shadows_bundled = r.boolean(e, "shadows_bundled");
    v.needed.push_back(std::move(need));
  }
  return v;
}

PythonEnv read_python(JsonReader& r, const Node& n) {
  PythonEnv e;
  e.interpreter = r.string(n, "interpreter");
  e.kind = r.string(n, "kind");
  e.found_via = r.strings(n, "found_via");
  e.version = r.opt_string(n, "version");
  e.sys_path = r.strings(n, "sys_path");
  e.sys_path_source = r.string(n, "sys_path_source");
  for (auto& f : r.objects(r.child(n, "frameworks"))) e.frameworks.push_back(read_framework(r, f));
  for (auto& v : r.objects(r.child(n, "loader"))) e.loader.push_back(read_loader_view(r, v));
  if (auto deep = r.child(n, "deep"); !deep.absent()) {
    DeepProbeFacts d;
    d.error = r.opt_string(deep, "error");
    for (auto& f : r.objects(r.child(deep, "frameworks"))) d.frameworks.push_back(read_deep_framework(r, f));
    e.deep = std::move(d);
  }
  for (auto& d : r.objects(r.child(n, "distributions"))) e.distributions.push_back(read_distribution(r, d));
  return e;
}

RocmFacts read_rocm(JsonReader& r, const Node& n) {
  RocmFacts f;
  for (auto& i : r.objects(r.child(n, "installs"))) {
    RocmInstall install;
    install.root = r.string(i, "root");
    install.version = r.opt_string(i, "version");
    install.version_source = r.opt_string(i, "version_source");
    install.active = r.boolean(i, "active");
    f.installs.push_back(std::move(install));
  }
  f.amdgpu_module_version = r.opt_string(n, "amdgpu_module_version");
  for (auto& k : r.objects(r.child(n, "gpu_nodes"))) {
    KfdNode node;
    node.node = static_cast<int>(r.integer(k, "node"));
    node.gfx_target = r.opt_string(k, "gfx_target");
    node.simd_count = r.opt_narrow<int>(k, "simd_count");
    node.vram_bytes = r.opt_uint(k, "vram_bytes");
    node.device_id = r.opt_string(k, "device_id");
    node.name = r.opt_string(k, "name");
    node.source = r.string(k, "source");
    f.gpu_nodes.push_back(std::move(node));
  }
  if (auto s = r.child(n, "smi"); !s.absent()) {
    RocmSmiFacts smi;
    smi.library = r.opt_string(s, "library");
    smi.init_status = r.opt_narrow<int>(s, "init_status");
    smi.init_message = r.opt_string(s, "init_message");
    smi.version = r.opt_string(s, "version");
    smi.device_count = r.opt_narrow<int>(s, "device_count");
    f.smi = std::move(smi);
  }
  f.hip_version = r.opt_string(n, "hip_version");
  f.env = r.string_map(n, "env");
  return f;
}

}  // namespace

SoftwareFacts read_software(JsonReader& r, const Node& n) {
  SoftwareFacts s;
  for (auto& t : r.objects(r.child(n, "cuda_toolkits"))) {
    CudaToolkit k;
    k.root = r.string(t, "root");
    k.kind = r.string(t, "kind");
    k.version = r.opt_string(t, "version");
    k.version_source = r.opt_string(t, "version_source");
    k.nvcc = r.opt_string(t, "nvcc");
    k.active = r.boolean(t, "active");
    k.active_because = r.strings(t, "active_because");
    s.toolkits.push_back(std::move(k));
  }
  for (auto& l : r.objects(r.child(n, "libraries"))) {
    LibraryInstall lib;
    lib.name = r.string(l, "name");
    lib.version = r.opt_string(l, "version");
    lib.version_source = r.opt_string(l, "version_source");
    lib.library = r.opt_string(l, "library");
    lib.found_in = r.string(l, "found_in");
    s.libraries.push_back(std::move(lib));
  }
  for (auto& p : r.objects(r.child(n, "python"))) s.python.push_back(read_python(r, p));
  s.rocm = read_rocm(r, r.child(n, "rocm"));
  s.gpu_env = r.string_map(n, "gpu_env");
  const auto ct = r.child(n, "container_toolkit");
  s.container_toolkit_injected = r.boolean(ct, "injected");
  s.container_toolkit_evidence = r.strings(ct, "evidence");
  s.cuda_compat = r.opt_string(n, "cuda_compat");
  s.cuda_compat_entry = r.opt_string(n, "cuda_compat_entry");
  return s;
}

}  // namespace gpucheck
