#include "matrix/gpu_figures.hpp"

namespace gpucheck {

std::vector<std::string> gpu_figure_names(const GpuModel& model) {
  std::vector<std::string> out;
  if (model.memory_gib) out.emplace_back("memory_gib");
  if (model.bandwidth_gbs) out.emplace_back("bandwidth_gbs");
  if (model.nvlink) out.emplace_back("nvlink");
  for (const auto& [precision, value] : model.tflops) {
    (void)value;
    out.push_back("tflops." + precision);
  }
  return out;
}

std::optional<std::string> gpu_figure_source(const GpuModel& model, std::string_view figure) {
  const auto it = model.figure_sources.find(std::string(figure));
  if (it == model.figure_sources.end()) return std::nullopt;
  return it->second;
}

}  // namespace gpucheck
