// The person's view of `gpucheck probe`: one section per subject, a fact
// per line with where it was read, and every unknown with its reason.
#include "report/text_writer.hpp"
#include "util/strings.hpp"

namespace gpucheck {

void system_section(Writer& w, const Facts& f) {
  const auto& s = f.system;
  w.section("System");
  w.fact("OS", s.os.pretty_name ? *s.os.pretty_name : or_unknown(s.os.id), s.os.source);
  w.fact("Kernel", or_unknown(s.kernel_release) + " (" + or_unknown(s.arch) + ")", "uname");
  if (s.container.runtime) {
    std::string ev;
    for (auto& e : s.container.evidence) ev += (ev.empty() ? "" : "; ") + e;
    w.fact("Container", *s.container.runtime, ev);
  } else {
    w.fact("Container", "none detected");
  }
  if (auto& n = s.container.ngc)
    w.fact("NGC image", or_unknown(n->framework) + " " + or_unknown(n->version) + ", build " + or_unknown(n->build_id) +
                            ", CUDA " + or_unknown(n->cuda_version), "environment");
}

void pci_section(Writer& w, const Facts& f) {
  int gpus = 0, switches = 0;
  for (auto& d : f.pci) (d.kind == PciKind::gpu ? gpus : switches)++;
  w.section("PCI devices (" + std::to_string(gpus) + " GPU" + (gpus == 1 ? "" : "s") +
            (switches ? ", " + std::to_string(switches) + " NVSwitch" + (switches == 1 ? "" : "es") : "") + ")");
  if (f.pci.empty()) w.line("no NVIDIA or AMD GPU on the PCI bus");
  for (auto& d : f.pci) {
    std::string v = std::string(to_string(d.vendor)) + " " + d.vendor_id + ":" + d.device_id;
    if (d.name) v += "  " + *d.name;
    v += "  driver " + (d.driver ? *d.driver : w.style().warn("none bound"));
    if (d.numa_node) v += "  NUMA " + std::to_string(*d.numa_node);
    if (d.link.current_gen || d.link.current_width)
      v += "  PCIe " + link_text(d.link.current_gen, d.link.current_width) + " (max " + link_text(d.link.max_gen, d.link.max_width) + ")";
    w.fact(d.address, v);
  }
}

void library_fact(Writer& w, const UserspaceLibrary& l) {
  if (!l.path) {
    w.fact(l.soname, w.style().warn("not found"));
    return;
  }
  std::string v = or_unknown(l.version, "version unknown") + "  " + l.real_path.value_or(*l.path);
  if (l.stub) v += "  " + w.style().bad("STUB");
  if (l.compat) v += "  (cuda-compat)";
  w.fact(l.soname, v, l.via.value_or(""));
  for (auto& s : l.shadowed) w.fact("", w.style().dim("also " + s + " (not used)"));
}

void driver_section(Writer& w, const Facts& f) {
  const auto& d = f.nvidia_driver;
  w.section("NVIDIA driver");
  if (d.kernel_module_loaded)
    w.fact("Kernel module", or_unknown(d.kernel_module.version) + " (" + or_unknown(d.kernel_module.flavor) + ")", d.kernel_module.source);
  else
    w.fact("Kernel module", w.style().warn("not loaded"));
  for (auto& g : d.gpus)
    w.fact(g.bus_location, or_unknown(g.model) + "  " + or_unknown(g.uuid) + "  VBIOS " + or_unknown(g.vbios), g.source);
  library_fact(w, d.libcuda);
  library_fact(w, d.libnvidia_ml);
  if (!d.device_nodes.empty()) w.fact("Device nodes", join(d.device_nodes, " "), "/dev");
}

void cuda_section(Writer& w, const Facts& f) {
  if (!f.cuda) return;
  const auto& c = *f.cuda;
  w.section("CUDA driver API");
  std::string init = c.init_code ? std::to_string(*c.init_code) + " " + or_unknown(c.init_name) : "not called";
  if (c.init_code && *c.init_code != 0) init = w.style().bad(init);
  w.fact("cuInit", init, c.library.value_or(""));
  w.fact("Driver CUDA", or_unknown(c.driver_version), "cuDriverGetVersion");
  if (c.init_code == 0) w.fact("Device count", c.device_count ? std::to_string(*c.device_count) : w.style().bad("unknown (see Unknown)"), "cuDeviceGetCount");
  for (auto& d : c.devices) {
    std::string v = or_unknown(d.name) + "  cc " + or_unknown(d.compute_capability) + "  " +
                    (d.sm_count ? std::to_string(*d.sm_count) + " SMs  " : "") +
                    (d.memory_bytes ? fmt_gib(*d.memory_bytes) + "  " : "") + or_unknown(d.pci_bus_id);
    w.fact("GPU " + std::to_string(d.ordinal), v);
  }
}

void smi_section(Writer& w, const Facts& f) {
  if (!f.nvidia_smi) return;
  const auto& s = *f.nvidia_smi;
  const bool nvml = starts_with(s.source, "NVML");
  w.section(std::string(nvml ? "NVML, for nvidia-smi" : "nvidia-smi") + " (driver " + or_unknown(s.driver_version) + ", CUDA " +
            or_unknown(s.cuda_version) + ")");
  w.line(w.style().dim("read from " + s.source));
  for (auto& g : s.gpus) {
    std::string head = or_unknown(g.product_name) + (g.architecture ? " (" + *g.architecture + ")" : "");
    head += "  persistence " + or_unknown(g.persistence_mode) + "  MIG " + or_unknown(g.mig_mode_current, "n/a") +
            "  ECC " + or_unknown(g.ecc_mode_current, "n/a");
    w.fact(g.pci_bus_id, head);
    std::string reasons;
    for (auto& [k, active] : g.clock_event_reasons)
      if (active) reasons += (reasons.empty() ? "" : ", ") + k;
    w.fact("", "PCIe " + link_text(g.pcie_gen_current, g.pcie_width_current) + " (max " +
                   link_text(g.pcie_gen_max, g.pcie_width_max) + ")  SM clock " + or_unknown(g.clock_sm_mhz, "?") + "/" +
                   or_unknown(g.clock_sm_max_mhz, "?") + " MHz  clock event reasons: " +
                   (reasons.empty() ? "none active" : reasons));
    std::string health = or_unknown(g.temperature_c, "?") + " C";
    if (g.power_draw_w) health += "  " + fmt_w(*g.power_draw_w) + "/" + (g.power_limit_w ? fmt_w(*g.power_limit_w) : "?") + " W";
    if (g.ecc_volatile.uncorrected || g.ecc_aggregate.uncorrected)
      health += "  ECC uncorrected " + or_unknown(g.ecc_volatile.uncorrected, "?") + " volatile, " +
                or_unknown(g.ecc_aggregate.uncorrected, "?") + " aggregate";
    if (g.remapped_rows_pending && *g.remapped_rows_pending) health += "  " + w.style().warn("row remap pending");
    if (g.remapped_rows_failure && *g.remapped_rows_failure) health += "  " + w.style().bad("row remap FAILED");
    if (g.retired_pages_pending && *g.retired_pages_pending) health += "  " + w.style().warn("page retirement pending");
    if (g.fabric_state) health += "  fabric " + *g.fabric_state + (g.fabric_status ? " (" + *g.fabric_status + ")" : "");
    w.fact("", health);
  }
}

void services_section(Writer& w, const Facts& f) {
  w.section("Services");
  for (auto& s : f.services) {
    std::string v = !s.installed ? "not installed" : std::string(s.running ? "running" : w.style().warn("installed, not running"));
    if (s.version) v += "  " + *s.version;
    w.fact(s.name, v, s.source);
  }
}

void kernel_log_section(Writer& w, const Facts& f) {
  const auto& k = f.kernel_log;
  w.section("Kernel log");
  if (!k.read) {
    w.line("not read (see Unknown below)");
    return;
  }
  if (k.xid_events.empty()) {
    w.fact("Xid events", "none since boot", k.source);
    return;
  }
  w.fact("Xid events", w.style().warn(std::to_string(k.xid_events.size())), k.source);
  const std::size_t shown = std::min<std::size_t>(k.xid_events.size(), 10);
  for (std::size_t i = k.xid_events.size() - shown; i < k.xid_events.size(); ++i) {
    const auto& x = k.xid_events[i];
    w.fact("Xid " + std::to_string(x.xid), or_unknown(x.pci_bus_id) + "  " + x.message);
  }
}

void notes_section(Writer& w, const Facts& f) {
  if (f.notes.empty()) return;
  w.section("Unknown (" + std::to_string(f.notes.size()) + ")");
  for (auto& n : f.notes)
    w.line(w.style().warn(n.subject + ": " + n.item) + " — " + std::string(to_string(n.problem.reason)) +
           (n.problem.where.empty() ? "" : " (" + n.problem.where + ")") +
           (n.problem.detail.empty() ? "" : ": " + n.problem.detail));
}

std::string render_facts_text(const Facts& f, const ReportOptions& o) {
  Style style(o.color);
  Writer w(style);
  w.raw() << style.bold("gpucheck " + o.version) << " — facts of " << (f.system.hostname ? *f.system.hostname : "this host") << "\n";
  system_section(w, f);
  pci_section(w, f);
  driver_section(w, f);
  cuda_section(w, f);
  smi_section(w, f);
  services_section(w, f);
  kernel_log_section(w, f);
  links_section(w, f);
  software_section(w, f);
  rocm_section(w, f);
  python_section(w, f);
  notes_section(w, f);
  return w.raw().str();
}

}  // namespace gpucheck
