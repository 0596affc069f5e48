// The host subject's facts: the driver (kernel module, userspace, its CUDA),
// the CUDA toolkits and libraries, containers and visible devices.
#include <algorithm>
#include <map>

#include "matrix/lookup.hpp"
#include "rules/fact_view_parts.hpp"
#include "util/memory_size.hpp"
#include "util/pci_address.hpp"
#include "util/strings.hpp"
#include "util/version.hpp"

namespace gpucheck::fact_view {

namespace {

bool has_note(const Facts& f, std::string_view subject, std::string_view item, Reason reason) {
  return std::any_of(f.notes.begin(), f.notes.end(), [&](const Note& n) {
    return n.subject == subject && n.item == item && n.problem.reason == reason;
  });
}

// The newest CUDA release whose toolkit driver this driver meets.
std::optional<std::string> cuda_of_driver(const Matrix& m, const Version& driver) {
  std::optional<Version> best;
  for (auto& r : m.cuda_releases)
    if (r.min_driver_linux && *r.min_driver_linux <= driver && (!best || *best < r.version)) best = r.version;
  if (!best) return std::nullopt;
  return std::to_string(best->major()) + "." + std::to_string(best->minor());
}

// What the text of an Xid 154 says the GPU needs: "… changed from 0x0
// (None) to 0x2 (Node Reboot Required)" -> "Node Reboot Required".
std::optional<std::string> recovery_action(const std::string& message) {
  const auto to = message.rfind(" to ");
  if (to == std::string::npos) return std::nullopt;
  const auto open = message.find('(', to), close = message.find(')', to);
  if (open == std::string::npos || close == std::string::npos || close < open) return std::nullopt;
  return std::string(trim(std::string_view(message).substr(open + 1, close - open - 1)));
}

// The Xids since boot: which codes, and for each how often and on which
// GPUs; for Xid 154 the recovery actions it named.
void xid_facts(const KernelLogFacts& log, FactMap& out) {
  std::vector<std::string> codes, recovery;
  std::map<std::string, std::pair<int, std::vector<std::string>>> seen;  // code -> count, bus ids
  for (auto& e : log.xid_events) {
    const auto x = std::to_string(e.xid);
    if (std::find(codes.begin(), codes.end(), x) == codes.end()) codes.push_back(x);
    auto& [count, gpus] = seen[x];
    ++count;
    const std::string gpu = e.pci_bus_id.value_or("an unnamed GPU");
    if (std::find(gpus.begin(), gpus.end(), gpu) == gpus.end()) gpus.push_back(gpu);
    if (e.xid == 154)
      if (auto a = recovery_action(e.message); a && std::find(recovery.begin(), recovery.end(), *a) == recovery.end())
        recovery.push_back(*a);
  }
  out["xid.codes"] = F::of_list(codes, log.source);
  for (auto& [code, s] : seen) {
    out["xid." + code + ".count"] = F::of_number(s.first, log.source);
    out["xid." + code + ".gpus"] = F::of_text((s.second.size() > 1 ? std::to_string(s.second.size()) + " GPUs, " : "GPU ") +
                                                  compact_pci_bus_ids(s.second),
                                              log.source);
  }
  if (!recovery.empty()) out["xid.154.recovery"] = F::of_list(recovery, log.source);
}

}  // namespace

void host_driver_facts(const Facts& f, const Matrix& m, FactMap& out) {
  const auto& km = f.nvidia_driver.kernel_module;
  if (km.version) out["driver.kernel_module"] = F::of_version(*km.version, km.source);
  const auto& lib = f.nvidia_driver.libcuda;
  if (lib.version) out["driver.userspace"] = F::of_version(*lib.version, lib.real_path.value_or(lib.path.value_or(lib.soname)));
  if (km.version) out["driver.version"] = out["driver.kernel_module"];
  else if (f.nvidia_smi && f.nvidia_smi->driver_version)
    out["driver.version"] = F::of_version(*f.nvidia_smi->driver_version, f.nvidia_smi->source);
  else if (lib.version) out["driver.version"] = out["driver.userspace"];
  // A report may state the driver's CUDA without its version (torch's "driver
  // on your system is too old (found version 11040)").
  if (f.cuda && f.cuda->driver_version)
    out["driver.cuda"] = F::of_version(*f.cuda->driver_version,
                                       f.cuda->library ? "cuDriverGetVersion (" + *f.cuda->library + ")"
                                       : f.from_report ? "the report (the driver's CUDA version as the framework read it)"
                                                       : "cuDriverGetVersion (libcuda)");
  else if (f.nvidia_smi && f.nvidia_smi->cuda_version)
    out["driver.cuda"] = F::of_version(*f.nvidia_smi->cuda_version, f.nvidia_smi->source);
  if (auto it = out.find("driver.version"); it != out.end()) {
    if (const auto& v = it->second.version) {
      out["driver.branch"] = F::of_number(static_cast<double>(v->major()), it->second.source);
      if (!out.count("driver.cuda"))
        if (auto c = cuda_of_driver(m, *v))
          out["driver.cuda"] = F::of_version(*c, "matrix: the newest CUDA release whose toolkit driver is at most " + v->text());
    }
  }
  if (lib.path) {
    const std::string where = lib.real_path.value_or(*lib.path);
    out["libcuda.found"] = F::of_bool(true, where);
    out["libcuda.stub"] = F::of_bool(lib.stub, where);
    out["libcuda.compat"] = F::of_bool(lib.compat, where);
  } else if (has_note(f, "nvidia_userspace", "libcuda.so.1", Reason::absent)) {
    out["libcuda.found"] = F::of_bool(false, "the loader's search (LD_LIBRARY_PATH, /etc/ld.so.cache, default directories)");
  }
  if (f.cuda && f.cuda->init_code && *f.cuda->init_code != 0)
    out["cuda.init_error"] = F::of_text(f.cuda->init_name.value_or("CUDA error " + std::to_string(*f.cuda->init_code)),
                                        "cuInit (" + f.cuda->library.value_or("libcuda") + ")");
  for (auto& s : f.services) {
    if (s.name != "nvidia-fabricmanager") continue;
    out["fabric_manager.installed"] = F::of_bool(s.installed, s.source);
    out["fabric_manager.running"] = F::of_bool(s.running, s.source);
    if (s.version) out["fabric_manager.version"] = F::of_version(*s.version, s.source);
  }
}

void host_software_facts(const Facts& f, const Matrix& m, FactMap& out) {
  const auto& sw = f.software;
  std::vector<std::string> versions, majors;
  for (auto& t : sw.toolkits) {
    if (!t.version) continue;
    versions.push_back(*t.version);
    if (auto v = Version::parse(*t.version)) {
      const auto major = std::to_string(v->major());
      if (std::find(majors.begin(), majors.end(), major) == majors.end()) majors.push_back(major);
    }
    if (!t.active) continue;
    const std::string src = t.version_source.value_or(t.root);
    out["toolkit.active"] = F::of_version(*t.version, src);
    if (auto v = Version::parse(*t.version)) {
      out["toolkit.active_major"] = F::of_number(static_cast<double>(v->major()), src);
      if (auto* rel = find_cuda_release(m, *v); rel && rel->min_driver_linux)
        out["toolkit.active_min_driver"] =
            F::of_version(*rel->min_driver_linux, "matrix: CUDA " + rel->version.text() + " (" + rel->sources.front() + ")");
      if (auto* fam = find_cuda_family(m, static_cast<int>(v->major())); fam && fam->minor_compat_min_driver)
        out["toolkit.active_compat_min_driver"] = F::of_version(*fam->minor_compat_min_driver,
                                                                "matrix: CUDA " + std::to_string(fam->major) + ".x (" + fam->sources.front() + ")");
    }
  }
  if (!sw.toolkits.empty()) {
    out["toolkit.versions"] = F::of_list(versions, "CUDA toolkits found");
    out["toolkit.majors"] = F::of_list(majors, "CUDA toolkits found");
  }
  const auto& c = f.system.container;
  if (c.runtime) out["container.runtime"] = F::of_text(*c.runtime, join(c.evidence, "; "));
  if (c.ngc) {
    const std::string src = "the image's environment (NVIDIA_*_VERSION)";
    if (c.ngc->framework) out["container.ngc.framework"] = F::of_text(*c.ngc->framework, src);
    if (c.ngc->version) out["container.ngc.release"] = F::of_version(*c.ngc->version, src);
    if (c.ngc->cuda_version) out["container.ngc.cuda"] = F::of_version(*c.ngc->cuda_version, src);
    if (c.ngc->framework && c.ngc->version) {
      for (auto* r : find_ngc_releases(m, *c.ngc->framework)) {
        if (r->release.text() != *c.ngc->version) continue;
        const std::string msrc = "matrix: NGC " + r->framework + " " + r->tag + " (" + r->sources.front() + ")";
        out["container.ngc.min_driver"] = F::of_version(r->min_driver, msrc);
        auto d = out.find("driver.version");
        if (d == out.end()) break;
        const auto& dv = d->second.version;
        bool ok = false;
        for (auto& b : r->forward_compat_branches) ok = ok || (dv && dv->major() == b.major() && b <= *dv);
        if (dv) out["container.ngc.forward_compat_ok"] = F::of_bool(ok, msrc);
        break;
      }
    }
  }
  if (sw.container_toolkit_injected || !sw.container_toolkit_evidence.empty())
    out["container.toolkit_injected"] = F::of_bool(sw.container_toolkit_injected, join(sw.container_toolkit_evidence, "; "));
  for (auto& [name, value] : sw.gpu_env) out["env." + name] = F::of_text(value, "environment");
  const auto& r = sw.rocm;
  for (auto& [name, value] : r.env) out["env." + name] = F::of_text(value, "environment");
  for (auto& i : r.installs)
    if (i.version && (i.active || r.installs.size() == 1)) out["rocm.version"] = F::of_version(*i.version, i.version_source.value_or(i.root));
  std::vector<std::string> gfx;
  for (auto& n : r.gpu_nodes)
    if (n.gfx_target && std::find(gfx.begin(), gfx.end(), *n.gfx_target) == gfx.end()) gfx.push_back(*n.gfx_target);
  if (!gfx.empty()) out["rocm.gfx_targets"] = F::of_list(gfx, "/sys/class/kfd/kfd/topology/nodes");
  if (f.system.uptime_seconds) {
    const double days = *f.system.uptime_seconds / 86400.0;
    FactValue v = F::of_number(days, "/proc/uptime");
    v.text = one_decimal(days);
    out["system.uptime_days"] = std::move(v);
  }
  if (f.system.os.id) out["os.id"] = F::of_text(*f.system.os.id, f.system.os.source);
  if (f.system.os.version_id) out["os.version_id"] = F::of_version(*f.system.os.version_id, f.system.os.source);
  if (f.kernel_log.read) xid_facts(f.kernel_log, out);
}

void driver_branch_facts(const Matrix& m, std::optional<Day> today, FactMap& out) {
  const auto b = out.find("driver.branch");
  if (b == out.end()) return;
  const int branch = static_cast<int>(b->second.number);
  const DriverBranch* entry = find_driver_branch(m, branch);
  if (!entry) return;
  const std::string src = "matrix: driver branch " + branch_name(branch) + " (" + entry->sources.front() + ")";
  out["driver.branch_kind"] = F::of_text(std::string(to_string(entry->kind)), src);
  if (entry->end_of_life) out["driver.branch_end_of_life"] = F::of_text(*entry->end_of_life, src);
  if (!today) return;
  const std::string on = "; judged on " + iso_date_text(*today);
  if (entry->end_of_life)
    if (auto after = day_after_month(*entry->end_of_life))
      out["driver.branch_past_end_of_life"] = F::of_bool(*today >= *after, src + on);
  std::vector<std::string> supported;
  for (const auto& d : m.driver_branches) {
    if (d.kind == DriverBranchKind::new_feature || !d.end_of_life) continue;
    if (auto after = day_after_month(*d.end_of_life); after && *today < *after)
      supported.push_back(branch_name(d.branch) + " (" + std::string(to_string(d.kind)) + ", to " + *d.end_of_life + ")");
  }
  out["driver.supported_branches"] = F::of_list(std::move(supported), "matrix: driver branches" + on);
}

}  // namespace gpucheck::fact_view

