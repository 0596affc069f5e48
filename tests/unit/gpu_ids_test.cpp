// The derived PCI id table (matrix/gpu_ids.json, matrix/tools/gpu_ids.py):
// every NVIDIA GPU the drivers support is judged by its chip's compute
// capability, whether a host shows its PCI id or a paste its name, on a
// real collect_env report (tests/data/reports/SOURCES.md) and the embedded
// matrix.
#include <catch2/catch.hpp>

#include <algorithm>

#include "importers/import_report.hpp"
#include "matrix/lookup.hpp"
#include "rules/engine.hpp"
#include "rules/fact_view.hpp"
#include "knowledge_support.hpp"
#include "test_support.hpp"

using namespace gpucheck;

namespace {

const Knowledge& knowledge() { return test::builtin_knowledge(); }

// pt150733's report (an RTX 5090 D, torch 2.6.0+cu126), edited (synthetic):
// torch as PyPI's default 2.6.0 wheel, CUDA 12.4, whose SASS stops at
// sm_90 without PTX; the warning that states the GPU's compute capability
// removed, and the GPU renamed.
std::string torch26_cu124_report(const std::string& gpu_name) {
  std::string text = test::data("reports/collect_env/pt150733-rtx5090d-torch2.6.0-partial.txt");
  const auto swap = [&](const std::string& from, const std::string& to) {
    const auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), to);
  };
  const auto warning_end = text.find("PyTorch version:");
  REQUIRE(warning_end != std::string::npos);
  text.erase(0, warning_end);
  swap("PyTorch version: 2.6.0+cu126", "PyTorch version: 2.6.0");
  swap("CUDA used to build PyTorch: 12.6", "CUDA used to build PyTorch: 12.4");
  swap("GPU 0: NVIDIA GeForce RTX 5090 D", "GPU 0: " + gpu_name);
  return text;
}

Facts imported(const std::string& text) {
  auto r = import_report(text, "pt150733 (edited)");
  REQUIRE(r);
  return std::move(r).value().facts;
}

// The same report's facts with its one GPU known by nothing but a PCI id, as
// sysfs shows a GPU whose driver gave no name.
Facts by_pci_id(Facts f, const std::string& pci_id) {
  if (f.cuda) f.cuda->devices.clear();
  if (f.nvidia_smi) f.nvidia_smi->gpus.clear();
  PciDevice d;
  d.address = "0000:01:00.0";
  d.vendor_id = pci_id.substr(0, 4);
  d.device_id = pci_id.substr(5);
  d.driver = "nvidia";
  d.source = "synthetic sysfs";
  f.pci = {d};
  return f;
}

struct Judged {
  std::optional<std::string> compute_capability;
  bool arch_error = false;
};

Judged judge(const Facts& f) {
  const auto subjects = build_subjects(f, knowledge().matrix);
  Judged out;
  for (const auto& s : subjects)
    if (s.scope == Scope::framework_gpu)
      if (auto cc = s.facts.find("gpu.compute_capability"); cc != s.facts.end()) out.compute_capability = cc->second.text;
  for (const auto& finding : evaluate_rules(knowledge().rules, subjects))
    out.arch_error = out.arch_error || finding.rule == "arch-too-new-for-build";
  return out;
}

}  // namespace

TEST_CASE("every NVIDIA PCI id of the derived table: torch 2.6 cu124 is judged by the GPU's compute capability",
          "[matrix][gpu_ids]") {
  const auto& ids = knowledge().matrix.gpu_ids;
  REQUIRE(ids.size() > 400);
  const Facts base = imported(torch26_cu124_report("NVIDIA GeForce RTX 5090 D"));
  std::map<std::string, int> errors, passes;
  for (const auto& row : ids) {
    INFO(row.pci_id << " " << row.names.front() << " (" << row.chip << ")");
    const Judged j = judge(by_pci_id(base, row.pci_id));
    if (!row.compute_capability) {
      // Named, but with no compute capability the build is not judged on it.
      CHECK(!j.compute_capability);
      CHECK(!j.arch_error);
      continue;
    }
    const auto& cc = *row.compute_capability;
    REQUIRE(j.compute_capability);
    CHECK(Version::parse(*j.compute_capability) == cc);
    // The build carries SASS for 5.0 to 9.0: a 12.0 GPU cannot run it; an 8.9
    // runs the 8.6 code, a 6.1 the 6.0 code.
    CHECK(j.arch_error == (cc > Version::parse("9.0").value()));
    (j.arch_error ? errors : passes)[cc.text()]++;
  }
  CHECK(errors["12.0"] >= 30);  // the RTX 50 line and the RTX PRO Blackwell cards
  CHECK(errors.count("12.1") == 1);
  CHECK(passes["9.0"] >= 10);
  CHECK(errors.count("9.0") == 0);
}

TEST_CASE("a pasted GPU name of the derived table gets its compute capability", "[matrix][gpu_ids]") {
  // The case: the RTX 5080, absent from the curated models, in a paste.
  const auto& m = knowledge().matrix;
  REQUIRE(find_gpu_by_name(m, "NVIDIA GeForce RTX 5080") == nullptr);
  const Judged rtx5080 = judge(imported(torch26_cu124_report("NVIDIA GeForce RTX 5080")));
  CHECK(rtx5080.compute_capability == "12.0");
  CHECK(rtx5080.arch_error);
  // Every name of every row with a compute capability, as drivers print it and as older ones did.
  int named = 0;
  for (const auto& row : m.gpu_ids) {
    if (!row.compute_capability) continue;
    for (const auto& name : row.names) {
      INFO(row.pci_id << " " << name);
      const auto* found = find_gpu_id_by_name(m, name);
      const std::string bare = name.rfind("NVIDIA ", 0) == 0 ? name.substr(7) : name;
      if (!found) continue;  // rows naming it disagree: counted below
      CHECK(found->compute_capability == row.compute_capability);
      CHECK(find_gpu_id_by_name(m, bare) == found);
      ++named;
    }
  }
  CHECK(named > 500);
  // A paste with an older card the issue names: GTX 1650 (7.5) and GTX 1050 (6.1) run the build.
  for (const char* name : {"NVIDIA GeForce GTX 1650", "GeForce GTX 1050", "NVIDIA GeForce RTX 4060 Ti"}) {
    INFO(name);
    const Judged j = judge(imported(torch26_cu124_report(name)));
    CHECK(j.compute_capability);
    CHECK(!j.arch_error);
  }
}

TEST_CASE("a GPU id the table lists without a compute capability leaves it unknown", "[matrix][gpu_ids]") {
  const auto& m = knowledge().matrix;
  const auto unknown = std::find_if(m.gpu_ids.begin(), m.gpu_ids.end(), [](const GpuId& g) { return !g.compute_capability; });
  REQUIRE(unknown != m.gpu_ids.end());
  const auto subjects = build_subjects(by_pci_id(imported(torch26_cu124_report("x")), unknown->pci_id), m);
  bool named = false;
  for (const auto& s : subjects)
    if (s.scope == Scope::gpu) {
      named = s.facts.at("gpu.name").text == unknown->names.front();
      CHECK(s.facts.count("gpu.compute_capability") == 0);
    }
  CHECK(named);
}
