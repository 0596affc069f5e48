// ROCm releases in the matrix: which entry an installed version finds, the
// facts derived from it per GPU (three-valued: unknown when the release or
// the target is), and the rules over them on the real MI300X fixture. The
// small matrix and the hand-built facts here are synthetic.
#include <catch2/catch.hpp>

#include <algorithm>
#include <stdexcept>

#include "builtin/builtin_knowledge.hpp"
#include "host/hosts.hpp"
#include "matrix/lookup.hpp"
#include "matrix/matrix_load.hpp"
#include "probe.hpp"
#include "rules/engine.hpp"
#include "rules/fact_view.hpp"
#include "rules/knowledge.hpp"
#include "test_support.hpp"

using namespace gpucheck;

namespace {

const Matrix& synthetic_matrix() {
  static const Matrix m = test::load_matrix_text("synthetic-rocm.json", R"({
      "schema": "gpucheck.matrix/1", "version": "2000.1.1", "date": "2000-01-01",
      "rocm_releases": [
        {"version": "6.0", "gfx_targets": ["gfx942", "gfx90a"], "deprecated_gfx_targets": ["gfx906"],
         "sources": ["https://example.com/synthetic"]},
        {"version": "6.0.2", "gfx_targets": ["gfx942"], "sources": ["https://example.com/synthetic-602"]},
        {"version": "6.1", "gfx_targets": ["gfx942"], "sources": ["https://example.com/synthetic"]}
      ]
    })");
  return m;
}

std::string found(std::string_view installed) {
  const auto* r = find_rocm_release(synthetic_matrix(), installed);
  return r ? r->version.text() : "none";
}

// One ROCm install (when `version` is given) and one KFD GPU node per target.
Facts rocm_host(std::optional<std::string> version, const std::vector<std::optional<std::string>>& targets) {
  Facts f;
  if (version) f.software.rocm.installs.push_back(RocmInstall{"/opt/rocm-x", version, "/opt/rocm-x/.info/version", true});
  int node = 2;
  for (auto& t : targets) {
    KfdNode n;
    n.node = node++;
    n.gfx_target = t;
    n.source = "/sys/class/kfd/kfd/topology/nodes/" + std::to_string(n.node) + "/properties";
    f.software.rocm.gpu_nodes.push_back(n);
  }
  return f;
}

std::vector<const FactMap*> gpus_of(const std::vector<Subject>& subjects) {
  std::vector<const FactMap*> out;
  for (auto& s : subjects)
    if (s.scope == Scope::gpu) out.push_back(&s.facts);
  return out;
}

const FactMap& host_of(const std::vector<Subject>& subjects) { return subjects.front().facts; }

}  // namespace

TEST_CASE("matrix rocm: an installed version finds its most specific release entry", "[matrix][rocm]") {
  CHECK(found("6.0.2") == "6.0.2");
  CHECK(found("6.0.0") == "6.0");
  CHECK(found("6.0") == "6.0");
  CHECK(found("6.0.3") == "6.0");
  CHECK(found(" 6.1.1 ") == "6.1");
  // "6.0" leads 6.0.x only, never 6.10 or 6.
  CHECK(found("6.10.0") == "none");
  CHECK(found("6") == "none");
  CHECK(found("5.7.1") == "none");
  CHECK(found("not a version") == "none");
  CHECK(found("") == "none");
}

TEST_CASE("matrix rocm: each GPU learns whether the installed release supports its gfx target", "[matrix][rocm]") {
  const auto subjects = build_subjects(rocm_host("6.0.0", {"gfx942", "gfx1010", "gfx906", "gfx90a:sramecc+:xnack-"}),
                                       synthetic_matrix());
  const auto& host = host_of(subjects);
  REQUIRE(host.count("rocm.release_gfx_targets") == 1);
  CHECK(host.at("rocm.release_gfx_targets").items == std::vector<std::string>{"gfx942", "gfx90a"});
  CHECK(host.at("rocm.release_gfx_targets").source == "matrix: ROCm 6.0 (https://example.com/synthetic)");
  CHECK(host.at("rocm.release_deprecated_gfx_targets").items == std::vector<std::string>{"gfx906"});

  const auto gpus = gpus_of(subjects);
  REQUIRE(gpus.size() == 4);
  struct Want {
    bool supports, deprecates;
  };
  const Want want[] = {{true, false}, {false, false}, {true, true}, {true, false}};
  for (std::size_t i = 0; i < gpus.size(); ++i) {
    INFO("GPU " << i << ": " << gpus[i]->at("gpu.gfx_target").text);
    REQUIRE(gpus[i]->count("gpu.rocm_release_supports_gfx") == 1);
    CHECK(gpus[i]->at("gpu.rocm_release_supports_gfx").boolean == want[i].supports);
    CHECK(gpus[i]->at("gpu.rocm_release_deprecates_gfx").boolean == want[i].deprecates);
  }
  // The evidence names both the matrix entry and where the target was read.
  CHECK_THAT(gpus[1]->at("gpu.rocm_release_supports_gfx").source,
             Catch::Contains("matrix: ROCm 6.0") && Catch::Contains("gfx1010 from /sys/class/kfd/kfd/topology/nodes/3/properties"));
}

