// Each GPU subject's facts: the inventory's sources joined, the matrix's
// model and architecture, ROCm support, the kernel checks' results.
#include <algorithm>
#include <cmath>
#include <map>

#include "facts/clock_events.hpp"
#include "matrix/lookup.hpp"
#include "rules/fact_view.hpp"
#include "rules/fact_view_parts.hpp"
#include "util/memory_size.hpp"
#include "util/pci_address.hpp"
#include "util/strings.hpp"
#include "util/version.hpp"

namespace gpucheck::fact_view {

namespace {

std::string model_source(const GpuModel& model) {
  return "matrix: " + model.id + (model.sources.empty() ? "" : " (" + model.sources.front() + ")");
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
    if (c.precision == "fp32" && c.status == StepStatus::passed && c.ratio)
      g["gpu.fp32_rate_percent"] = F::of_number(percent(*c.ratio), src + ", fp32 " + c.kernel.value_or(""));
  std::optional<double> host;
  for (auto& b : kg.bandwidth) {
    if (b.status != StepStatus::passed || !b.ratio) continue;
    const std::string where = src + ", " + b.kind + " against " + b.expected_source.value_or("?");
    if (b.kind == "device_copy") g["gpu.copy_bandwidth_percent"] = F::of_number(percent(*b.ratio), where);
    if (b.kind != "device_copy" && (!host || *b.ratio < *host)) {
      host = *b.ratio;
      g["gpu.host_transfer_percent"] = F::of_number(percent(*b.ratio), where);
    }
  }
}

// The memory the GPU reports (GiB, printed as `probe` prints it), and the
// size it is sold as (GB): the matrix's figure for its model, else what it
// reports in decimal units, which for every model of the matrix is at least
// its sold size (an H100 80GB reports 85.5 GB). A GPU that reports well
// under its model's size is not all of it (a MIG slice, a vGPU, a model the
// name misplaced): what it reports is what a job gets. One that reports
// nothing has neither: its model alone does not say what a job gets.
void memory_facts(const InventoryGpu& g, const GpuModel* model, const std::string& cuda_source, FactMap& out) {
  std::optional<double> gib;
  std::string src;
  if (g.cuda && g.cuda->memory_bytes) gib = static_cast<double>(*g.cuda->memory_bytes) / (1ull << 30), src = cuda_source;
  else if (g.smi && g.smi->memory_total_mib) gib = static_cast<double>(*g.smi->memory_total_mib) / 1024.0, src = g.smi_source;
  else if (g.kfd && g.kfd->vram_bytes) gib = static_cast<double>(*g.kfd->vram_bytes) / (1ull << 30), src = g.kfd->source;
  if (!gib) return;
  FactValue reported = F::of_number(*gib, src);
  reported.text = one_decimal(*gib);
  out["gpu.memory_gib"] = std::move(reported);
  const double gb = *gib * (1ull << 30) / 1e9;
  const bool mig = g.smi && g.smi->mig_mode_current && to_lower(*g.smi->mig_mode_current) == "enabled";
  if (model && model->memory_gib && !mig && gb >= 0.9 * *model->memory_gib) {
    out["gpu.memory_sold_gb"] = F::of_number(*model->memory_gib, model_source(*model));
  } else {
    FactValue v = F::of_number(gb, src + ", in GB (what it reports: a model the matrix does not size, or part of a GPU)");
    v.text = one_decimal(gb);
    out["gpu.memory_sold_gb"] = std::move(v);
  }
}

}  // namespace

}  // namespace gpucheck::fact_view

