// Locks of the fixture hosts: deterministic bytes, the checked-in goldens,
// and exactly one drift for each pinned fact changed in a copy of a fixture.
#include <catch2/catch.hpp>
#include <filesystem>
#include <regex>

#include "host/hosts.hpp"
#include "host/process.hpp"
#include "lock/lockfile.hpp"
#include "probe.hpp"
#include "rules/verdict.hpp"
#include "gpucheck_run.hpp"
#include "knowledge_support.hpp"
#include "test_support.hpp"

using namespace gpucheck;
using gpucheck::test::TempDir;
namespace fs = std::filesystem;

namespace {

std::string fixture(const std::string& name) { return test::source_path("tests/fixtures/hosts/" + name); }

Lock lock_of(const std::string& root) {
  auto host = open_host(root);
  REQUIRE(host);
  const Facts facts = run_probes(**host, ProbeOptions{});
  // As `gpucheck lock` writes it: the embedded matrix's version and check's verdict.
  const Knowledge& knowledge = gpucheck::test::builtin_knowledge();
  const Verdict v = judge(facts, knowledge, {}, std::nullopt);
  return lock_from_facts(facts, LockContext{GPUCHECK_VERSION, knowledge.matrix.version, verdict_summary(v)});
}

// A private copy of a fixture to edit; links stay links (fixtures hold absolute ones).
fs::path copy_fixture(const TempDir& tmp, const std::string& name) {
  const fs::path dst = tmp.path() / name;
  fs::copy(fixture(name), dst, fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  return dst;
}

void replace_in(const fs::path& file, const std::string& from, const std::string& to) {
  std::string text = test::read_file(file.string());
  REQUIRE(text.find(from) != std::string::npos);
  std::string out;
  std::size_t pos = 0, hit;
  while ((hit = text.find(from, pos)) != std::string::npos) {
    out += text.substr(pos, hit - pos) + to;
    pos = hit + from.size();
  }
  out += text.substr(pos);
  test::write_file(file, out);
}

std::vector<Finding> errors_of(const std::vector<Finding>& fs) {
  std::vector<Finding> out;
  for (const auto& f : fs)
    if (f.severity == Severity::error) out.push_back(f);
  return out;
}

}  // namespace

TEST_CASE("lock of a fixture: same stack, same bytes, parses back to the same text, no drift against itself", "[lock]") {
  for (const std::string name : {"h100-sxm-8gpu", "venv-torch-cu121", "ld-path-shadows-cudnn", "ngc-pytorch-24.01",
                                 "rocm6-mi300x", "cpu-only", "driver-mismatch"}) {
    INFO(name);
    const Lock a = lock_of(fixture(name));
    const std::string text = render_lock(a);
    CHECK(render_lock(lock_of(fixture(name))) == text);
    auto parsed = parse_lock(text, name + ".lock");
    REQUIRE(parsed);
    CHECK(render_lock(*parsed) == text);
    CHECK(compare_lock(*parsed, a).empty());
  }
}

TEST_CASE("lock of every fixture matches its golden file (tests/fixtures/regen-locks.sh rewrites them)", "[lock][golden]") {
  int compared = 0;
  for (const auto& e : fs::directory_iterator(test::source_path("tests/fixtures/hosts"))) {
    if (!e.is_directory()) continue;
    const std::string name = e.path().filename().string();
    const fs::path golden = test::source_path("tests/fixtures/golden/" + name + ".lock");
    INFO(name);
    REQUIRE(fs::exists(golden));
    CHECK(render_lock(lock_of(e.path().string())) == test::read_file(golden.string()));
    ++compared;
  }
  CHECK(compared >= 11);
}

TEST_CASE("lock reads the stack: GPUs, driver and branch, toolkit, libraries, Python, frameworks, wheels, NGC", "[lock]") {
  const Lock h100 = lock_of(fixture("h100-sxm-8gpu"));
  CHECK(h100.find("gpu", "models")->value == "NVIDIA H100 80GB HBM3");
  CHECK(h100.find("gpu", "count")->value == "8");
  CHECK(h100.find("gpu", "architectures")->value == "Hopper sm_90");
  CHECK(h100.find("driver", "version")->value == "565.57.01");
  CHECK(h100.find("driver", "branch")->value == "565");
  CHECK(h100.find("driver", "cuda")->value == "12.7");
  CHECK(h100.find("driver", "version")->policy == Policy::same_branch);

  const Lock venv = lock_of(fixture("venv-torch-cu121"));
  CHECK(venv.find("frameworks", "torch")->value == "2.1.0+cu121");
  CHECK(venv.find("libraries", "cudnn")->value == "8.9.7.29");
  CHECK(venv.find("python", "version")->value == "3.10.12");
  CHECK(venv.find("wheels", "nvidia-cusparse-cu12")->value == "12.1.0.106");
  // The cuDNN wheel is what libraries.cudnn reads: checked once, there.
  CHECK(venv.find("wheels", "nvidia-cudnn-cu12")->policy == Policy::ignore);

  // As torch loads it: libcudnn.so.9 from the wheel, its sub-libraries from
  // an older cuDNN on LD_LIBRARY_PATH (the fixture's defect).
  const Lock shadow = lock_of(fixture("ld-path-shadows-cudnn"));
  CHECK(shadow.find("libraries", "cudnn")->value == "9.1.0.70 + 9.0.0");
  CHECK(shadow.find("libraries", "cudnn")->comment.find("LD_LIBRARY_PATH") != std::string::npos);

  const Lock ngc = lock_of(fixture("ngc-pytorch-24.01"));
  CHECK(ngc.find("cuda", "toolkit")->value == "12.3.2");
  CHECK(ngc.find("libraries", "nccl")->value == "2.19.4");
  CHECK(ngc.find("ngc", "framework")->value == "pytorch");
  CHECK(ngc.find("ngc", "release")->value == "24.01");

  const Lock rocm = lock_of(fixture("rocm6-mi300x"));
  CHECK(rocm.find("gpu", "architectures")->value == "gfx942");
  CHECK(rocm.find("gpu", "count")->value == "8");

  const Lock cpu = lock_of(fixture("cpu-only"));
  CHECK(cpu.find("gpu", "count")->value == "0");
  CHECK_FALSE(cpu.find("driver", "version")->value.has_value());
}

namespace {

struct OneChange {
  std::string fixture, file, from, to, field;
};

}  // namespace

TEST_CASE("one pinned fact changed in a copy of the fixture: exactly that drift, an error", "[lock]") {
  const std::vector<OneChange> changes{
      {"h100-sxm-8gpu", "proc/driver/nvidia/version", "565.57.01", "550.127.05", "driver.version"},
      {"ngc-pytorch-24.01", "usr/include/x86_64-linux-gnu/cudnn_version_v8.h", "CUDNN_PATCHLEVEL 7",
       "CUDNN_PATCHLEVEL 6", "libraries.cudnn"},
      {"venv-torch-cu121", "home/user/venv/lib/python3.10/site-packages/nvidia_cudnn_cu12-8.9.7.29.dist-info/METADATA",
       "Version: 8.9.7.29", "Version: 8.9.2.26", "libraries.cudnn"},
      // The version of a distribution comes from its METADATA (version.py gives the CUDA it was built for).
      {"venv-torch-cu121", "home/user/venv/lib/python3.10/site-packages/torch-2.1.0+cu121.dist-info/METADATA",
       "Version: 2.1.0+cu121", "Version: 2.1.0+cu118", "frameworks.torch"},
      {"h100-sxm-8gpu", ".gpucheck/commands/nvidia-smi_-q.out", "NVIDIA H100 80GB HBM3", "NVIDIA H100 PCIe",
       "gpu.models"},
  };
  for (const auto& c : changes) {
    INFO(c.fixture << ": " << c.file << " " << c.from << " -> " << c.to);
    TempDir tmp;
    const Lock pinned = lock_of(fixture(c.fixture));
    const fs::path root = copy_fixture(tmp, c.fixture);
    replace_in(root / c.file, c.from, c.to);
    const auto findings = errors_of(compare_lock(pinned, lock_of(root.string())));
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].rule == "lock-drift");
    CHECK(findings[0].category == "lock-drift");
    REQUIRE(findings[0].evidence.size() == 3);
    CHECK(findings[0].evidence[0].fact == c.field);
    CHECK(findings[0].evidence[2].fact == c.field + " (policy)");
  }
}

