// Policies judged field by field, what a lock implies for pip and
// containers, and a fleet grouped by the drift it shares.
#include <catch2/catch.hpp>
#include <tuple>

#include "builtin/builtin_knowledge.hpp"
#include "lock/fleet.hpp"
#include "report/verify_report.hpp"
#include "lock/lockfile.hpp"
#include "rules/knowledge.hpp"

using namespace gpucheck;

namespace {

Lock one(const std::string& section, const std::string& key, std::optional<std::string> v, Policy p) {
  Lock l;
  l.entries.push_back({section, key, std::move(v), p, ""});
  return l;
}

// The findings for one field pinned at `pinned` under `policy`, found at `found`.
std::vector<Finding> judge(const std::string& field, std::optional<std::string> pinned, std::optional<std::string> found,
                           Policy policy) {
  const auto dot = field.find('.');
  const std::string s = field.substr(0, dot), k = field.substr(dot + 1);
  return compare_lock(one(s, k, std::move(pinned), policy), one(s, k, std::move(found), policy));
}

bool breach(const std::vector<Finding>& f) { return has_errors(f); }

}  // namespace

TEST_CASE("policies: exact, same-branch (driver: major, Python: major.minor), at-least, ignore, none", "[lock][policy]") {
  CHECK(judge("driver.version", "550.54.14", "550.54.14", Policy::exact).empty());
  CHECK(breach(judge("driver.version", "550.54.14", "550.54.15", Policy::exact)));

  CHECK_FALSE(breach(judge("driver.version", "550.54.14", "550.90.07", Policy::same_branch)));
  CHECK(judge("driver.version", "550.54.14", "550.90.07", Policy::same_branch).size() == 1);  // info
  CHECK(breach(judge("driver.version", "550.54.14", "535.104.05", Policy::same_branch)));
  CHECK(breach(judge("driver.version", "550.54.14", "555.42.02", Policy::same_branch)));
  CHECK_FALSE(breach(judge("python.version", "3.10.12", "3.10.14", Policy::same_branch)));
  CHECK(breach(judge("python.version", "3.10.12", "3.11.4", Policy::same_branch)));

  CHECK_FALSE(breach(judge("driver.cuda", "12.2", "12.4", Policy::at_least)));
  CHECK(breach(judge("driver.cuda", "12.4", "12.2", Policy::at_least)));
  // A different build is a different build, whatever the numbers say.
  CHECK(breach(judge("frameworks.torch", "2.1.0+cu121", "2.1.1+cu118", Policy::at_least)));
  CHECK_FALSE(breach(judge("frameworks.torch", "2.1.0+cu121", "2.1.1+cu121", Policy::at_least)));

  CHECK(judge("gpu.models", "A", "B", Policy::ignore).empty());

  // none: the host lost it, or gained it.
  CHECK(breach(judge("libraries.cudnn", "8.9.7", std::nullopt, Policy::at_least)));
  CHECK(breach(judge("libraries.cudnn", std::nullopt, "8.9.7", Policy::exact)));
  CHECK_FALSE(breach(judge("libraries.cudnn", std::nullopt, "8.9.7", Policy::at_least)));
  // Unparseable versions cannot be ordered: only equal text passes.
  CHECK(breach(judge("driver.version", "unknown-build", "other-build", Policy::same_branch)));
}

TEST_CASE("a finding names field, pinned value, found value and policy", "[lock][policy]") {
  auto f = judge("driver.version", "550.54.14", "535.104.05", Policy::same_branch);
  REQUIRE(f.size() == 1);
  CHECK(f[0].rule == "lock-drift");
  CHECK(f[0].category == "lock-drift");
  CHECK(f[0].severity == Severity::error);
  CHECK(f[0].message.find("driver.version: pinned 550.54.14, found 535.104.05; policy same-branch") == 0);
  CHECK(f[0].evidence[0].value == "535.104.05");
  CHECK(f[0].evidence[1].value == "550.54.14");
  CHECK(f[0].evidence[2].value == "same-branch");
  CHECK_FALSE(f[0].fix.empty());
}

TEST_CASE("fields only one side has: a new wheel is a drift, a removed framework is a drift", "[lock][policy]") {
  Lock pinned = one("frameworks", "torch", "2.1.0+cu121", Policy::exact);
  Lock found = one("wheels", "nvidia-nccl-cu12", "2.18.1", Policy::exact);
  auto f = compare_lock(pinned, found);
  REQUIRE(f.size() == 2);
  CHECK(f[0].evidence[0].fact == "frameworks.torch");
  CHECK(f[0].evidence[0].value == "none");
  CHECK(f[1].evidence[0].fact == "wheels.nvidia-nccl-cu12");
  CHECK(f[1].evidence[1].value == "none");
  // The verdict and matrix of a run that did not evaluate them are not drift.
  Lock lock_meta = one("lock", "check", "pass", Policy::exact);
  CHECK(compare_lock(lock_meta, one("lock", "check", "not evaluated", Policy::exact)).empty());
}

