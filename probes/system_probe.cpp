// The operating system, kernel, CPU architecture, and the container we may be in.
#include "parse/os_release.hpp"
#include "probe.hpp"
#include "util/strings.hpp"
#include "util/utf8.hpp"

namespace gpucheck {
namespace {

void detect_container(ProbeContext& ctx) {
  auto& h = ctx.host();
  auto& c = ctx.facts().system.container;
  auto found = [&](const char* runtime, std::string evidence) {
    if (!c.runtime) c.runtime = runtime;
    c.evidence.push_back(std::move(evidence));
  };
  if (h.exists("/.dockerenv")) found("docker", "/.dockerenv exists");
  if (h.exists("/run/.containerenv")) found("podman", "/run/.containerenv exists");
  if (h.exists("/.singularity.d")) found("apptainer", "/.singularity.d exists");
  if (h.env("APPTAINER_CONTAINER") || h.env("SINGULARITY_CONTAINER")) found("apptainer", "APPTAINER_CONTAINER/SINGULARITY_CONTAINER is set");
  if (h.env("ENROOT_ROOTFS") || h.exists("/etc/enroot")) found("enroot", "enroot environment (ENROOT_ROOTFS or /etc/enroot)");
  if (auto v = h.env("container")) found(v->c_str() == std::string("oci") ? "oci" : v->c_str(), "container=" + *v);
  if (h.env("KUBERNETES_SERVICE_HOST")) found("kubernetes", "KUBERNETES_SERVICE_HOST is set");
  if (auto cg = h.read_file("/proc/1/cgroup", 1 << 16)) {
    if (cg->find("kubepods") != std::string::npos) found("kubernetes", "/proc/1/cgroup names kubepods");
    else if (cg->find("/docker/") != std::string::npos) found("docker", "/proc/1/cgroup names docker");
    else if (cg->find("containerd") != std::string::npos) found("containerd", "/proc/1/cgroup names containerd");
  }
  // NGC images announce themselves in their environment.
  struct { const char* var; const char* framework; } const ngc_vars[] = {
      {"NVIDIA_PYTORCH_VERSION", "pytorch"}, {"NVIDIA_TENSORFLOW_VERSION", "tensorflow"},
      {"NVIDIA_JAX_VERSION", "jax"},         {"JAX_VERSION_NGC", "jax"},
      {"NVIDIA_TRITON_SERVER_VERSION", "tritonserver"}, {"NVIDIA_NEMO_VERSION", "nemo"}};
  for (auto& v : ngc_vars) {
    if (auto val = h.env(v.var)) {
      NgcImage img;
      img.framework = v.framework;
      img.version = *val;
      img.build_id = h.env("NVIDIA_BUILD_ID");
      img.cuda_version = h.env("CUDA_VERSION");
      c.ngc = img;
      break;
    }
  }
}

// /proc/uptime's seconds since boot. A snapshot without it, or with the
// empty placeholder the recorder writes for /proc names nobody read, says
// nothing of the uptime; a file that is there and unreadable, or not a
// number, is worth a note.
void read_uptime(ProbeContext& ctx, SystemFacts& s) {
  auto up = ctx.host().read_file("/proc/uptime", 256);
  if (!up) {
    if (up.problem().reason != Reason::absent) ctx.note("system", "uptime", up.problem());
    return;
  }
  const std::string_view text = trim(*up);
  if (text.empty()) return;
  const auto seconds = parse_double(text.substr(0, text.find(' ')));
  if (seconds && *seconds >= 0) s.uptime_seconds = seconds;
  else ctx.note("system", "uptime", Problem{Reason::malformed, "/proc/uptime", "expected seconds since boot, found " + quoted_value(text)});
}

}  // namespace

void probe_system(ProbeContext& ctx) {
  auto& s = ctx.facts().system;
  if (auto u = ctx.host().uname()) {
    auto known = [](const std::string& v) { return v.empty() ? std::nullopt : std::optional<std::string>(v); };
    s.hostname = known(u->nodename);
    s.kernel_release = known(u->release);
    s.arch = known(u->machine);
  } else {
    ctx.note("system", "kernel release and architecture", u.problem());
  }
  read_uptime(ctx, s);
  for (const char* path : {"/etc/os-release", "/usr/lib/os-release"}) {
    auto text = ctx.host().read_file(path, 1 << 16);
    if (!text) {
      if (text.problem().reason != Reason::absent || std::string(path) == "/usr/lib/os-release")
        ctx.note("system", "operating system", text.problem());
      continue;
    }
    s.os = parse_os_release(*text);
    s.os.source = path;
    break;
  }
  detect_container(ctx);
}

}  // namespace gpucheck