namespace gpucheck {

namespace {

// One order for both tables: the PCI id sysfs gave, else the name
// nvidia-smi or the CUDA driver gave.
template <class Entry>
const Entry* lookup(const Matrix& m, const InventoryGpu& g, const Entry* (*by_id)(const Matrix&, std::string_view),
                    const Entry* (*by_name)(const Matrix&, std::string_view)) {
  if (g.pci) {
    if (auto* e = by_id(m, g.pci->vendor_id + ":" + g.pci->device_id)) return e;
  }
  if (g.smi && g.smi->product_name) return by_name(m, *g.smi->product_name);
  if (g.cuda && g.cuda->name) return by_name(m, *g.cuda->name);
  return nullptr;
}

}  // namespace

const GpuModel* gpu_model_of(const Matrix& m, const InventoryGpu& g) { return lookup(m, g, find_gpu_by_pci_id, find_gpu_by_name); }

const GpuId* gpu_id_of(const Matrix& m, const InventoryGpu& g) { return lookup(m, g, find_gpu_id, find_gpu_id_by_name); }

}  // namespace gpucheck

namespace gpucheck::fact_view {

FactMap gpu_facts(const InventoryGpu& g, const Matrix& m) {
  FactMap out;
  // A device a paste stated (an error naming it, a printed value) is no
  // CUDA call's answer: cite the report, whose blocks give the lines.
  const bool reported = g.cuda && g.cuda->pci_bus_id && starts_with(*g.cuda->pci_bus_id, "report:");
  const auto cuda_src = [&](const char* call) { return std::string(reported ? "the report" : call); };
  out["gpu.address"] = F::of_text(g.address, g.pci ? g.pci->source : g.smi ? g.smi_source : cuda_src("CUDA driver API"));
  std::string_view vendor;
  if (g.pci) {
    vendor = to_string(g.pci->vendor);
    out["gpu.pci_id"] = F::of_text(g.pci->vendor_id + ":" + g.pci->device_id, g.pci->source);
    out["gpu.kernel_driver"] = F::of_text(g.pci->driver.value_or("none"), g.pci->source + "/driver");
    if (g.pci->link.current_width) out["gpu.pcie_width"] = F::of_number(*g.pci->link.current_width, g.pci->source + "/current_link_width");
    if (g.pci->link.max_width) out["gpu.pcie_width_max"] = F::of_number(*g.pci->link.max_width, g.pci->source + "/max_link_width");
    if (g.pci->link.current_gen) out["gpu.pcie_gen"] = F::of_number(*g.pci->link.current_gen, g.pci->source + "/current_link_speed");
    if (g.pci->link.max_gen) out["gpu.pcie_gen_max"] = F::of_number(*g.pci->link.max_gen, g.pci->source + "/max_link_speed");
  }
  if (g.smi || g.cuda) vendor = to_string(PciVendor::nvidia);
  if (g.kfd) vendor = to_string(PciVendor::amd);
  if (!vendor.empty()) out["gpu.vendor"] = F::of_text(std::string(vendor), out["gpu.address"].source);
  std::optional<std::string> name;
  std::string name_src;
  if (g.smi && g.smi->product_name) name = g.smi->product_name, name_src = g.smi_source;
  else if (g.cuda && g.cuda->name) name = g.cuda->name, name_src = cuda_src("cuDeviceGetName");
  else if (g.kfd && g.kfd->name) name = g.kfd->name, name_src = g.kfd->source;
  else if (g.pci && g.pci->name) name = g.pci->name, name_src = "pci.ids";
  if (name) out["gpu.name"] = F::of_text(*name, name_src);
  const GpuModel* model = gpu_model_of(m, g);
  // A GPU the curated models do not cover: the derived id table names its
  // chip's compute capability (no figures; no forward-compatibility claim).
  const GpuId* id_row = model ? nullptr : gpu_id_of(m, g);
  const std::string id_src =
      id_row ? "matrix: GPU id " + id_row->pci_id + ", chip " + id_row->chip + " (" + id_row->sources.back() + ")" : "";
  if (id_row) {
    if (!name) out["gpu.name"] = F::of_text(id_row->names.front(), id_src);
    if (!id_row->architecture.empty()) out["gpu.architecture"] = F::of_text(id_row->architecture, id_src);
  }
  if (model) {
    out["gpu.model"] = F::of_text(model->id, model_source(*model));
    out["gpu.architecture"] = F::of_text(model->architecture, model_source(*model));
    out["gpu.data_center"] = F::of_bool(model->data_center, model_source(*model));
    if (model->gfx_target) out["gpu.gfx_target"] = F::of_text(*model->gfx_target, model_source(*model));
    if (model->memory_gib) out["gpu.datasheet_memory_gib"] = F::of_number(*model->memory_gib, model_source(*model));
    if (!name) out["gpu.name"] = F::of_text(model->name, model_source(*model));
  }
  if (g.kfd && g.kfd->gfx_target) out["gpu.gfx_target"] = F::of_text(*g.kfd->gfx_target, g.kfd->source);
  if (g.cuda && g.cuda->compute_capability) out["gpu.compute_capability"] = F::of_version(*g.cuda->compute_capability, cuda_src("cuDeviceGetAttribute"));
  else if (model && model->compute_capability) out["gpu.compute_capability"] = F::of_version(*model->compute_capability, model_source(*model));
  else if (id_row && id_row->compute_capability) out["gpu.compute_capability"] = F::of_version(*id_row->compute_capability, id_src);
  else if (const auto family = g.cuda && g.cuda->name ? family_compute_capability(m, *g.cuda->name) : std::nullopt)
    out["gpu.compute_capability"] = F::of_version(*family, "matrix: every model named " + *g.cuda->name);
  if (auto cc = out.find("gpu.compute_capability"); cc != out.end()) {
    if (auto* a = find_arch_precisions(m, cc->second.text)) {
      out["gpu.precisions"] = F::of_list(a->precisions, "matrix: compute capability " + a->compute_capability.text() + " (" + a->sources.front() + ")");
      if (!model && !out.count("gpu.architecture")) out["gpu.architecture"] = F::of_text(a->architecture, "matrix: compute capability " + a->compute_capability.text());
    }
  }
  memory_facts(g, model, cuda_src("cuDeviceTotalMem"), out);
  if (g.smi) {
    const auto& s = *g.smi;
    const std::string src = std::string(starts_with(g.smi_source, "NVML") ? "NVML" : "nvidia-smi") + " (GPU " + s.pci_bus_id + ")";
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
  const std::string src = "matrix: ROCm " + r->version.text() + " (" + r->sources.front() + ")";
  host["rocm.release_gfx_targets"] = F::of_list(r->gfx_targets, src);
  host["rocm.release_deprecated_gfx_targets"] = F::of_list(r->deprecated_gfx_targets, src);
  const auto id = host.find("os.id");
  const auto version = host.find("os.version_id");
  if (!r->os.empty() && id != host.end() && version != host.end()) {
    // "ol 9" covers Oracle Linux 9.x; "rhel 9.4" only 9.4.
    const auto listed = std::any_of(r->os.begin(), r->os.end(), [&](const std::string& os) {
      const auto space = os.find(' ');
      const std::string want = os.substr(space + 1);
      return os.substr(0, space) == id->second.text &&
             (version->second.text == want || starts_with(version->second.text, want + "."));
    });
    host["rocm.release_os"] = F::of_list(r->os, src);
    host["rocm.release_supports_os"] = F::of_bool(listed, src + "; " + id->second.text + " " + version->second.text + " from " + id->second.source);
  }
  for (auto& g : gpus) {
    const auto gfx = g.find("gpu.gfx_target");
    if (gfx == g.end()) continue;
    const bool deprecated = lists(r->deprecated_gfx_targets, gfx->second.text);
    const std::string why = src + "; " + gfx_processor(gfx->second.text) + " from " + gfx->second.source;
    g["gpu.rocm_release_supports_gfx"] = F::of_bool(deprecated || lists(r->gfx_targets, gfx->second.text), why);
    g["gpu.rocm_release_deprecates_gfx"] = F::of_bool(deprecated, why);
  }
}

namespace {

// The peer copies from each GPU (by its normalised address): to which GPUs
// the bytes arrived wrong, which copies failed or hung, the slowest judged
// copy against its link. The GPUs it reaches over NVLink without peer
// access are the host's p2p.access_missing_nvlink (fact_view_links.cpp).
void peer_copy_facts(const KernelFacts& k, const std::string& src, std::vector<FactMap>& gpus) {
  struct From {
    std::vector<std::string> wrong, failed;
    const PeerCopy* slowest = nullptr;
  };
  std::map<std::string, From> from;
  for (auto& p : k.peer_copies) {
    if (!p.src_bus) continue;
    From& f = from[normalize_pci_bus_id(*p.src_bus)];
    const std::string to = "GPU " + p.dst_bus.value_or("ordinal " + std::to_string(p.dst_ordinal));
    if (p.correct == false) {
      f.wrong.push_back(to + " (" + std::to_string(p.words_wrong.value_or(0)) + " of " +
                        std::to_string(p.words_checked.value_or(0)) + " words)");
    } else if (p.status != StepStatus::passed && p.status != StepStatus::skipped) {
      f.failed.push_back(to + " (" + std::string(to_string(p.status)) + (p.reason ? ": " + *p.reason : "") + ")");
    }
    if (p.status == StepStatus::passed && p.ratio && (!f.slowest || *p.ratio < *f.slowest->ratio)) f.slowest = &p;
  }
  for (auto& g : gpus) {
    const auto a = g.find("gpu.address");
    if (a == g.end()) continue;
    const auto it = from.find(normalize_pci_bus_id(a->second.text));
    if (it == from.end()) continue;
    const From& f = it->second;
    g["gpu.peer_copies_wrong"] = F::of_list(f.wrong, src + ", peer copies");
    g["gpu.peer_copies_failed"] = F::of_list(f.failed, src + ", peer copies");
    if (f.slowest) {
      const PeerCopy& p = *f.slowest;
      g["gpu.peer_copy_percent"] = F::of_number(percent(*p.ratio), src + ", the copy to GPU " + p.dst_bus.value_or("?") +
                                                                        " against " + p.expected_source.value_or("?"));
      g["gpu.peer_copy_slowest_to"] = F::of_text(p.dst_bus.value_or("?"), src + ", peer copies");
    }
  }
}

}  // namespace

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
    if (!kg.pci_bus_id || kg.status != GpuRunStatus::ran) continue;
    const std::string key = normalize_pci_bus_id(*kg.pci_bus_id);
    auto& [passed, failed] = by_address[key];
    for (auto& c : kg.checks) {
      if (!judged(c)) continue;
      if (c.status == StepStatus::passed) passed.push_back(c.precision);
      else failed.push_back(c.precision + " (" + std::string(to_string(c.status)) + ")");
    }
    if (kg.sustained && !kg.sustained->samples.empty()) sustained[key] = &*kg.sustained;
    if (kg.mig) whole[key] = nullptr;
    else whole.try_emplace(key, &kg);
  }
  for (auto& g : gpus) {
    const auto a = g.find("gpu.address");
    if (a == g.end()) continue;
    const std::string key = normalize_pci_bus_id(a->second.text);
    if (const auto k = by_address.find(key); k != by_address.end()) {
      g["gpu.kernel_checks_passed"] = F::of_list(k->second.first, src);
      g["gpu.kernel_checks_failed"] = F::of_list(k->second.second, src);
    }
    if (const auto s = sustained.find(key); s != sustained.end()) sustained_facts(*s->second, src, g);
    if (const auto w = whole.find(key); w != whole.end() && w->second) rate_facts(*w->second, src, g);
  }
  peer_copy_facts(*f.kernels, src, gpus);
}

std::string gpu_label(const FactMap& g) {
  std::string s = "GPU " + g.at("gpu.address").text;
  if (auto it = g.find("gpu.name"); it != g.end()) s += " (" + it->second.text + ")";
  return s;
}

}  // namespace gpucheck::fact_view