TEST_CASE("lock --emit constraints pins with the PyTorch index of a +cuXXX build, --emit container", "[lock][emit]") {
  Lock l;
  l.entries.push_back({"frameworks", "torch", "2.1.0+cu121", Policy::exact, ""});
  l.entries.push_back({"frameworks", "jaxlib", "0.4.23+cuda12.cudnn89", Policy::exact, ""});
  l.entries.push_back({"wheels", "nvidia-cudnn-cu12", "8.9.2.26", Policy::ignore, ""});
  l.entries.push_back({"wheels", "nvidia-nccl-cu12", "2.18.1", Policy::same_branch, ""});
  l.entries.push_back({"wheels", "nvidia-nvtx-cu12", std::nullopt, Policy::exact, ""});
  const std::string c = emit_constraints(l);
  CHECK(c.find("--extra-index-url https://download.pytorch.org/whl/cu121\n") != std::string::npos);
  CHECK(c.find("\ntorch==2.1.0+cu121\n") != std::string::npos);
  CHECK(c.find("\nnvidia-cudnn-cu12==8.9.2.26\n") != std::string::npos);
  CHECK(c.find("\nnvidia-nccl-cu12==2.18.*\n") != std::string::npos);
  CHECK(c.find("nvidia-nvtx") == std::string::npos);
  CHECK(c.find("# jaxlib 0.4.23+cuda12.cudnn89: a local build") != std::string::npos);

}

TEST_CASE("lock --emit container: the image tag as the matrix's NGC table names it", "[lock][emit]") {
  auto k = load_knowledge("");
  REQUIRE(k);
  const Matrix& m = k->matrix;
  const auto image_of = [&](const char* framework, const char* release) {
    Lock l;
    l.entries.push_back({"ngc", "framework", framework, Policy::exact, ""});
    l.entries.push_back({"ngc", "release", release, Policy::exact, ""});
    return emit_container(l, m);
  };
  CHECK_FALSE(emit_container(Lock{}, m));
  for (const auto& [fw, rel, image] : std::vector<std::tuple<const char*, const char*, const char*>>{
           {"pytorch", "24.01", "nvcr.io/nvidia/pytorch:24.01-py3"},
           {"tensorflow", "24.03", "nvcr.io/nvidia/tensorflow:24.03-tf2-py3"},
           {"jax", "25.10", "nvcr.io/nvidia/jax:25.10-py3"},
           // A release newer than the matrix: the framework's tag form.
           {"tensorflow", "99.01", "nvcr.io/nvidia/tensorflow:99.01-tf2-py3"},
           {"jax", "99.01", "nvcr.io/nvidia/jax:99.01-py3"}}) {
    INFO(fw << " " << rel);
    auto got = image_of(fw, rel);
    REQUIRE(got);
    CHECK(*got == image);
  }
  auto unknown = image_of("caffe", "24.01");
  REQUIRE_FALSE(unknown);
  CHECK(unknown.problem().detail.find("lists no NGC images of the framework 'caffe'") != std::string::npos);
  CHECK(unknown.problem().detail.find("jax") != std::string::npos);
}

TEST_CASE("fleet: nodes grouped by shared drift, healthy first, unreadable last", "[lock][fleet]") {
  auto drift = judge("driver.version", "550.54.14", "535.104.05", Policy::same_branch);
  auto moved = judge("driver.version", "550.54.14", "550.90.07", Policy::same_branch);
  std::vector<FleetNode> nodes{{"n3", drift, std::nullopt},
                               {"n1", {}, std::nullopt},
                               {"n2", moved, std::nullopt},
                               {"n4", drift, std::nullopt},
                               {"n5", {}, Problem{Reason::malformed, "n5.json", "not JSON"}}};
  auto groups = group_by_drift(nodes);
  REQUIRE(groups.size() == 3);
  CHECK(groups[0].drifts.empty());
  CHECK(groups[0].nodes == std::vector<std::string>{"n1", "n2"});  // a move within policy is no drift
  CHECK(groups[1].nodes == std::vector<std::string>{"n3", "n4"});
  CHECK(groups[1].drifts == std::vector<std::string>{"driver.version: pinned 550.54.14, found 535.104.05 (same-branch)"});
  CHECK(groups[2].unreadable == "not JSON");
  const std::string text = render_fleet(groups, nodes.size(), "team.lock");
  CHECK(text.find("5 reports against team.lock: 2 match, 2 drifted, 1 unreadable") != std::string::npos);
  CHECK(text.find("  nodes: n3 n4\n") != std::string::npos);
}