TEST_CASE("GPU count: one GPU gone from a copy of the fixture is one drift", "[lock]") {
  TempDir tmp;
  const Lock pinned = lock_of(fixture("driver-mismatch"));
  REQUIRE(pinned.find("gpu", "count")->value == "2");
  const fs::path root = copy_fixture(tmp, "driver-mismatch");
  fs::remove_all(root / "proc/driver/nvidia/gpus/0000:ae:00.0");
  const auto findings = errors_of(compare_lock(pinned, lock_of(root.string())));
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].evidence[0].fact == "gpu.count");
  CHECK(findings[0].evidence[0].value == "1");
  CHECK(findings[0].evidence[1].value == "2");
}

TEST_CASE("a driver patch release within its branch is no error under the default policy", "[lock]") {
  TempDir tmp;
  const Lock pinned = lock_of(fixture("h100-sxm-8gpu"));
  const fs::path root = copy_fixture(tmp, "h100-sxm-8gpu");
  replace_in(root / "proc/driver/nvidia/version", "565.57.01", "565.77.01");
  replace_in(root / ".gpucheck/commands/nvidia-smi_-q.out", "565.57.01", "565.77.01");
  const auto findings = compare_lock(pinned, lock_of(root.string()));
  CHECK_FALSE(has_errors(findings));
  REQUIRE(findings.size() == 1);  // reported as a move within policy
  CHECK(findings[0].severity == Severity::info);
  CHECK(findings[0].evidence[0].value == "565.77.01");
}