TEST_CASE("matrix rocm: the exact patch entry wins over the series", "[matrix][rocm]") {
  // 6.0.2's synthetic entry drops gfx90a, which the 6.0 series lists.
  const auto subjects = build_subjects(rocm_host("6.0.2", {"gfx90a"}), synthetic_matrix());
  const auto gpus = gpus_of(subjects);
  REQUIRE(gpus.size() == 1);
  CHECK_FALSE(gpus[0]->at("gpu.rocm_release_supports_gfx").boolean);
  CHECK(host_of(subjects).at("rocm.release_gfx_targets").source == "matrix: ROCm 6.0.2 (https://example.com/synthetic-602)");
}

TEST_CASE("matrix rocm: an unknown release or target leaves the facts unknown", "[matrix][rocm]") {
  SECTION("a release the matrix does not list") {
    const auto subjects = build_subjects(rocm_host("5.3.0", {"gfx1010"}), synthetic_matrix());
    CHECK(host_of(subjects).count("rocm.release_gfx_targets") == 0);
    CHECK(gpus_of(subjects).at(0)->count("gpu.rocm_release_supports_gfx") == 0);
    CHECK(gpus_of(subjects).at(0)->count("gpu.rocm_release_deprecates_gfx") == 0);
  }
  SECTION("no ROCm version read") {
    const auto subjects = build_subjects(rocm_host(std::nullopt, {"gfx1010"}), synthetic_matrix());
    CHECK(host_of(subjects).count("rocm.release_gfx_targets") == 0);
    CHECK(gpus_of(subjects).at(0)->count("gpu.rocm_release_supports_gfx") == 0);
  }
  SECTION("a GPU whose gfx target was not read") {
    const auto subjects = build_subjects(rocm_host("6.0.0", {std::nullopt}), synthetic_matrix());
    CHECK(host_of(subjects).count("rocm.release_gfx_targets") == 1);
    CHECK(gpus_of(subjects).at(0)->count("gpu.rocm_release_supports_gfx") == 0);
  }
}

TEST_CASE("matrix rocm: the embedded rules fire on a known unsupported target only", "[matrix][rocm][rules]") {
  auto knowledge = load_knowledge("");
  REQUIRE(knowledge);
  std::vector<Rule> rules;
  for (auto& r : knowledge->rules)
    if (r.id == "rocm-gfx-unsupported" || r.id == "rocm-gfx-deprecated") rules.push_back(r);
  REQUIRE(rules.size() == 2);
  const auto fired = [&](const Facts& f) {
    std::vector<std::string> ids;
    for (auto& finding : evaluate_rules(rules, build_subjects(f, knowledge->matrix))) ids.push_back(finding.rule);
    return ids;
  };
  CHECK(fired(rocm_host("6.0.2", {"gfx1010"})) == std::vector<std::string>{"rocm-gfx-unsupported"});
  CHECK(fired(rocm_host("6.2.4", {"gfx906"})) == std::vector<std::string>{"rocm-gfx-deprecated"});
  CHECK(fired(rocm_host("6.0.2", {"gfx942"})).empty());
  // Unknown never fires: a release the matrix lacks, or no version at all.
  CHECK(fired(rocm_host("4.5.2", {"gfx1010"})).empty());
  CHECK(fired(rocm_host(std::nullopt, {"gfx1010"})).empty());
  // With HSA_OVERRIDE_GFX_VERSION the runtime reports another target; that
  // rule (hsa-override-gfx-version) speaks instead.
  Facts overridden = rocm_host("6.0.2", {"gfx1031"});
  overridden.software.rocm.env["HSA_OVERRIDE_GFX_VERSION"] = "10.3.0";
  CHECK(fired(overridden).empty());
}

TEST_CASE("matrix rocm: the real MI300X fixture's gfx942 is supported by its ROCm 6.0.2", "[matrix][rocm]") {
  auto knowledge = load_knowledge("");
  REQUIRE(knowledge);
  auto host = open_host(test::source_path("tests/fixtures/hosts/rocm6-mi300x"));
  REQUIRE(host);
  const auto subjects = build_subjects(run_probes(**host, {}), knowledge->matrix);
  CHECK(host_of(subjects).at("rocm.version").text == "6.0.2");
  const auto& listed = host_of(subjects).at("rocm.release_gfx_targets").items;
  CHECK(std::find(listed.begin(), listed.end(), "gfx942") != listed.end());
  const auto gpus = gpus_of(subjects);
  REQUIRE(gpus.size() == 8);
  for (auto* g : gpus) {
    CHECK(g->at("gpu.gfx_target").text == "gfx942");
    CHECK(g->at("gpu.rocm_release_supports_gfx").boolean);
    CHECK_FALSE(g->at("gpu.rocm_release_deprecates_gfx").boolean);
  }
}
