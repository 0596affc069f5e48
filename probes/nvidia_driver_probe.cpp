// The NVIDIA driver in two halves that must agree: the kernel module
// (/proc/driver/nvidia) and the userspace libraries the loader would pick
// (libcuda.so.1, libnvidia-ml.so.1). An upgrade without a reboot leaves the
// old module loaded under new libraries; both versions are kept.
#include "parse/library_name.hpp"
#include "parse/nvidia_proc.hpp"
#include "probe.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

// The nodes a GPU job opens: the driver's control and per-GPU devices, and
// WSL2's paravirtual GPU. Each is asked for by name (exists), so that a
// snapshot records it (it cannot copy a device) and replays the same list.
bool is_gpu_device_node(std::string_view name) {
  if (name == "nvidiactl" || name == "dxg") return true;
  if (!starts_with(name, "nvidia") || name.size() == 6) return false;
  for (char c : name.substr(6))
    if (c < '0' || c > '9') return false;
  return true;
}

void probe_device_nodes(ProbeContext& ctx) {
  auto listing = ctx.host().list_dir("/dev");
  if (!listing) return;  // /dev unreadable or absent (a snapshot without it): no node is known
  for (auto& e : *listing)
    if (is_gpu_device_node(e.name) && ctx.host().exists("/dev/" + e.name))
      ctx.facts().nvidia_driver.device_nodes.push_back("/dev/" + e.name);
}

}  // namespace

void probe_nvidia_kernel(ProbeContext& ctx) {
  auto& d = ctx.facts().nvidia_driver;
  auto& h = ctx.host();
  probe_device_nodes(ctx);
  const std::string version_file = "/proc/driver/nvidia/version";
  auto text = h.read_file(version_file, 1 << 16);
  if (!text) {
    auto p = text.problem();
    if (p.reason == Reason::absent) p.detail = "the NVIDIA kernel module is not loaded (no " + version_file + ")";
    ctx.note("nvidia_kernel", "kernel module version", p);
  } else if (auto m = parse_nvrm_version(*text); !m) {
    ctx.note("nvidia_kernel", "kernel module version", Problem{Reason::malformed, version_file, m.problem().detail});
    d.kernel_module_loaded = true;  // the file exists, so the module is there
  } else {
    d.kernel_module = *m;
    d.kernel_module_loaded = true;
  }
  d.kernel_module.source = version_file;
  if (auto v = h.read_file("/sys/module/nvidia/version", 4096); v && is_text(*v) && !trim(*v).empty())
    d.kernel_module.sys_module_version = std::string(trim(*v));

  const std::string gpus_dir = "/proc/driver/nvidia/gpus";
  auto entries = h.list_dir(gpus_dir);
  if (!entries) {
    if (d.kernel_module_loaded || entries.problem().reason != Reason::absent)
      ctx.note("nvidia_kernel", "GPUs known to the kernel module", entries.problem());
    return;
  }
  for (auto& e : *entries) {
    const std::string path = gpus_dir + "/" + e.name + "/information";
    auto info = ctx.read_text("nvidia_kernel", e.name + " information", path);
    if (!info) continue;
    ProcGpu g = parse_gpu_information(*info);
    if (g.bus_location.empty()) g.bus_location = to_lower(e.name);
    g.source = path;
    d.gpus.push_back(std::move(g));
  }
}

namespace {

UserspaceLibrary locate(ProbeContext& ctx, const std::string& soname, const std::string& stem) {
  UserspaceLibrary lib;
  lib.soname = soname;
  const auto loc = ctx.locator().locate(soname);
  if (loc.copies.empty()) {
    std::string why = "not found by the loader's search (LD_LIBRARY_PATH, /etc/ld.so.cache, default directories)";
    if (auto& cp = ctx.locator().cache_problem()) why += "; ld.so.cache: " + std::string(to_string(cp->reason)) + " " + cp->detail;
    ctx.note("nvidia_userspace", soname, Problem{Reason::absent, soname, why});
    return lib;
  }
  lib.path = loc.copies[0].path;
  lib.via = loc.copies[0].via;
  for (std::size_t i = 1; i < loc.copies.size(); ++i) lib.shadowed.push_back(loc.copies[i].path);
  if (auto real = ctx.host().real_path(*lib.path)) {
    lib.real_path = *real;
  } else {
    ctx.note("nvidia_userspace", soname + " target", real.problem());
  }
  const std::string& file = lib.real_path ? *lib.real_path : *lib.path;
  lib.version = library_version_from_name(file, stem);
  lib.stub = is_stub_library_path(*lib.path) || is_stub_library_path(file);
  lib.compat = is_compat_library_path(*lib.path) || is_compat_library_path(file);
  return lib;
}

}  // namespace

void probe_nvidia_userspace(ProbeContext& ctx) {
  auto& d = ctx.facts().nvidia_driver;
  d.libcuda = locate(ctx, "libcuda.so.1", "libcuda.so");
  d.libnvidia_ml = locate(ctx, "libnvidia-ml.so.1", "libnvidia-ml.so");
}

}  // namespace gpucheck
