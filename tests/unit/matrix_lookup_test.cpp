// Lookups over a small synthetic matrix built here (not real data: the ids,
// drivers and URLs are made up to exercise the matching rules).
#include <catch2/catch.hpp>

#include <stdexcept>

#include <nlohmann/json.hpp>

#include "gpucheck_run.hpp"
#include "matrix/lookup.hpp"
#include "matrix/matrix_load.hpp"
#include "test_support.hpp"

using namespace gpucheck;

namespace {

const Matrix& synthetic_matrix() {
  static const Matrix m = test::load_matrix_text("synthetic-lookup.json", R"({
      "schema": "gpucheck.matrix/1", "version": "2000.1.1", "date": "2000-01-01",
      "gpus": [
        {"id": "syn-h-sxm", "name": "NVIDIA Synthetic H 80GB HBM3", "vendor": "nvidia",
         "pci_ids": ["10de:2330"], "name_patterns": ["synthetic h"], "architecture": "SynHopper",
         "compute_capability": "9.0", "sources": ["https://example.com/synthetic"]},
        {"id": "syn-h-pcie", "name": "NVIDIA Synthetic H PCIe", "vendor": "nvidia",
         "pci_ids": ["10DE:2331"], "name_patterns": ["synthetic h pcie"], "architecture": "SynHopper",
         "compute_capability": "9.0", "sources": ["https://example.com/synthetic"]},
        {"id": "syn-h-nvl", "name": "NVIDIA Synthetic H NVL", "vendor": "nvidia",
         "name_patterns": ["synthetic h"], "architecture": "SynHopper",
         "compute_capability": "9.0", "sources": ["https://example.com/synthetic"]}
      ],
      "arch_precisions": [
        {"compute_capability": "8.0", "architecture": "SynAmpere", "precisions": ["fp64", "tf32"],
         "sources": ["https://example.com/synthetic"]},
        {"compute_capability": "8.6", "architecture": "SynAmpere", "precisions": ["tf32"],
         "sources": ["https://example.com/synthetic"]}
      ],
      "cuda_releases": [
        {"version": "12.1.1", "min_driver_linux": "530.30.03", "sources": ["https://example.com/synthetic"]},
        {"version": "12.1.0", "min_driver_linux": "530.30.02", "sources": ["https://example.com/synthetic"]},
        {"version": "12.2.0", "min_driver_linux": "535.54.03", "sources": ["https://example.com/synthetic"]}
      ],
      "cuda_families": [
        {"major": 11, "sources": ["https://example.com/synthetic"]},
        {"major": 12, "minor_compat_min_driver": "525.60.13", "sources": ["https://example.com/synthetic"]}
      ],
      "frameworks": [
        {"framework": "torch", "version": "2.1", "variant": "cu121", "cuda": "12.1", "sources": ["https://example.com/synthetic"]},
        {"framework": "torch", "version": "2.1.0", "variant": "cu121", "cuda": "12.1", "sources": ["https://example.com/synthetic"]},
        {"framework": "torch", "version": "2.1", "variant": "cu118", "cuda": "11.8", "sources": ["https://example.com/synthetic"]},
        {"framework": "torch", "version": "2.10", "variant": "cu121", "sources": ["https://example.com/synthetic"]},
        {"framework": "torch", "version": "2.1", "variant": "cu118b", "cuda": "11.8", "pypi_default": true, "sources": ["https://example.com/synthetic"]},
        {"framework": "torch", "version": "2.1.2", "variant": "cu121b", "cuda": "12.1", "pypi_default": true, "sources": ["https://example.com/synthetic"]},
        {"framework": "flash-attn", "version": "2", "min_compute_capability": "8.0", "sources": ["https://example.com/synthetic"]}
      ],
      "ngc": [
        {"framework": "pytorch", "tag": "23.10-py3", "release": "23.10", "min_driver": "535", "sources": ["https://example.com/synthetic"]},
        {"framework": "pytorch", "tag": "24.01-py3", "release": "24.01", "min_driver": "545", "sources": ["https://example.com/synthetic"]},
        {"framework": "tensorflow", "tag": "24.01-tf2-py3", "release": "24.01", "min_driver": "545", "sources": ["https://example.com/synthetic"]},
        {"framework": "pytorch", "tag": "23.12-py3", "release": "23.12", "min_driver": "545", "sources": ["https://example.com/synthetic"]}
      ]
    })");
  return m;
}

