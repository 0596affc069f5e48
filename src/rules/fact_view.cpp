#include "rules/fact_view.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "facts/clock_events.hpp"
#include "matrix/lookup.hpp"
#include "util/strings.hpp"
#include "util/version.hpp"

namespace gpucheck {

namespace {

using F = FactValue;

std::string bus_key(std::string id) {
  id = to_lower(id);
  // nvidia-smi's 8-digit domain ("00000000:18:00.0") and CUDA's 4-digit one.
  if (id.size() == 16 && id.compare(0, 4, "0000") == 0) id = id.substr(4);
  return id;
}

bool has_note(const Facts& f, std::string_view subject, std::string_view item, Reason reason) {
  return std::any_of(f.notes.begin(), f.notes.end(), [&](const Note& n) {
    return n.subject == subject && n.item == item && n.problem.reason == reason;
  });
}

// A gfx target id may carry features ("gfx90a:sramecc+:xnack-"); build lists name processors.
std::string gfx_processor(const std::string& target) { return target.substr(0, target.find(':')); }

bool lists(const std::vector<std::string>& targets, const std::string& gfx) {
  return std::find(targets.begin(), targets.end(), gfx_processor(gfx)) != targets.end();
}

// One physical GPU as the different probes saw it.
struct GpuView {
  std::string address;
  const PciDevice* pci = nullptr;
  const SmiGpu* smi = nullptr;
  std::string smi_source = {};  // nvidia-smi, or the report that stood in for it
  const CudaDevice* cuda = nullptr;
  const KfdNode* kfd = nullptr;
};

std::vector<GpuView> gather_gpus(const Facts& f) {
  std::vector<GpuView> out;
  auto find = [&](const std::string& address) -> GpuView& {
    const auto key = bus_key(address);
    for (auto& g : out)
      if (bus_key(g.address) == key) return g;
    out.push_back(GpuView{address});
    return out.back();
  };
  for (auto& d : f.pci)
    if (d.kind == "gpu") find(d.address).pci = &d;
  if (f.nvidia_smi)
    for (auto& g : f.nvidia_smi->gpus) {
      auto& view = find(g.pci_bus_id);
      view.smi = &g;
      view.smi_source = f.nvidia_smi->source;
    }
  if (f.cuda)
    for (auto& d : f.cuda->devices) {
      if (d.pci_bus_id) find(*d.pci_bus_id).cuda = &d;
      else find("CUDA device " + std::to_string(d.ordinal)).cuda = &d;
    }
  // KFD nodes carry no PCI address a GPU's could be matched by: pair them in
  // order with the AMD GPUs of the same device id, else list them alone.
  std::vector<GpuView*> amd;
  for (auto& g : out)
    if (g.pci && g.pci->vendor == "amd") amd.push_back(&g);
  std::size_t next = 0;
  std::vector<const KfdNode*> unpaired;
  for (auto& n : f.software.rocm.gpu_nodes) {
    if (next < amd.size() && (!n.device_id || to_lower(*n.device_id) == amd[next]->pci->device_id)) amd[next++]->kfd = &n;
    else unpaired.push_back(&n);
  }
  for (auto* n : unpaired) find("KFD node " + std::to_string(n->node)).kfd = n;
  return out;
}

const GpuModel* model_of(const Matrix& m, const GpuView& g) {
  if (g.pci) {
    if (auto* model = find_gpu_by_pci_id(m, g.pci->vendor_id + ":" + g.pci->device_id)) return model;
  }
  if (g.smi && g.smi->product_name) return find_gpu_by_name(m, *g.smi->product_name);
  if (g.cuda && g.cuda->name) return find_gpu_by_name(m, *g.cuda->name);
  return nullptr;
}

std::string model_source(const GpuModel& model) {
  return "matrix: " + model.id + (model.sources.empty() ? "" : " (" + model.sources.front() + ")");
}

// The newest CUDA release whose toolkit driver this driver meets.
std::optional<std::string> cuda_of_driver(const Matrix& m, const Version& driver) {
  std::optional<Version> best;
  for (auto& r : m.cuda_releases) {
    auto need = Version::parse(r.min_driver_linux);
    auto v = Version::parse(r.version);
    if (need && v && *need <= driver && (!best || *best < *v)) best = *v;
  }
  if (!best) return std::nullopt;
  return std::to_string(best->major()) + "." + std::to_string(best->minor());
}

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
    if (auto v = Version::parse(it->second.text)) {
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
      if (auto* rel = find_cuda_release(m, *t.version))
        out["toolkit.active_min_driver"] = F::of_version(rel->min_driver_linux, "matrix: CUDA " + rel->version + " (" + rel->sources.front() + ")");
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
        if (r->release != *c.ngc->version) continue;
        const std::string msrc = "matrix: NGC " + r->framework + " " + r->tag + " (" + r->sources.front() + ")";
        out["container.ngc.min_driver"] = F::of_version(r->min_driver, msrc);
        auto d = out.find("driver.version");
        if (d == out.end()) break;
        auto dv = Version::parse(d->second.text);
        bool ok = false;
        for (auto& b : r->forward_compat_branches) {
          auto bv = Version::parse(b);
          ok = ok || (dv && bv && dv->major() == bv->major() && *bv <= *dv);
        }
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
  if (f.system.os.id) out["os.id"] = F::of_text(*f.system.os.id, f.system.os.source);
  if (f.system.os.version_id) out["os.version_id"] = F::of_version(*f.system.os.version_id, f.system.os.source);
  if (f.kernel_log.read) {
    std::vector<std::string> codes;
    for (auto& e : f.kernel_log.xid_events) {
      const auto x = std::to_string(e.xid);
      if (std::find(codes.begin(), codes.end(), x) == codes.end()) codes.push_back(x);
    }
    out["xid.codes"] = F::of_list(codes, f.kernel_log.source);
  }
}

void visible_device_facts(const Facts& f, std::size_t nvidia_count, FactMap& out) {
  auto it = f.software.gpu_env.find("CUDA_VISIBLE_DEVICES");
  if (it == f.software.gpu_env.end()) return;
  std::vector<std::string> entries, out_of_range;
  bool mig = false;
  for (auto e : split(it->second, ',')) {
    const std::string s(trim(e));
    entries.push_back(s);
    if (starts_with(s, "MIG-")) mig = true;
    // CUDA stops at the first entry that is not a valid device.
    if (auto n = parse_int(s); n && (*n < 0 || (nvidia_count > 0 && static_cast<std::size_t>(*n) >= nvidia_count)))
      out_of_range.push_back(s);
  }
  out["visible.indices"] = F::of_list(entries, "CUDA_VISIBLE_DEVICES");
  out["visible.names_mig"] = F::of_bool(mig, "CUDA_VISIBLE_DEVICES");
  if (nvidia_count > 0) out["visible.out_of_range"] = F::of_list(out_of_range, "CUDA_VISIBLE_DEVICES");
}

FactMap gpu_facts(const GpuView& g, const Matrix& m) {
  FactMap out;
  out["gpu.address"] = F::of_text(g.address, g.pci ? g.pci->source : g.smi ? g.smi_source : "CUDA driver API");
  std::string vendor;
  if (g.pci) {
    vendor = g.pci->vendor;
    out["gpu.pci_id"] = F::of_text(g.pci->vendor_id + ":" + g.pci->device_id, g.pci->source);
    out["gpu.kernel_driver"] = F::of_text(g.pci->driver.value_or("none"), g.pci->source + "/driver");
    if (g.pci->link.current_width) out["gpu.pcie_width"] = F::of_number(*g.pci->link.current_width, g.pci->source + "/current_link_width");
    if (g.pci->link.max_width) out["gpu.pcie_width_max"] = F::of_number(*g.pci->link.max_width, g.pci->source + "/max_link_width");
    if (g.pci->link.current_gen) out["gpu.pcie_gen"] = F::of_number(*g.pci->link.current_gen, g.pci->source + "/current_link_speed");
    if (g.pci->link.max_gen) out["gpu.pcie_gen_max"] = F::of_number(*g.pci->link.max_gen, g.pci->source + "/max_link_speed");
  }
  if (g.smi || g.cuda) vendor = "nvidia";
  if (g.kfd) vendor = "amd";
  if (!vendor.empty()) out["gpu.vendor"] = F::of_text(vendor, out["gpu.address"].source);
  std::optional<std::string> name;
  std::string name_src;
  if (g.smi && g.smi->product_name) name = g.smi->product_name, name_src = g.smi_source;
  else if (g.cuda && g.cuda->name) name = g.cuda->name, name_src = "cuDeviceGetName";
  else if (g.kfd && g.kfd->name) name = g.kfd->name, name_src = g.kfd->source;
  else if (g.pci && g.pci->name) name = g.pci->name, name_src = "pci.ids";
  if (name) out["gpu.name"] = F::of_text(*name, name_src);
  const GpuModel* model = model_of(m, g);
  if (model) {
    out["gpu.model"] = F::of_text(model->id, model_source(*model));
    out["gpu.architecture"] = F::of_text(model->architecture, model_source(*model));
    out["gpu.data_center"] = F::of_bool(model->data_center, model_source(*model));
    if (model->gfx_target) out["gpu.gfx_target"] = F::of_text(*model->gfx_target, model_source(*model));
    if (!name) out["gpu.name"] = F::of_text(model->name, model_source(*model));
  }
  if (g.kfd && g.kfd->gfx_target) out["gpu.gfx_target"] = F::of_text(*g.kfd->gfx_target, g.kfd->source);
  if (g.cuda && g.cuda->compute_capability) out["gpu.compute_capability"] = F::of_version(*g.cuda->compute_capability, "cuDeviceGetAttribute");
  else if (model && model->compute_capability) out["gpu.compute_capability"] = F::of_version(*model->compute_capability, model_source(*model));
  if (auto cc = out.find("gpu.compute_capability"); cc != out.end()) {
    if (auto* a = find_arch_precisions(m, cc->second.text)) {
      out["gpu.precisions"] = F::of_list(a->precisions, "matrix: compute capability " + a->compute_capability + " (" + a->sources.front() + ")");
      if (!model) out["gpu.architecture"] = F::of_text(a->architecture, "matrix: compute capability " + a->compute_capability);
    }
  }
  if (g.cuda && g.cuda->memory_bytes) out["gpu.memory_gib"] = F::of_number(static_cast<double>(*g.cuda->memory_bytes) / (1ull << 30), "cuDeviceTotalMem");
  else if (g.smi && g.smi->memory_total_mib) out["gpu.memory_gib"] = F::of_number(static_cast<double>(*g.smi->memory_total_mib) / 1024.0, g.smi_source);
  else if (g.kfd && g.kfd->vram_bytes) out["gpu.memory_gib"] = F::of_number(static_cast<double>(*g.kfd->vram_bytes) / (1ull << 30), g.kfd->source);
  if (g.smi) {
    const auto& s = *g.smi;
    const std::string src = "nvidia-smi (GPU " + s.pci_bus_id + ")";
    if (s.mig_mode_current) out["gpu.mig_mode"] = F::of_text(*s.mig_mode_current, src);
    if (s.ecc_volatile.uncorrected) out["gpu.ecc_uncorrected_volatile"] = F::of_number(static_cast<double>(*s.ecc_volatile.uncorrected), src);
    if (s.ecc_aggregate.uncorrected) out["gpu.ecc_uncorrected_aggregate"] = F::of_number(static_cast<double>(*s.ecc_aggregate.uncorrected), src);
    if (s.retired_pages_pending) out["gpu.retired_pages_pending"] = F::of_bool(*s.retired_pages_pending, src);
    if (s.remapped_rows_pending) out["gpu.remapped_rows_pending"] = F::of_bool(*s.remapped_rows_pending, src);
    if (s.remapped_rows_failure) out["gpu.remapped_rows_failure"] = F::of_bool(*s.remapped_rows_failure, src);
    if (!s.clock_event_reasons.empty()) {
      std::vector<std::string> active;
      for (auto& [reason, on] : s.clock_event_reasons)
        if (on) active.push_back(reason);
      out["gpu.clock_events"] = F::of_list(active, src);
    }
    // nvidia-smi's view of the link is the GPU's own; it wins over sysfs.
    if (s.pcie_gen_current) out["gpu.pcie_gen"] = F::of_number(*s.pcie_gen_current, src);
    if (s.pcie_gen_max) out["gpu.pcie_gen_max"] = F::of_number(*s.pcie_gen_max, src);
    if (s.pcie_width_current) out["gpu.pcie_width"] = F::of_number(*s.pcie_width_current, src);
    if (s.pcie_width_max) out["gpu.pcie_width_max"] = F::of_number(*s.pcie_width_max, src);
    if (s.fabric_state) out["gpu.fabric_state"] = F::of_text(*s.fabric_state, src);
    if (s.fabric_status) out["gpu.fabric_status"] = F::of_text(*s.fabric_status, src);
  }
  return out;
}

// What the matrix says of the installed ROCm release: its supported gfx
// targets on the host, and on each GPU whether its target is among them.
// No installed version, a release the matrix does not list, or a GPU without
// a gfx target leaves the facts out: unknown, so no rule fires on a guess.
void rocm_release_facts(const Matrix& m, FactMap& host, std::vector<FactMap>& gpus) {
  const auto installed = host.find("rocm.version");
  if (installed == host.end()) return;
  const RocmRelease* r = find_rocm_release(m, installed->second.text);
  if (!r) return;
  const std::string src = "matrix: ROCm " + r->version + " (" + r->sources.front() + ")";
  host["rocm.release_gfx_targets"] = F::of_list(r->gfx_targets, src);
  host["rocm.release_deprecated_gfx_targets"] = F::of_list(r->deprecated_gfx_targets, src);
  for (auto& g : gpus) {
    const auto gfx = g.find("gpu.gfx_target");
    if (gfx == g.end()) continue;
    const bool deprecated = lists(r->deprecated_gfx_targets, gfx->second.text);
    const std::string why = src + "; " + gfx_processor(gfx->second.text) + " from " + gfx->second.source;
    g["gpu.rocm_release_supports_gfx"] = F::of_bool(deprecated || lists(r->gfx_targets, gfx->second.text), why);
    g["gpu.rocm_release_deprecates_gfx"] = F::of_bool(deprecated, why);
  }
}

// A ratio as a percentage, to 0.1.
double percent(double ratio) { return std::round(1000.0 * ratio) / 10.0; }

// Under the sustained run's load: the clock-event reasons NVML gave in any
// sample, and the lowest interval's rate as a percentage of the first's.
void sustained_facts(const SustainedRun& run, const std::string& src, FactMap& g) {
  const std::string where = src + ", sustained " + run.precision;
  const SustainedSummary sum = summarize(run);
  if (sum.reasons) g["gpu.sustained_clock_events"] = F::of_list(clock_event_names(*sum.reasons), where);
  if (sum.first_tflops && *sum.first_tflops > 0 && run.samples.size() > 1)
    g["gpu.sustained_rate_low_percent"] = F::of_number(percent(*sum.lowest_tflops / *sum.first_tflops), where);
}

// Rates against the datasheet and the PCIe link, of a whole GPU: the FP32
// FMA check (the CUDA cores' peak, where no choice of instruction stands
// between a kernel and the datasheet, as it does for the tensor cores), the
// device copy, and the slower host transfer direction. A MIG instance has
// only part of the GPU, so it gives none.
void rate_facts(const GpuKernelFacts& kg, const std::string& src, FactMap& g) {
  for (auto& c : kg.checks)
    if (c.precision == "fp32" && c.status == "passed" && c.ratio)
      g["gpu.fp32_rate_percent"] = F::of_number(percent(*c.ratio), src + ", fp32 " + c.kernel.value_or(""));
  std::optional<double> host;
  for (auto& b : kg.bandwidth) {
    if (b.status != "passed" || !b.ratio) continue;
    const std::string where = src + ", " + b.kind + " against " + b.expected_source.value_or("?");
    if (b.kind == "device_copy") g["gpu.copy_bandwidth_percent"] = F::of_number(percent(*b.ratio), where);
    if (b.kind != "device_copy" && (!host || *b.ratio < *host)) {
      host = *b.ratio;
      g["gpu.host_transfer_percent"] = F::of_number(percent(*b.ratio), where);
    }
  }
}

// The kernel checks' verdicts, on the GPU they ran on (by PCI address; MIG
// instances of one GPU add up).
void kernel_check_facts(const Facts& f, std::vector<FactMap>& gpus) {
  if (!f.kernels) return;
  const std::string src = "gpucheck kernels (" + f.kernels->library.value_or("libcuda") + ")";
  std::map<std::string, std::pair<std::vector<std::string>, std::vector<std::string>>> by_address;  // passed, failed
  std::map<std::string, const SustainedRun*> sustained;
  // A GPU that ran as itself; null where MIG instances ran on it.
  std::map<std::string, const GpuKernelFacts*> whole;
  for (auto& kg : f.kernels->gpus) {
    if (!kg.pci_bus_id || kg.status != "ran") continue;
    const std::string key = bus_key(*kg.pci_bus_id);
    auto& [passed, failed] = by_address[key];
    for (auto& c : kg.checks) {
      if (!judged(c)) continue;
      if (c.status == "passed") passed.push_back(c.precision);
      else failed.push_back(c.precision + " (" + c.status + ")");
    }
    if (kg.sustained && !kg.sustained->samples.empty()) sustained[key] = &*kg.sustained;
    if (kg.mig) whole[key] = nullptr;
    else whole.try_emplace(key, &kg);
  }
  for (auto& g : gpus) {
    const auto a = g.find("gpu.address");
    if (a == g.end()) continue;
    const std::string key = bus_key(a->second.text);
    if (const auto k = by_address.find(key); k != by_address.end()) {
      g["gpu.kernel_checks_passed"] = F::of_list(k->second.first, src);
      g["gpu.kernel_checks_failed"] = F::of_list(k->second.second, src);
    }
    if (const auto s = sustained.find(key); s != sustained.end()) sustained_facts(*s->second, src, g);
    if (const auto w = whole.find(key); w != whole.end() && w->second) rate_facts(*w->second, src, g);
  }
}

std::string dir_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos || slash == 0 ? path : path.substr(0, slash);
}

std::string gpu_label(const FactMap& g) {
  std::string s = "GPU " + g.at("gpu.address").text;
  if (auto it = g.find("gpu.name"); it != g.end()) s += " (" + it->second.text + ")";
  return s;
}

FactMap env_facts(const PythonEnv& e) {
  FactMap out;
  out["python.interpreter"] = F::of_text(e.interpreter, join(e.found_via, ", "));
  if (e.version) out["python.version"] = F::of_version(*e.version, e.interpreter);
  std::vector<std::string> unmet, majors, shadowed, missing;
  std::string unmet_src;
  for (auto& d : e.distributions) {
    for (auto& r : d.requires_dist)
      if (r.satisfied == false) {
        unmet.push_back(d.name + " " + d.version + " requires " + r.name + r.specifier + ", installed " + r.installed.value_or("none"));
        if (unmet_src.empty()) unmet_src = d.source;
      }
    // nvidia-cudnn-cu12, nvidia-cublas-cu11: the wheel names carry the CUDA major.
    const auto name = to_lower(d.name);
    const auto cu = name.rfind("-cu");
    if (starts_with(name, "nvidia-") && cu != std::string::npos && parse_int(name.substr(cu + 3))) {
      const auto major = name.substr(cu + 3);
      if (std::find(majors.begin(), majors.end(), major) == majors.end()) majors.push_back(major);
    }
  }
  // cuDNN 9 alone is eight objects: one line per (package, winning directory).
  std::map<std::string, std::vector<std::string>> shadow_groups;
  std::vector<std::string> shadow_order;
  for (auto& v : e.loader)
    for (auto& n : v.needed) {
      if (n.shadows_bundled && n.path) {
        const std::string key = v.owner + " loads {} from " + dir_of(*n.path) + " (via " + n.via.value_or("?") +
                                "), not its own copies in " + (n.other_copies.empty() ? "its package" : dir_of(n.other_copies.front()));
        if (!shadow_groups.count(key)) shadow_order.push_back(key);
        auto& names = shadow_groups[key];
        if (std::find(names.begin(), names.end(), n.soname) == names.end()) names.push_back(n.soname);
      }
      if (!n.path) missing.push_back(v.owner + ": " + n.soname + " (needed by " + v.object + ")");
    }
  for (auto& key : shadow_order) {
    const auto at = key.find("{}");
    shadowed.push_back(key.substr(0, at) + join(shadow_groups[key], ", ") + key.substr(at + 2));
  }
  out["python.unmet_pins"] = F::of_list(unmet, unmet_src.empty() ? "installed distributions' metadata" : unmet_src);
  out["python.nvidia_cuda_majors"] = F::of_list(majors, "nvidia-* wheels installed in " + e.interpreter);
  if (!e.loader.empty()) {
    out["python.shadowed_libraries"] = F::of_list(shadowed, "ELF dynamic sections resolved as the loader would");
    out["python.missing_libraries"] = F::of_list(missing, "ELF dynamic sections resolved as the loader would");
  }
  return out;
}

std::optional<std::string> arch_bound(const std::vector<std::string>& archs, bool newest) {
  std::optional<Version> best;
  for (auto& a : archs)
    if (auto v = Version::parse(a); v && (!best || (newest ? *best < *v : *v < *best))) best = *v;
  if (!best) return std::nullopt;
  return best->text();
}

FactMap framework_facts(const FrameworkBuild& fw, const PythonEnv& e, const Matrix& m) {
  FactMap out;
  out["framework.name"] = F::of_text(fw.name, fw.source);
  out["framework.version"] = F::of_version(fw.version, fw.source);
  if (fw.local_tag) out["framework.variant"] = F::of_text(*fw.local_tag, fw.source);
  if (fw.cuda) {
    out["framework.cuda"] = F::of_version(*fw.cuda, fw.source);
    if (auto v = Version::parse(*fw.cuda)) {
      out["framework.cuda_major"] = F::of_number(static_cast<double>(v->major()), fw.source);
      if (auto* r = find_cuda_release(m, *fw.cuda))
        out["framework.cuda_min_driver"] = F::of_version(r->min_driver_linux, "matrix: CUDA " + r->version + " (" + r->sources.front() + ")");
      if (auto* fam = find_cuda_family(m, static_cast<int>(v->major()))) {
        const std::string src = "matrix: CUDA " + std::to_string(fam->major) + ".x (" + fam->sources.front() + ")";
        if (fam->minor_compat_min_driver) out["framework.cuda_compat_min_driver"] = F::of_version(*fam->minor_compat_min_driver, src);
        // With minor-version compatibility any driver of the family runs the
        // build; without it, only one whose CUDA is at least the build's.
        out["framework.driver_cuda_floor"] =
            fam->minor_compat_min_driver ? F::of_version(std::to_string(fam->major) + ".0", src) : F::of_version(*fw.cuda, fw.source);
        if (fam->min_compute_capability) out["framework.cuda_min_compute_capability"] = F::of_version(*fam->min_compute_capability, src);
      }
    }
  }
  if (fw.hip) out["framework.hip"] = F::of_version(*fw.hip, fw.source);
  out["framework.cpu_only"] = F::of_bool(fw.cpu_only, fw.source);
  std::string variant = fw.local_tag.value_or("");
  if (variant.empty() && fw.cpu_only) variant = "cpu";
  const auto variants = find_framework_variants(m, fw.name, fw.version, variant);
  const FrameworkVariant* v = variants.empty() ? nullptr : variants.front();
  out["framework.known"] = F::of_bool(v != nullptr, "matrix: frameworks");
  if (v) {
    const std::string src = "matrix: " + v->framework + " " + v->version + (v->variant.empty() ? "" : " " + v->variant) +
                            " (" + v->sources.front() + ")";
    if (!v->arch_list.empty()) out["framework.arch_list"] = F::of_list(v->arch_list, src);
    if (!v->gfx_targets.empty()) out["framework.gfx_targets"] = F::of_list(v->gfx_targets, src);
    if (v->ptx) out["framework.ptx"] = F::of_version(*v->ptx, src);
    if (v->min_compute_capability) out["framework.min_compute_capability"] = F::of_version(*v->min_compute_capability, src);
    if (v->max_compute_capability) out["framework.max_compute_capability"] = F::of_version(*v->max_compute_capability, src);
    if (!fw.cuda && v->cuda) {
      out["framework.cuda"] = F::of_version(*v->cuda, src);
      if (auto cv = Version::parse(*v->cuda)) out["framework.cuda_major"] = F::of_number(static_cast<double>(cv->major()), src);
    }
  }
  if (e.deep) {
    for (auto& d : e.deep->frameworks) {
      if (d.name != fw.name) continue;
      const std::string src = "deep probe (" + e.interpreter + ")";
      if (!d.arch_list.empty()) {
        std::vector<std::string> archs;
        for (auto& a : d.arch_list)
          if (starts_with(a, "sm_") && a.size() >= 5) archs.push_back(a.substr(3, a.size() - 4) + "." + a.substr(a.size() - 1));
        if (!archs.empty()) out["framework.arch_list"] = F::of_list(archs, src);
      }
      if (d.cuda_available) out["framework.cuda_available"] = F::of_bool(*d.cuda_available, src);
      if (d.tf32_matmul) out["framework.tf32_matmul"] = F::of_bool(*d.tf32_matmul, src);
      if (d.float32_matmul_precision) out["framework.float32_matmul_precision"] = F::of_text(*d.float32_matmul_precision, src);
      if (d.fp32_matmul_looks_tf32) out["framework.fp32_matmul_looks_tf32"] = F::of_bool(*d.fp32_matmul_looks_tf32, src);
    }
  }
  if (auto it = out.find("framework.arch_list"); it != out.end()) {
    if (auto lo = arch_bound(it->second.items, false)) out["framework.arch_min"] = F::of_version(*lo, it->second.source);
    if (auto hi = arch_bound(it->second.items, true)) out["framework.arch_max"] = F::of_version(*hi, it->second.source);
  }
  return out;
}

// Whether a build's code runs on a GPU: SASS of the same major and a minor
// not above the GPU's, or PTX for a capability not above it, which the
// driver compiles (CUDA C++ Programming Guide, "Binary Compatibility" and
// "PTX Compatibility").
struct CodeOnGpu {
  bool sass = false, ptx = false;
};
CodeOnGpu code_on_gpu(const std::vector<std::string>& archs, const std::optional<std::string>& ptx, const Version& gpu) {
  CodeOnGpu c;
  for (auto& a : archs)
    if (auto v = Version::parse(a); v && v->major() == gpu.major() && v->minor() <= gpu.minor()) c.sass = true;
  if (ptx)
    if (auto v = Version::parse(*ptx); v && *v <= gpu) c.ptx = true;
  return c;
}

void build_on_gpu_facts(const FactMap& fw, const FactMap& gpu, FactMap& out) {
  auto targets = fw.find("framework.gfx_targets");
  auto gfx = gpu.find("gpu.gfx_target");
  if (targets != fw.end() && gfx != gpu.end())
    out["build.has_gfx_target"] = F::of_bool(lists(targets->second.items, gfx->second.text),
                                             targets->second.source + "; GPU " + gfx->second.text);
  auto archs = fw.find("framework.arch_list");
  auto cc = gpu.find("gpu.compute_capability");
  if (archs == fw.end() || cc == gpu.end()) return;
  auto g = Version::parse(cc->second.text);
  if (!g) return;
  std::optional<std::string> ptx;
  if (auto p = fw.find("framework.ptx"); p != fw.end()) ptx = p->second.text;
  const auto code = code_on_gpu(archs->second.items, ptx, *g);
  const std::string src = archs->second.source + "; GPU " + cc->second.text;
  out["build.has_sass"] = F::of_bool(code.sass, src);
  out["build.runs_on_gpu"] = F::of_bool(code.sass || code.ptx, src);
}

// The oldest and the newest build of the framework in the matrix whose code
// runs on the GPU, so that a fix can name one instead of "a newer build".
void builds_for_gpu_facts(const Matrix& m, const std::string& framework, const FactMap& gpu, FactMap& out) {
  std::optional<Version> cc;
  if (auto it = gpu.find("gpu.compute_capability"); it != gpu.end()) cc = Version::parse(it->second.text);
  std::string gfx;
  if (auto it = gpu.find("gpu.gfx_target"); it != gpu.end()) gfx = it->second.text;
  if (!cc && gfx.empty()) return;
  const auto runs = [&](const FrameworkVariant& v) {
    if (cc && !v.arch_list.empty()) {
      const auto code = code_on_gpu(v.arch_list, v.ptx, *cc);
      return code.sass || code.ptx;
    }
    return !gfx.empty() && lists(v.gfx_targets, gfx);
  };
  const FrameworkVariant* first = nullptr;
  const FrameworkVariant* last = nullptr;
  std::optional<Version> first_v, last_v;
  for (auto& v : m.frameworks) {
    if (v.framework != framework) continue;
    const auto ver = Version::parse(v.version);
    if (!ver || !runs(v)) continue;
    if (!first || *ver < *first_v) first = &v, first_v = ver;
    if (!last || *last_v < *ver) last = &v, last_v = ver;
  }
  const std::string gpu_text = cc ? cc->text() : gfx;
  const auto fact = [&](const FrameworkVariant* v) {
    if (!v) return F::of_text("none", "matrix: frameworks; GPU " + gpu_text);
    return F::of_text(v->framework + " " + v->version + (v->variant.empty() ? "" : " " + v->variant),
                      "matrix: " + v->framework + " " + v->version + " " + v->variant + " (" + v->sources.front() + ")");
  };
  out["build.first_for_gpu"] = fact(first);
  out["build.last_for_gpu"] = fact(last);
}

void merge(FactMap& into, const FactMap& from) {
  for (auto& [k, v] : from) into.emplace(k, v);
}

}  // namespace

