#include "cli/fit_gpus.hpp"

#include <cctype>
#include <cstdlib>

#include "cli/cli_errors.hpp"
#include "facts/gpu_inventory.hpp"
#include "fit/fit_numbers.hpp"
#include "matrix/gpu_figures.hpp"
#include "matrix/lookup.hpp"
#include "matrix/platform_knowledge.hpp"
#include "rules/fact_view.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

std::string source_of(const GpuModel& m, const std::string& figure) {
  const auto it = m.figure_sources.find(figure);
  return it != m.figure_sources.end() ? it->second : (m.sources.empty() ? "" : m.sources.front());
}

}  // namespace

fit::GpuSpec gpu_spec_of(const GpuModel& model) {
  fit::GpuSpec g;
  g.id = model.id;
  g.name = model.name;
  if (model.memory_gib) {
    // Sold as "80GB", built as 80 GiB: the HBM stacks are binary sizes.
    g.memory_bytes = {*model.memory_gib * 1024.0 * 1024.0 * 1024.0, source_of(model, "memory_gib")};
    g.memory_note = "the datasheet's " + fit::number_text(*model.memory_gib) + " GB";
  }
  if (model.bandwidth_gbs) g.bandwidth_gbs = fit::Figure{*model.bandwidth_gbs, source_of(model, "bandwidth_gbs")};
  for (const auto& [precision, rate] : model.tflops) g.tensor_tflops[precision] = {rate, source_of(model, "tflops." + precision)};
  if (model.nvlink && model.nvlink->find("bridge") == std::string::npos)
    if (const auto total = nvlink_total_gbs(model)) {
      g.link_gbs = fit::Figure{*total / 2, source_of(model, "nvlink")};
      g.link = model.nvlink->substr(0, model.nvlink->find(','));
    }
  return g;
}

Result<const GpuModel*> named_gpu(const Matrix& m, std::string_view query) {
  if (const auto* exact = find_gpu_by_id(m, query)) return exact;
  const auto key = alnum_key(query);
  std::vector<const GpuModel*> hits;
  for (const auto& g : m.gpus)
    if (!key.empty() && (alnum_key(g.id).find(key) != std::string::npos || alnum_key(g.name).find(key) != std::string::npos)) hits.push_back(&g);
  if (hits.size() == 1) return hits.front();
  std::vector<std::string> ids;
  for (const auto* g : hits) ids.push_back(g->id);
  // Appended piece by piece: GCC 12's -Wrestrict misfires on "\"" + string at -O3.
  std::string detail = hits.empty() ? "no GPU in the matrix is called " : "";
  detail += in_quotes(query);
  if (hits.empty()) detail += "; `gpucheck fit --model M --compare` lists those it knows";
  else detail.append(" names ").append(std::to_string(hits.size())).append(" GPUs: ").append(join(ids, ", "));
  return Problem{Reason::malformed, "--gpu", detail};
}

std::optional<HostGpus> host_gpus(const Facts& facts, const Matrix& m) {
  const auto inventory = gpu_inventory(facts);
  if (inventory.empty()) return std::nullopt;
  HostGpus out;
  const auto& first = inventory.front();
  const GpuModel* model = gpu_model_of(m, first);
  std::optional<std::string> name = first.smi && first.smi->product_name ? first.smi->product_name
                                    : first.cuda && first.cuda->name      ? first.cuda->name
                                    : first.kfd && first.kfd->name        ? first.kfd->name
                                    : first.pci && first.pci->name        ? first.pci->name
                                                                          : std::nullopt;
  if (model) out.spec = gpu_spec_of(*model);
  out.spec.name = name.value_or(model ? model->name : first.address);
  // What a job gets is what the GPU reports, not the datasheet's size.
  const auto reported = [&](double bytes, std::string note) {
    out.spec.memory_bytes = {bytes, ""};
    out.spec.memory_note = std::move(note);
  };
  if (first.cuda && first.cuda->memory_bytes) reported(static_cast<double>(*first.cuda->memory_bytes), "as the CUDA driver reports it");
  else if (first.smi && first.smi->memory_total_mib)
    reported(static_cast<double>(*first.smi->memory_total_mib) * 1024.0 * 1024.0, "as " + first.smi_source + " reports it");
  else if (first.kfd && first.kfd->vram_bytes) reported(static_cast<double>(*first.kfd->vram_bytes), "as KFD reports it");
  if (!out.spec.link_gbs && first.smi && first.smi->pcie_gen_max && first.smi->pcie_width_max)
    if (const auto lane = pcie_lane_gbits(*first.smi->pcie_gen_max)) {
      // The most the link negotiates: an idle GPU drops its current generation to save power.
      out.spec.link_gbs = fit::Figure{*lane * *first.smi->pcie_width_max / 8, "PCIe " + std::to_string(*first.smi->pcie_gen_max) + " x" +
                                                                                  std::to_string(*first.smi->pcie_width_max) + ", nvidia-smi's maximum link"};
      out.spec.link = "PCIe " + std::to_string(*first.smi->pcie_gen_max) + ".0 x" + std::to_string(*first.smi->pcie_width_max);
    }
  if (!model) out.notes.push_back("the matrix does not know this GPU: its bandwidth and tensor rates are unknown");
  const auto name_of = [](const InventoryGpu& g) {
    return g.smi && g.smi->product_name ? *g.smi->product_name : g.cuda && g.cuda->name ? *g.cuda->name : std::string();
  };
  for (const auto& g : inventory)
    if (model ? gpu_model_of(m, g) == model : name_of(g) == name_of(first)) ++out.count;
  if (out.count < static_cast<int>(inventory.size()))
    out.notes.push_back(plural(inventory.size() - out.count, "other GPU") + " of another kind not counted");
  return out;
}

}  // namespace gpucheck