std::string id_of(const GpuModel* g) { return g ? g->id : "(none)"; }

}  // namespace

TEST_CASE("matrix lookup: GPU by PCI id, either case", "[matrix][lookup]") {
  const auto& m = synthetic_matrix();
  CHECK(id_of(find_gpu_by_pci_id(m, "10de:2330")) == "syn-h-sxm");
  CHECK(id_of(find_gpu_by_pci_id(m, "10DE:2330")) == "syn-h-sxm");
  CHECK(id_of(find_gpu_by_pci_id(m, "10de:2331")) == "syn-h-pcie");  // listed upper-case in the matrix
  CHECK(find_gpu_by_pci_id(m, "10de:9999") == nullptr);
  CHECK(find_gpu_by_pci_id(m, "") == nullptr);
  CHECK(id_of(find_gpu_by_id(m, "syn-h-nvl")) == "syn-h-nvl");
  CHECK(find_gpu_by_id(m, "nope") == nullptr);
}

TEST_CASE("matrix lookup: GPU by product name, longest pattern wins", "[matrix][lookup]") {
  const auto& m = synthetic_matrix();
  // "synthetic h pcie" is longer than "synthetic h", which also matches.
  CHECK(id_of(find_gpu_by_name(m, "NVIDIA Synthetic H PCIe")) == "syn-h-pcie");
  CHECK(id_of(find_gpu_by_name(m, "NVIDIA SYNTHETIC H PCIE 80GB")) == "syn-h-pcie");
  // Equal length: the first model listed.
  CHECK(id_of(find_gpu_by_name(m, "NVIDIA Synthetic H 94GB")) == "syn-h-sxm");
  // An exact name (ignoring case) beats any pattern.
  CHECK(id_of(find_gpu_by_name(m, "nvidia synthetic h nvl")) == "syn-h-nvl");
  // Older drivers leave out the vendor: still the exact name.
  CHECK(id_of(find_gpu_by_name(m, "Synthetic H NVL")) == "syn-h-nvl");
  CHECK(find_gpu_by_name(m, "NVIDIA GeForce Synthetic") == nullptr);
  CHECK(find_gpu_by_name(m, "  ") == nullptr);
}

TEST_CASE("matrix lookup: precisions by major.minor", "[matrix][lookup]") {
  const auto& m = synthetic_matrix();
  const auto* a = find_arch_precisions(m, "8.6");
  REQUIRE(a != nullptr);
  CHECK(a->precisions == std::vector<std::string>{"tf32"});
  REQUIRE(find_arch_precisions(m, "8.0") != nullptr);
  CHECK(find_arch_precisions(m, "8.0")->compute_capability.text() == "8.0");
  CHECK(find_arch_precisions(m, "8") == find_arch_precisions(m, "8.0"));  // "8" is 8.0
  CHECK(find_arch_precisions(m, "8.9") == nullptr);
  CHECK(find_arch_precisions(m, "sm_80") == nullptr);
}

TEST_CASE("matrix lookup: CUDA release by version", "[matrix][lookup]") {
  const auto& m = synthetic_matrix();
  auto version_of = [&](const char* v) {
    const auto* r = find_cuda_release(m, v);
    return r ? r->version.text() : std::string("(none)");
  };
  // The lowest 12.1.x, though 12.1.1 is listed first.
  CHECK(version_of("12.1") == "12.1.0");
  CHECK(version_of("12.1.105") == "12.1.0");  // nvcc's build number
  CHECK(version_of("12.1.1") == "12.1.1");    // a listed patch release is exact
  CHECK(version_of("12.1.0") == "12.1.0");
  CHECK(version_of("12.2") == "12.2.0");
  CHECK(version_of("12.3") == "(none)");
  CHECK(version_of("twelve") == "(none)");
}

