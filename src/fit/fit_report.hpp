// `gpucheck fit`'s answer as text for a person and as JSON
// (gpucheck.fit/1, docs/fit.md): what was asked, memory a GPU by part,
// the layout, the ceilings and their sources, the verdict.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fit/fit_plan.hpp"

namespace gpucheck::fit {

// What was asked: the model as named or read, the workload and the GPUs.
struct FitQuestion {
  std::string model_name;    // "Llama 2 70B", or the config.json's path
  std::string model_id;      // the matrix's id; empty for a config.json
  std::string model_source;  // the config.json's URL or path
  ModelShape shape;
  Workload workload;
  GpuSpec gpu;
  int gpus_per_node = 1, nodes = 1;
  std::string gpus_origin;   // "named", "this host", "the report <file>"
  std::vector<std::string> notes;  // about the GPUs: others on the host, figures missing
};

// "fits", "does-not-fit", "cannot-tell"
std::string verdict_word(const FitAnswer& a);
std::string render_fit_text(const FitQuestion& q, const FitAnswer& a);
nlohmann::ordered_json fit_json(const FitQuestion& q, const FitAnswer& a);

// `--compare`: the answer for each GPU on nodes of up to eight, best first.
struct CompareRow {
  GpuSpec gpu;
  FitAnswer answer;
};
void sort_compare_rows(std::vector<CompareRow>& rows);
std::string render_compare_text(const FitQuestion& q, const std::vector<CompareRow>& rows);
nlohmann::ordered_json compare_json(const FitQuestion& q, const std::vector<CompareRow>& rows);

}  // namespace gpucheck::fit
