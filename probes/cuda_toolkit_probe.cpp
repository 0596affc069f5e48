// Every installed CUDA toolkit, its version from the most exact file it
// has, and which one a build or a job would use: CUDA_HOME/CUDA_PATH, then
// the nvcc first on PATH, then the /usr/local/cuda link.
#include <algorithm>

#include "parse/cuda_files.hpp"
#include "probe.hpp"
#include "util/paths.hpp"
#include "util/strings.hpp"
#include "util/version.hpp"

namespace gpucheck {
namespace {

// The version of the toolkit at `root`, from its own files; `nvcc --version` last.
void read_version(ProbeContext& ctx, CudaToolkit& t) {
  auto& h = ctx.host();
  if (auto text = h.read_file(t.root + "/version.json", 1 << 20)) {
    if (auto v = cuda_version_from_version_json(*text)) {
      t.version = *v;
      t.version_source = t.root + "/version.json";
      return;
    } else {
      ctx.note("cuda_toolkits", t.root + " version", Problem{Reason::malformed, t.root + "/version.json", v.problem().detail});
    }
  }
  if (auto text = h.read_file(t.root + "/version.txt", 1 << 16)) {
    if (auto v = cuda_version_from_version_txt(*text)) {
      t.version = *v;
      t.version_source = t.root + "/version.txt";
      return;
    }
  }
  // Toolkits assembled from NVIDIA's wheels carry their dist-info instead.
  if (auto entries = h.list_dir(t.root + "/dist-info")) {
    for (auto& e : *entries)
      if (auto d = parse_dist_info_dir(e.name); d && d->name == "nvidia_cuda_runtime") {
        t.version = d->version;
        t.version_source = t.root + "/dist-info/" + e.name;
        return;
      }
  }
  if (auto text = h.read_file(t.root + "/include/cuda.h", kVersionHeaderPrefix)) {
    auto defs = integer_defines(*text);
    if (auto it = defs.find("CUDA_VERSION"); it != defs.end()) {
      t.version = std::to_string(it->second / 1000) + "." + std::to_string((it->second % 1000) / 10);
      t.version_source = t.root + "/include/cuda.h (CUDA_VERSION)";
      return;
    }
  }
  if (t.nvcc) {
    const Command cmd{*t.nvcc, {"--version"}, ctx.deadline().cap(ctx.options().command_timeout)};
    auto r = h.run(cmd);
    if (r && r->succeeded()) {
      if (auto v = cuda_version_from_nvcc(r->out)) {
        t.version = *v;
        t.version_source = *t.nvcc + " --version";
        return;
      }
    }
    // A hang is not an absence: say it timed out (or was not started).
    if ((r && r->timed_out) || (!r && (r.problem().reason == Reason::timed_out || r.problem().reason == Reason::skipped))) {
      ctx.note("cuda_toolkits", t.root + " version",
               r ? Problem{Reason::timed_out, cmd.key(), "nvcc --version was killed after " + std::to_string(cmd.timeout.count()) + " ms"}
                 : r.problem());
      return;
    }
  }
  ctx.note("cuda_toolkits", t.root + " version",
           Problem{Reason::absent, t.root, "no version.json, version.txt, dist-info, include/cuda.h or working nvcc"});
}

}  // namespace

void probe_cuda_toolkits(ProbeContext& ctx) {
  auto& h = ctx.host();
  auto& out = ctx.facts().software.toolkits;
  std::vector<std::pair<std::string, std::string>> candidates;  // (path, kind)
  if (auto entries = h.list_dir("/usr/local")) {
    for (auto& e : *entries)
      if (e.name == "cuda" || starts_with(e.name, "cuda-")) candidates.emplace_back("/usr/local/" + e.name, "system");
  }
  for (const char* arch : {"Linux_x86_64", "Linux_aarch64"}) {
    const std::string base = std::string("/opt/nvidia/hpc_sdk/") + arch;
    auto releases = h.list_dir(base);
    if (!releases) continue;
    for (auto& r : *releases)
      if (auto cudas = h.list_dir(base + "/" + r.name + "/cuda"))
        for (auto& c : *cudas)
          if (Version::parse(c.name)) candidates.emplace_back(base + "/" + r.name + "/cuda/" + c.name, "hpc_sdk");
  }
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"})
    if (auto v = h.env(var); v && !v->empty()) candidates.emplace_back(*v, "system");
  const std::string path_list = h.env("PATH").value_or("");
  std::optional<std::string> nvcc_on_path;
  for (auto dir : split(path_list, ':')) {
    if (dir.empty() || dir[0] != '/') continue;
    if (h.exists(std::string(dir) + "/nvcc")) {
      nvcc_on_path = std::string(dir) + "/nvcc";
      candidates.emplace_back(dir_of(std::string(dir)), "system");
      break;
    }
  }

  // One toolkit per real directory; /usr/local/cuda and cuda-12.4 are the same.
  for (auto& [path, kind] : candidates) {
    auto real = h.real_path(path);
    if (!real) continue;
    if (!h.exists(*real + "/bin/nvcc") && !h.exists(*real + "/include/cuda.h") && !h.exists(*real + "/version.json") &&
        !h.exists(*real + "/version.txt"))
      continue;  // not a toolkit (an empty cuda-* directory, a CUDA_HOME typo)
    if (std::any_of(out.begin(), out.end(), [&](const CudaToolkit& t) { return t.root == *real; })) continue;
    CudaToolkit t;
    t.root = *real;
    t.kind = kind;
    if (h.exists(*real + "/bin/nvcc")) t.nvcc = *real + "/bin/nvcc";
    read_version(ctx, t);
    out.push_back(std::move(t));
  }
  std::sort(out.begin(), out.end(), [](const CudaToolkit& a, const CudaToolkit& b) { return a.root < b.root; });

  // Which one a build would take, strongest reason first.
  auto mark = [&](const std::string& path, const std::string& why) {
    auto real = h.real_path(path);
    if (!real) return;
    for (auto& t : out)
      if (t.root == *real) t.active_because.push_back(why);
  };
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"})
    if (auto v = h.env(var); v && !v->empty()) mark(*v, std::string(var) + "=" + *v);
  if (nvcc_on_path) mark(dir_of(dir_of(*nvcc_on_path)), "nvcc first on PATH: " + *nvcc_on_path);
  if (auto link = h.read_link("/usr/local/cuda")) mark("/usr/local/cuda", "/usr/local/cuda -> " + *link);
  else if (h.exists("/usr/local/cuda")) mark("/usr/local/cuda", "/usr/local/cuda");
  // Only one is active: the first in precedence among those with a reason.
  const CudaToolkit* chosen = nullptr;
  for (const char* prefix : {"CUDA_HOME", "CUDA_PATH", "nvcc", "/usr/local/cuda"})
    for (auto& t : out)
      if (!chosen && std::any_of(t.active_because.begin(), t.active_because.end(),
                                 [&](const std::string& b) { return starts_with(b, prefix); }))
        chosen = &t;
  for (auto& t : out) t.active = &t == chosen;
}

}  // namespace gpucheck