TEST_CASE("matrix lookup: CUDA family by major", "[matrix][lookup]") {
  const auto& m = synthetic_matrix();
  REQUIRE(find_cuda_family(m, 12) != nullptr);
  CHECK(test::text_of(find_cuda_family(m, 12)->minor_compat_min_driver) == std::optional<std::string>("525.60.13"));
  REQUIRE(find_cuda_family(m, 11) != nullptr);
  CHECK_FALSE(find_cuda_family(m, 11)->minor_compat_min_driver.has_value());
  CHECK(find_cuda_family(m, 13) == nullptr);
}

TEST_CASE("matrix lookup: framework builds by installed version and variant", "[matrix][lookup]") {
  const auto& m = synthetic_matrix();
  CHECK(variant_of_version("2.1.0+cu121") == "cu121");
  CHECK(variant_of_version("2.1.0") == "");

  auto found = find_framework_variants(m, "torch", "2.1.0+cu121", "cu121");
  REQUIRE(found.size() == 2);
  CHECK(found[0]->version.text() == "2.1.0");  // the exact entry first
  CHECK(found[1]->version.text() == "2.1");

  found = find_framework_variants(m, "torch", "2.1.2+cu121", "cu121");
  REQUIRE(found.size() == 1);
  CHECK(found[0]->version.text() == "2.1");

  found = find_framework_variants(m, "torch", "2.1.2+cu118", "cu118");
  REQUIRE(found.size() == 1);
  CHECK(test::text_of(found[0]->cuda) == std::optional<std::string>("11.8"));

  // "2.1" is not a prefix of 2.10, numerically.
  found = find_framework_variants(m, "torch", "2.10.0", "cu121");
  REQUIRE(found.size() == 1);
  CHECK(found[0]->version.text() == "2.10");

  CHECK(find_framework_variants(m, "torch", "2.1.0", "rocm6.0").empty());
  CHECK(find_framework_variants(m, "torch", "2.2.0+cu121", "cu121").empty());
  CHECK(find_framework_variants(m, "torch", "2", "cu121").empty());  // less precise than every entry
  CHECK(find_framework_variants(m, "torch", "garbage", "cu121").empty());
  // Distribution names compare as pip does.
  CHECK(find_framework_variants(m, "Flash_Attn", "2.5.8", "").size() == 1);
}

TEST_CASE("matrix lookup: a bare version is the PyPI default build", "[matrix][lookup]") {
  const auto& m = synthetic_matrix();
  // The most specific pypi_default entry whose version leads the installed one.
  const auto* v = find_pypi_default(m, "torch", "2.1.0", std::nullopt);
  REQUIRE(v);
  CHECK(v->variant == "cu118b");
  v = find_pypi_default(m, "torch", "2.1.2", std::nullopt);
  REQUIRE(v);
  CHECK(v->variant == "cu121b");
  // With the build's CUDA known, only an entry of the same major.minor:
  // a conda 2.1.2 for CUDA 11.8 is not PyPI's 12.1 wheel.
  v = find_pypi_default(m, "torch", "2.1.2", std::string("11.8"));
  REQUIRE(v);
  CHECK(v->variant == "cu118b");
  CHECK(find_pypi_default(m, "torch", "2.1.2", std::string("12.4")) == nullptr);
  CHECK(find_pypi_default(m, "Torch", "2.1.2", std::string("12.1.105"))->variant == "cu121b");
  // Only entries that say so: 2.10 has none; a variant lookup never returns them by accident.
  CHECK(find_pypi_default(m, "torch", "2.10.0", std::nullopt) == nullptr);
  CHECK(find_framework_variants(m, "torch", "2.1.0", "").empty());
  CHECK(find_pypi_default(m, "torch", "garbage", std::nullopt) == nullptr);
}

TEST_CASE("matrix lookup: NGC releases newest first", "[matrix][lookup]") {
  const auto& m = synthetic_matrix();
  const auto found = find_ngc_releases(m, "pytorch");
  REQUIRE(found.size() == 3);
  CHECK(found[0]->tag == "24.01-py3");
  CHECK(found[1]->tag == "23.12-py3");
  CHECK(found[2]->tag == "23.10-py3");
  CHECK(find_ngc_releases(m, "tensorflow").size() == 1);
  CHECK(find_ngc_releases(m, "jax").empty());
}

