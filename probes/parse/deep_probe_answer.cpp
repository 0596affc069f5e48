// The deep probe's answer (probes/deep_probe.py): what the frameworks said
// about themselves once imported, as one JSON object.
#include "parse/deep_probe_answer.hpp"

#include <nlohmann/json.hpp>

#include "util/strings.hpp"

namespace gpucheck {

Result<DeepProbeFacts> parse_deep_answer(std::string_view text) {
  using nlohmann::json;
  // The script prints one JSON object on its last line; a framework may have
  // printed warnings before it.
  std::string_view last;
  for (auto line : split_lines(text))
    if (!trim(line).empty()) last = trim(line);
  json j = json::parse(last.begin(), last.end(), nullptr, false);
  if (j.is_discarded() || !j.is_object())
    return Problem{Reason::malformed, "", "the deep probe's answer is not a JSON object: \"" + std::string(last.substr(0, 80)) + "\""};
  DeepProbeFacts d;
  auto ostr = [](const json& o, const char* k) -> std::optional<std::string> {
    auto it = o.find(k);
    if (it == o.end() || !it->is_string()) return std::nullopt;
    return it->get<std::string>();
  };
  auto obool = [](const json& o, const char* k) -> std::optional<bool> {
    auto it = o.find(k);
    if (it == o.end() || !it->is_boolean()) return std::nullopt;
    return it->get<bool>();
  };
  auto strs = [](const json& o, const char* k) {
    std::vector<std::string> v;
    auto it = o.find(k);
    if (it != o.end() && it->is_array())
      for (auto& e : *it)
        if (e.is_string()) v.push_back(e.get<std::string>());
    return v;
  };
  d.error = ostr(j, "error");
  if (auto it = j.find("frameworks"); it != j.end() && it->is_array()) {
    for (auto& f : *it) {
      if (!f.is_object()) continue;
      DeepFramework fw;
      fw.name = ostr(f, "name").value_or("");
      if (fw.name.empty()) continue;
      fw.version = ostr(f, "version");
      fw.import_error = ostr(f, "import_error");
      fw.cuda_available = obool(f, "cuda_available");
      if (auto c = f.find("device_count"); c != f.end() && c->is_number_integer()) fw.device_count = c->get<int>();
      fw.arch_list = strs(f, "arch_list");
      fw.cudnn_version = ostr(f, "cudnn_version");
      fw.nccl_version = ostr(f, "nccl_version");
      fw.loaded_libraries = strs(f, "loaded_libraries");
      fw.tf32_matmul = obool(f, "tf32_matmul");
      fw.tf32_cudnn = obool(f, "tf32_cudnn");
      fw.float32_matmul_precision = ostr(f, "float32_matmul_precision");
      fw.bf16_supported = obool(f, "bf16_supported");
      if (auto e = f.find("fp32_matmul_rel_error"); e != f.end() && e->is_number()) fw.fp32_matmul_rel_error = e->get<double>();
      fw.fp32_matmul_looks_tf32 = obool(f, "fp32_matmul_looks_tf32");
      d.frameworks.push_back(std::move(fw));
    }
  }
  return d;
}

}  // namespace gpucheck