TEST_CASE("gpucheck lock / verify: exit codes 0, 1, 2, lock -o leaves an invalid or newer lock untouched", "[lock][cli]") {
  TempDir tmp;
  const std::string lockfile = (tmp.path() / "stack.lock").string();
  const fs::path root = copy_fixture(tmp, "h100-sxm-8gpu");
  auto run = [&](std::vector<std::string> args) { return test::run_gpucheck(args); };
  REQUIRE(run({"--root", root.string(), "lock", "-o", lockfile}).exit_code == 0);
  const std::string first = test::read_file(lockfile);
  REQUIRE(run({"--root", root.string(), "lock", "-o", lockfile}).exit_code == 0);
  CHECK(test::read_file(lockfile) == first);
  CHECK(run({"--root", root.string(), "verify", lockfile}).exit_code == 0);

  replace_in(root / "proc/driver/nvidia/version", "565.57.01", "550.127.05");
  auto drift = run({"--root", root.string(), "verify", lockfile});
  CHECK(drift.exit_code == 1);
  CHECK(drift.out.find("driver.version: pinned 565.57.01, found 550.127.05") != std::string::npos);

  // A hand edit that breaks the lock: verify cannot run; lock -o does not replace it.
  const std::string broken = first.substr(0, first.find("[driver]")) + "[driver]\nversion = \"565.57.01\"  sometimes\n";
  test::write_file(lockfile, broken);
  auto bad = run({"--root", root.string(), "verify", lockfile});
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("stack.lock:") != std::string::npos);
  CHECK(run({"--root", root.string(), "lock", "-o", lockfile}).exit_code == 2);
  CHECK(test::read_file(lockfile) == broken);

  test::write_file(lockfile, "gpucheck-lock 2\nend\n");
  auto newer = run({"--root", root.string(), "lock", "-o", lockfile});
  CHECK(newer.exit_code == 2);
  CHECK(newer.err.find("newer gpucheck") != std::string::npos);
  CHECK(test::read_file(lockfile) == "gpucheck-lock 2\nend\n");
}

TEST_CASE("gpucheck lock keeps the policies edited in an existing lock", "[lock][cli]") {
  TempDir tmp;
  const std::string lockfile = (tmp.path() / "gpucheck.lock").string();
  auto r = test::run_gpucheck({"--root", fixture("h100-sxm-8gpu"), "lock", "-o", lockfile});
  REQUIRE(r.exit_code == 0);
  std::string text = test::read_file(lockfile);
  const std::string from = "version = \"565.57.01\"  same-branch";
  REQUIRE(text.find(from) != std::string::npos);
  text.replace(text.find(from), from.size(), "version = \"565.57.01\"  exact");
  test::write_file(lockfile, text);
  r = test::run_gpucheck({"--root", fixture("h100-sxm-8gpu"), "lock", "-o", lockfile});
  CHECK(r.exit_code == 0);
  CHECK(test::read_file(lockfile).find("version = \"565.57.01\"  exact  #") != std::string::npos);
}

TEST_CASE("lock -o never replaces a link or anything but a regular file", "[lock][cli][bad-input]") {
  TempDir tmp;
  const fs::path root = copy_fixture(tmp, "h100-sxm-8gpu");
  const auto target = tmp.path() / "elsewhere.lock";
  test::write_file(target, "not a lock, and not ours to replace\n");
  const auto link = tmp.path() / "stack.lock";
  fs::create_symlink(target, link);
  auto r = test::run_gpucheck({"--root", root.string(), "lock", "-o", link.string(), "--force"});
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("symbolic link"));
  CHECK(fs::is_symlink(link));
  CHECK(test::read_file(target.string()) == "not a lock, and not ours to replace\n");

  const auto dir = tmp.path() / "a-directory";
  fs::create_directories(dir);
  auto d = test::run_gpucheck({"--root", root.string(), "lock", "-o", dir.string(), "--force"});
  CHECK(d.exit_code == 2);
  CHECK_THAT(d.err, Catch::Contains("directory"));
}
