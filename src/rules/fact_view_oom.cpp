// What a pasted out-of-memory error asked for, and, where the paste names a
// model the matrix knows, what its weights alone take: the same arithmetic
// as `gpucheck fit`, as one fact the out-of-memory rules print
// (error.out_of_memory). A capacity finding, never an environment error.
#include <algorithm>
#include <cstdio>

#include "fit/fit_memory.hpp"
#include "matrix/lookup.hpp"
#include "rules/fact_view_parts.hpp"

namespace gpucheck::fact_view {

namespace {

// As torch prints it: "224.00 MiB", "13.49 GiB".
std::string size_text(double bytes) {
  if (bytes <= 0) return "0 bytes";
  char buf[48];
  if (bytes >= 1024.0 * 1024 * 1024) std::snprintf(buf, sizeof buf, "%.2f GiB", bytes / (1024.0 * 1024 * 1024));
  else std::snprintf(buf, sizeof buf, "%.2f MiB", bytes / (1024.0 * 1024));
  return buf;
}

}  // namespace

void out_of_memory_facts(const Facts& f, const Matrix& m, const std::vector<FactMap>& gpus, FactMap& host) {
  if (!f.report) return;
  const auto stated = host.find("error.stated");
  if (stated == host.end() || std::find(stated->second.items.begin(), stated->second.items.end(), "out-of-memory") == stated->second.items.end())
    return;
  std::string text, source;
  if (const auto& oom = f.report->out_of_memory; oom && (oom->requested_bytes || oom->free_bytes)) {
    text = "it asked for " + (oom->requested_bytes ? size_text(static_cast<double>(*oom->requested_bytes)) : "an amount the paste does not give");
    if (oom->free_bytes) text += " with " + size_text(static_cast<double>(*oom->free_bytes)) + " free";
    source = oom->source;
  } else {
    text = "the paste does not say how much it asked for";
  }
  for (const auto& repo : f.report->repos) {
    const auto* model = find_model(m, repo.value);
    if (!model) continue;
    const auto bytes = fit::weight_bytes(model->shape, fit::WeightFormat::bf16);
    if (!bytes) continue;
    text += "; the paste names " + model->name + " (" + repo.value + "), whose weights alone take " + size_text(static_cast<double>(*bytes)) +
            " in 16 bits";
    const FactMap* gpu = gpus.empty() ? nullptr : &gpus.front();
    const auto fact = [&](const char* name) { return gpu && gpu->count(name) ? &gpu->at(name) : nullptr; };
    if (const auto* gib = fact("gpu.memory_gib")) {
      const double memory = gib->number * 1024.0 * 1024 * 1024;
      text += static_cast<double>(*bytes) > memory ? ", more than the GPU's " + size_text(memory)
                                                   : ", leaving " + size_text(memory - static_cast<double>(*bytes)) + " of the GPU's " +
                                                         size_text(memory) + " for the KV cache and activations";
    }
    const auto* gpu_id = fact("gpu.model");
    text += ": `gpucheck fit --model " + model->id + " --gpu " + (gpu_id ? gpu_id->text : std::string("ID")) + "` names the layout that fits";
    source += (source.empty() ? "" : "; ") + repo.source + " names the model";
    break;
  }
  host["error.out_of_memory"] = FactValue::of_text(text, source.empty() ? f.report->name : source);
}

}  // namespace gpucheck::fact_view