std::vector<Subject> build_subjects(const Facts& f, const Matrix& m) {
  std::vector<Subject> out;
  FactMap host;
  host_driver_facts(f, m, host);
  host_software_facts(f, m, host);

  const auto gpus = gather_gpus(f);
  std::vector<FactMap> gpu_maps;
  std::size_t nvidia = 0, mig = 0;
  std::vector<std::string> models;
  for (auto& g : gpus) {
    gpu_maps.push_back(gpu_facts(g, m));
    const auto& gm = gpu_maps.back();
    if (auto v = gm.find("gpu.vendor"); v != gm.end() && v->second.text == "nvidia") ++nvidia;
    if (auto mm = gm.find("gpu.mig_mode"); mm != gm.end() && mm->second.text == "Enabled") ++mig;
    std::string model = gm.count("gpu.model") ? gm.at("gpu.model").text : gm.count("gpu.name") ? gm.at("gpu.name").text : "";
    if (!model.empty() && std::find(models.begin(), models.end(), model) == models.end()) models.push_back(model);
  }
  rocm_release_facts(m, host, gpu_maps);
  kernel_check_facts(f, gpu_maps);
  const std::string gpu_src = "PCI, nvidia-smi, CUDA driver API and KFD, merged by PCI address";
  // A report that lists no GPU leaves the count unknown; a probed host knows it.
  const bool probed = !f.from_report;
  if (!gpus.empty() || probed) {
    host["gpu.count"] = F::of_number(static_cast<double>(gpus.size()), gpu_src);
    host["gpu.nvidia_count"] = F::of_number(static_cast<double>(nvidia), gpu_src);
    host["gpu.models"] = F::of_list(models, gpu_src);
  }
  if (f.nvidia_smi) host["gpu.mig_enabled_count"] = F::of_number(static_cast<double>(mig), f.nvidia_smi->source);
  std::size_t switches = 0;
  for (auto& d : f.pci) switches += d.kind == "nvswitch";
  if (probed) host["nvswitch.count"] = F::of_number(static_cast<double>(switches), "/sys/bus/pci/devices");
  visible_device_facts(f, nvidia, host);

  out.push_back(Subject{"host", "host", host});
  for (auto& gm : gpu_maps) {
    Subject s{"gpu", gpu_label(gm), gm};
    merge(s.facts, host);
    out.push_back(std::move(s));
  }
  for (auto& e : f.software.python) {
    FactMap em = env_facts(e);
    Subject es{"env", "Python " + e.interpreter, em};
    merge(es.facts, host);
    out.push_back(std::move(es));
    for (auto& fw : e.frameworks) {
      FactMap fm = framework_facts(fw, e, m);
      const std::string label = fw.name + " " + fw.version + " (" + e.interpreter + ")";
      Subject fs{"framework", label, fm};
      merge(fs.facts, em);
      merge(fs.facts, host);
      out.push_back(fs);
      for (auto& gm : gpu_maps) {
        if (!gm.count("gpu.compute_capability") && !gm.count("gpu.gfx_target")) continue;
        Subject x{"framework_gpu", fw.name + " " + fw.version + " on " + gpu_label(gm), {}};
        build_on_gpu_facts(fm, gm, x.facts);
        builds_for_gpu_facts(m, fw.name, gm, x.facts);
        merge(x.facts, fs.facts);
        merge(x.facts, gm);
        out.push_back(std::move(x));
      }
    }
  }
  return out;
}

}  // namespace gpucheck
