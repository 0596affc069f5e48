#include "matrix/gpu_figures.hpp"

#include <cctype>
#include <cstdlib>

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

std::optional<double> nvlink_total_gbs(const GpuModel& model) {
  if (!model.nvlink) return std::nullopt;
  const std::string& text = *model.nvlink;
  for (const auto& [unit, scale] : {std::pair{std::string(" TB/s"), 1000.0}, std::pair{std::string(" GB/s"), 1.0}}) {
    const auto at = text.find(unit);
    if (at == std::string::npos) continue;
    auto start = at;
    while (start > 0 && (std::isdigit(static_cast<unsigned char>(text[start - 1])) || text[start - 1] == '.')) --start;
    if (start == at) return std::nullopt;
    return std::strtod(text.substr(start, at - start).c_str(), nullptr) * scale;
  }
  return std::nullopt;
}

}  // namespace gpucheck
