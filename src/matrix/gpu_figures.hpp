// A GPU model's datasheet figures by name, each with the page that states
// it: "memory_gib", "bandwidth_gbs", "nvlink", "tflops.fp16". One entry's
// figures often come from different pages (a datasheet for the rates, a
// product page for the memory), so each names its own.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "matrix/matrix.hpp"

namespace gpucheck {

// The figures the model gives, in a fixed order: memory, bandwidth, NVLink,
// then the rates by precision name.
std::vector<std::string> gpu_figure_names(const GpuModel& model);

// The URL of a figure's page; nullopt when the model has no source for it.
std::optional<std::string> gpu_figure_source(const GpuModel& model, std::string_view figure);

// The NVLink figure's GB/s, both directions of all its links together:
// "NVLink 3, 600 GB/s" -> 600, "NVLink 5, 1.8 TB/s" -> 1800.
std::optional<double> nvlink_total_gbs(const GpuModel& model);

}  // namespace gpucheck
