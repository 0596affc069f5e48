// The daemons a GPU node depends on: NVIDIA Fabric Manager (required on
// NVSwitch systems, and of the driver's exact version) and the persistence
// daemon. Installed from files, running from /proc, version from dpkg.
#include <algorithm>

#include "parse/dpkg_status.hpp"
#include "probe.hpp"
#include "util/strings.hpp"

namespace gpucheck {
namespace {

struct ServiceSpec {
  const char* name;
  const char* comm;  // /proc/<pid>/comm is cut to 15 characters
  const char* binaries[2];
  const char* package_prefix;
};

constexpr ServiceSpec kServices[] = {
    {"nvidia-fabricmanager", "nv-fabricmanage", {"/usr/bin/nv-fabricmanager", "/usr/sbin/nv-fabricmanager"}, "nvidia-fabricmanager"},
    {"nvidia-persistenced", "nvidia-persiste", {"/usr/bin/nvidia-persistenced", "/usr/sbin/nvidia-persistenced"}, "nvidia-compute-utils"},
};

}  // namespace

void probe_services(ProbeContext& ctx) {
  auto& h = ctx.host();
  std::vector<std::string> running;
  if (auto procs = h.list_dir("/proc")) {
    for (auto& e : *procs) {
      if (e.type != EntryType::directory || !parse_int(e.name)) continue;
      auto comm = h.read_file("/proc/" + e.name + "/comm", 256);
      if (!comm) continue;  // processes come and go
      const auto c = std::string(trim(*comm));
      for (auto& s : kServices)
        if (c == s.comm) running.push_back(s.name);
    }
  } else {
    ctx.note("services", "running processes", procs.problem());
  }
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
    f.running = std::find(running.begin(), running.end(), s.name) != running.end();
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
    if (f.running && !f.installed) f.installed = true;
    ctx.facts().services.push_back(std::move(f));
  }
}

}  // namespace gpucheck
