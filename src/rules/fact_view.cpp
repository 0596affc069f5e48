// build_subjects: the subjects rules are judged on, put together from the
// host, GPU and Python pieces (fact_view_parts.hpp).
#include "rules/fact_view.hpp"

#include <algorithm>

#include "rules/fact_view_parts.hpp"
#include "util/strings.hpp"

namespace gpucheck {

using namespace fact_view;

namespace {

void merge(FactMap& into, const FactMap& from) {
  for (auto& [k, v] : from) into.emplace(k, v);
}

void set_gpu(Subject& s, const FactMap& gpu, std::string on) {
  s.gpu_address = gpu.at("gpu.address").text;
  if (auto it = gpu.find("gpu.name"); it != gpu.end()) s.gpu_name = it->second.text;
  s.on = std::move(on);
}

}  // namespace

std::vector<Subject> build_subjects(const Facts& f, const Matrix& m, std::optional<Day> today) {
  std::vector<Subject> out;
  FactMap host;
  host_driver_facts(f, m, host);
  driver_branch_facts(m, today, host);
  host_software_facts(f, m, host);
  // What a paste's error lines state (importers/stated_kinds.cpp): the
  // error is evidence, cited by its line.
  if (f.report && !f.report->stated.empty()) {
    std::vector<std::string> kinds;
    std::string lines;
    for (auto& st : f.report->stated) {
      kinds.push_back(st.value);
      if (!lines.empty()) lines.append("; ");
      lines.append(st.value).append(" at ").append(st.source);
    }
    host["error.stated"] = FactValue::of_list(std::move(kinds), lines);
  }

  const auto gpus = gpu_inventory(f);
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
  visibility_facts(f, gpus, gpu_maps, host);
  container_facts(f, gpus, gpu_maps, host);
  out_of_memory_facts(f, m, gpu_maps, host);
  link_facts(f, gpus, gpu_maps, host);
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
  for (auto& d : f.pci) switches += d.kind == PciKind::nvswitch;
  if (probed) host["nvswitch.count"] = F::of_number(static_cast<double>(switches), "/sys/bus/pci/devices");
  visible_device_facts(f, nvidia, host);

  out.push_back(Subject(Scope::host, "host", host));
  for (auto& gm : gpu_maps) {
    Subject s(Scope::gpu, gpu_label(gm), gm);
    set_gpu(s, gm, "");
    merge(s.facts, host);
    out.push_back(std::move(s));
  }
  for (auto& e : f.software.python) {
    FactMap em = env_facts(e);
    Subject es(Scope::env, "Python " + e.interpreter, em);
    merge(es.facts, host);
    out.push_back(std::move(es));
    for (auto& fw : e.frameworks) {
      FactMap fm = framework_facts(fw, e, m);
      const std::string label = fw.name + " " + fw.version + parenthesized(e.interpreter);
      Subject fs(Scope::framework, label, fm);
      merge(fs.facts, em);
      merge(fs.facts, host);
      out.push_back(fs);
      for (auto& gm : gpu_maps) {
        if (!gm.count("gpu.compute_capability") && !gm.count("gpu.gfx_target")) continue;
        Subject x(Scope::framework_gpu, fw.name + " " + fw.version + " on " + gpu_label(gm), {});
        set_gpu(x, gm, fw.name + " " + fw.version + parenthesized(e.interpreter));
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
