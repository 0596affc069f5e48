#include "importers/nvsmi_import.hpp"

#include "parse/nvsmi.hpp"
#include "parse/nvsmi_table.hpp"

namespace gpucheck {

Result<Facts> nvsmi_facts(std::string_view text, NvsmiForm form, const std::string& name, const std::string& source) {
  static constexpr const char* kCommand[] = {"nvidia-smi -q -x", "nvidia-smi -q", "nvidia-smi"};
  const std::string command = kCommand[static_cast<int>(form)];
  auto parsed = form == NvsmiForm::xml     ? parse_nvsmi_xml(text)
                : form == NvsmiForm::query ? parse_nvsmi_text(text)
                                           : parse_nvsmi_table(text);
  if (!parsed) {
    Problem p = parsed.problem();
    p.where = p.where.empty() ? name : name + ": " + p.where;
    p.detail = command + " output: " + p.detail;
    return p;
  }
  Facts f;
  f.nvidia_smi = std::move(parsed.value());
  f.nvidia_smi->source = source;
  return f;
}

}  // namespace gpucheck