TEST_CASE("matrix lookup: the embedded matrix identifies each GPU unambiguously", "[matrix][lookup][embedded]") {
  const auto loaded = load_embedded_matrix();
  REQUIRE(loaded.ok());
  const Matrix& m = loaded.value();
  for (const auto& g : m.gpus) {
    INFO("gpu " << g.id);
    // A PCI id or name pattern listed twice would make the first model win silently.
    for (const auto& id : g.pci_ids) CHECK(id_of(find_gpu_by_pci_id(m, id)) == g.id);
    for (const auto& p : g.name_patterns) CHECK(id_of(find_gpu_by_name(m, p)) == g.id);
    CHECK(id_of(find_gpu_by_name(m, g.name)) == g.id);
    // The kernel checks ask for the precisions of every NVIDIA model's architecture.
    if (g.compute_capability) CHECK(find_arch_precisions(m, *g.compute_capability) != nullptr);
  }
}

TEST_CASE("matrix lookup: a post release is its own build, vLLM 0.4.0 and 0.4.0.post1", "[matrix][lookup][embedded]") {
  const auto loaded = load_embedded_matrix();
  REQUIRE(loaded.ok());
  const Matrix& m = loaded.value();
  const auto archs = [&](const char* installed) {
    const FrameworkVariant* v = find_pypi_default(m, "vllm", installed, std::nullopt);
    REQUIRE(v);
    return version_texts(v->arch_list);
  };
  // The 0.4.0 wheel carries no sm_70 or sm_75 (vllm#3801); the post release added them.
  CHECK(archs("0.4.0") == std::vector<std::string>{"8.0", "8.6", "8.9", "9.0"});
  CHECK(archs("0.4.0.post1") == std::vector<std::string>{"7.0", "7.5", "8.0", "8.6", "8.9", "9.0"});
  // A post release no entry names falls back to its version's entry.
  CHECK(archs("0.4.0.post2") == std::vector<std::string>{"8.0", "8.6", "8.9", "9.0"});
  // Most specific first: the post release, its version, then the series ("0.4").
  const auto post = find_framework_variants(m, "vllm", "0.4.0.post1+cu121", "cu121");
  REQUIRE(post.size() == 3);
  CHECK(post[0]->version.text() == "0.4.0.post1");
  CHECK(post[1]->version.text() == "0.4.0");
  const auto plain = find_framework_variants(m, "vllm", "0.4.0+cu121", "cu121");
  REQUIRE(plain.size() == 2);
  CHECK(plain[0]->version.text() == "0.4.0");
}

TEST_CASE("check --from: vLLM 0.4.0 on a V100 has no kernel and 0.4.0.post1 has", "[cli][matrix][lookup]") {
  // Synthetic: a collect_env of the shape vLLM's own prints (its "vLLM Version" line).
  const std::string head =
      "PyTorch version: 2.1.2+cu121\nIs debug build: False\nCUDA used to build PyTorch: 12.1\nROCM used to build PyTorch: N/A\n\n"
      "OS: Ubuntu 22.04.3 LTS (x86_64)\nPython version: 3.10.12\nIs CUDA available: True\nCUDA runtime version: 12.1.105\n"
      "GPU models and configuration: GPU 0: Tesla V100-SXM2-16GB\nNvidia driver version: 535.104.05\n\n"
      "Versions of relevant libraries:\n[pip3] torch==2.1.2\nvLLM Version: ";
  const auto rules = [&](const std::string& vllm) {
    gpucheck::test::TempDir t;
    gpucheck::test::write_file(t.path() / "paste.txt", head + vllm + "\nvLLM Build Flags:\nCUDA Archs: Not Set; ROCm: Disabled; Neuron: Disabled\n");
    auto r = gpucheck::test::run_gpucheck({"check", "--from", (t.path() / "paste.txt").string(), "--json"});
    const auto j = nlohmann::json::parse(r.out);
    std::vector<std::string> out;
    for (auto& f : j["findings"])
      if (f["category"] == "arch-unsupported") out.push_back(f["message"].get<std::string>());
    return out;
  };
  const auto plain = rules("0.4.0");
  REQUIRE(plain.size() == 1);
  CHECK_THAT(plain[0], Catch::Contains("vllm"));
  CHECK(rules("0.4.0.post1").empty());
}
