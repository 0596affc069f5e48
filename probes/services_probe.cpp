// The daemons a GPU node depends on: NVIDIA Fabric Manager (required on
// NVSwitch systems, and of the driver's exact version) and the persistence
// daemon. Installed from files, running from their pid files or systemd's
// cgroups, version from dpkg. Nothing here lists /proc: a prolog's cost must
// not grow with the number of processes on the node.
#include <algorithm>

#include "parse/dpkg_status.hpp"
#include "probe.hpp"
#include "util/strings.hpp"

namespace gpucheck {
namespace {

struct ServiceSpec {
  const char* name;       // the systemd unit, without ".service"
  const char* comm;       // /proc/<pid>/comm, which the kernel cuts to 15 characters
  const char* pid_file;   // under /run (or /var/run, its older name)
  const char* binaries[2];
  const char* package_prefix;
};

// The pid files: nvidia-persistenced.c's NVPD_PID_FILE
// (https://github.com/NVIDIA/nvidia-persistenced), and the two daemons as NVIDIA's
// driver container stops them
// (https://github.com/NVIDIA/gpu-driver-container/blob/main/ubuntu22.04/nvidia-driver).
constexpr ServiceSpec kServices[] = {
    {"nvidia-fabricmanager", "nv-fabricmanage", "nvidia-fabricmanager/nv-fabricmanager.pid",
     {"/usr/bin/nv-fabricmanager", "/usr/sbin/nv-fabricmanager"}, "nvidia-fabricmanager"},
    {"nvidia-persistenced", "nvidia-persiste", "nvidia-persistenced/nvidia-persistenced.pid",
     {"/usr/bin/nvidia-persistenced", "/usr/sbin/nvidia-persistenced"}, "nvidia-compute-utils"},
};

// A pid file names the daemon only while that pid is the daemon: a crash
// leaves the file behind, and the pid may since belong to anything.
std::optional<std::string> running_from_pid_file(const Host& h, const ServiceSpec& s) {
  for (const char* run : {"/run/", "/var/run/"}) {
    const std::string path = run + std::string(s.pid_file);
    auto text = h.read_file(path, 64);
    if (!text) continue;
    auto pid = parse_int(trim(*text));
    if (!pid || *pid <= 0) continue;
    auto comm = h.read_file("/proc/" + std::to_string(*pid) + "/comm", 256);
    if (comm && trim(*comm) == s.comm) return path;
  }
  return std::nullopt;
}

// A unit systemd started (with or without a pid file) has its processes in
// its cgroup: cgroup v2's unified tree, or v1's named systemd hierarchy.
std::optional<std::string> running_from_cgroup(const Host& h, const ServiceSpec& s) {
  const std::string unit = "system.slice/" + std::string(s.name) + ".service/cgroup.procs";
  for (const char* root : {"/sys/fs/cgroup/", "/sys/fs/cgroup/systemd/"}) {
    const std::string path = root + unit;
    auto procs = h.read_file(path, 4096);
    if (procs && !trim(*procs).empty()) return path;
  }
  return std::nullopt;
}

}  // namespace

void probe_services(ProbeContext& ctx) {
  auto& h = ctx.host();
  std::optional<std::optional<std::string>> dpkg;  // read once, and only for an installed service
  for (auto& s : kServices) {
    ServiceFacts f;
    f.name = s.name;
    for (auto* b : s.binaries)
      if (h.exists(b)) {
        f.installed = true;
        f.source = b;
        break;
      }
    auto evidence = running_from_pid_file(h, s);
    if (!evidence) evidence = running_from_cgroup(h, s);
    f.running = evidence.has_value();
    if ((f.installed || f.running) && !dpkg) {
      auto st = h.read_file("/var/lib/dpkg/status");
      dpkg = st ? std::optional<std::string>(*st) : std::nullopt;
    }
    if (dpkg && *dpkg)
      if (auto pkg = find_installed_package(**dpkg, s.package_prefix)) {
        f.installed = true;
        // Debian revisions ("550.54.15-1") are packaging, not the daemon's version.
        f.version = pkg->version.substr(0, pkg->version.find('-'));
        if (f.source.empty()) f.source = "/var/lib/dpkg/status (" + pkg->name + ")";
      }
    if (f.running && !f.installed) {
      f.installed = true;
      f.source = *evidence;
    }
    ctx.facts().services.push_back(std::move(f));
  }
}

}  // namespace gpucheck
