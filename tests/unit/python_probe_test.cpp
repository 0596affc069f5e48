// The Python probe on hand-built snapshots, on broken environments (truncated
// METADATA, binary garbage, conda-meta that is not JSON, an interpreter that
// hangs or answers nonsense) and on this machine's real interpreters: Debian's
// python3-torch, and the deep probe run inside it.
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <regex>

#include "host/hosts.hpp"
#include "host/process.hpp"
#include "probe.hpp"
#include "python_sys_path.hpp"
#include "test_support.hpp"

using namespace gpucheck;
using gpucheck::test::TempDir;
using gpucheck::test::write_file;
namespace fs = std::filesystem;

namespace {

const Note* find_note(const Facts& f, Reason reason, const std::string& item_part = "") {
  for (auto& n : f.notes)
    if (n.subject == "python" && n.problem.reason == reason && n.item.find(item_part) != std::string::npos) return &n;
  return nullptr;
}

Facts probe_python_only(const Host& h, ProbeOptions o = {}) {
  ProbeContext ctx(h, o);
  probe_python(ctx);
  return std::move(ctx.facts());
}

// The snapshot under `t`, its manifest naming /venv as $VIRTUAL_ENV.
Facts probe_venv_snapshot(const TempDir& t) {
  write_file(t.path() / ".gpucheck/manifest.json",
             R"({"format": "gpucheck-snapshot/1", "uname": {"sysname": "Linux", "machine": "x86_64"},
                 "env": {"VIRTUAL_ENV": "/venv"}})");
  auto host = open_host(t.str());
  REQUIRE(host);
  return probe_python_only(**host);
}

const Distribution* find_dist(const PythonEnv& e, const std::string& name) {
  for (auto& d : e.distributions)
    if (d.name == name) return &d;
  return nullptr;
}

const Requirement* find_req(const Distribution& d, const std::string& name) {
  for (auto& r : d.requires_dist)
    if (r.name == name) return &r;
  return nullptr;
}

const FrameworkBuild* find_fw(const PythonEnv& e, const std::string& name) {
  for (auto& f : e.frameworks)
    if (f.name == name) return &f;
  return nullptr;
}

// Sets PATH for one test and puts it back.
class ScopedPath {
 public:
  explicit ScopedPath(const std::string& p) {
    const char* old = std::getenv("PATH");
    saved_ = old ? old : "";
    ::setenv("PATH", p.c_str(), 1);
  }
  ~ScopedPath() { ::setenv("PATH", saved_.c_str(), 1); }

 private:
  std::string saved_;
};

void write_script(const fs::path& p, const std::string& body) {
  write_file(p, "#!/bin/sh\n" + body);
  ::chmod(p.c_str(), 0755);
}

}  // namespace

TEST_CASE("a venv snapshot: dist-info, egg-info, pins judged, broken metadata noted", "[python][probe][bad-input]") {
  TempDir t;
  const auto site = t.path() / "venv/lib/python3.10/site-packages";
  write_file(t.path() / "venv/pyvenv.cfg", "home = /usr/bin\nversion = 3.10.4\n");
  write_file(t.path() / "venv/bin/python3", "");
  write_file(site / "torch-2.1.0+cu121.dist-info/METADATA",
             "Metadata-Version: 2.1\nName: torch\nVersion: 2.1.0+cu121\n"
             "Requires-Dist: nvidia-cudnn-cu12 (==8.9.2.26) ; platform_system == \"Linux\" and platform_machine == \"x86_64\"\n"
             "Requires-Dist: nvidia-nccl-cu12 (==2.18.1) ; platform_system == \"Linux\"\n"
             "Requires-Dist: triton (==2.1.0) ; platform_machine == \"aarch64\"\n"
             "Requires-Dist: opt-einsum (>=3.3) ; extra == 'opt-einsum'\n"
             "Requires-Dist: sympy\n"
             "Requires-Dist: weird (>>1)\n\nlong description\n");
  write_file(site / "torch/version.py", "__version__ = '2.1.0+cu121'\ncuda = '12.1'\nhip = None\ngit_version = 'abc'\n");
  write_file(site / "nvidia_cudnn_cu12-8.9.7.29.dist-info/METADATA", "Metadata-Version: 2.1\nName: nvidia-cudnn-cu12\nVersion: 8.9.7.29\n");
  write_file(site / "nvidia_nccl_cu12-2.18.1.dist-info/METADATA", "Metadata-Version: 2.1\nName: nvidia-nccl-cu12\nVersion: 2.18.1\n");
  write_file(site / "triton-2.0.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: triton\nVersion: 2.0.0\n");
  write_file(site / "opt_einsum-3.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: opt_einsum\nVersion: 3.0\n");
  write_file(site / "weird-1.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: weird\nVersion: 1.0\n");
  write_file(site / "Six-1.16.0-py3.10.egg-info/PKG-INFO", "Metadata-Version: 1.1\nName: Six\nVersion: 1.16.0\n");
  write_file(site / "Six-1.16.0-py3.10.egg-info/requires.txt", "[test]\npytest\n");
  write_file(site / "legacy-0.1-py3.10.egg-info", "Metadata-Version: 1.0\nName: legacy\nVersion: 0.1\n");  // an egg-info file
  write_file(site / "cupy_cuda12x-13.0.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: cupy-cuda12x\nVersion: 13.0.0\n");
  write_file(site / "truncated-1.0.dist-info/METADATA", "Metadata-Vers");
  std::string junk;
  for (int i = 0; i < 400; ++i) junk += static_cast<char>((i * 131 + 7) & 0xff);
  write_file(site / "garbage-1.0.dist-info/METADATA", junk);
  fs::create_directories(site / "nometa-1.0.dist-info");
  auto f = probe_venv_snapshot(t);
  REQUIRE(f.software.python.size() == 1);
  const auto& e = f.software.python[0];
  CHECK(e.interpreter == "/venv/bin/python3");
  CHECK(e.kind == "venv");
  CHECK(e.found_via == std::vector<std::string>{"VIRTUAL_ENV"});
  CHECK(e.version == "3.10.4");  // pyvenv.cfg
  CHECK(e.sys_path_source == "conventional locations");
  CHECK(e.sys_path == std::vector<std::string>{"/venv/lib/python3.10/site-packages"});
  CHECK(find_note(f, Reason::not_recorded, "sys.path"));
  CHECK(e.distributions.size() == 9);
  auto* torch = find_dist(e, "torch");
  REQUIRE(torch);
  CHECK(torch->installer == "pip");
  auto* cudnn = find_req(*torch, "nvidia-cudnn-cu12");
  REQUIRE(cudnn);
  CHECK(cudnn->installed == "8.9.7.29");
  CHECK(cudnn->satisfied == false);
  CHECK(find_req(*torch, "nvidia-nccl-cu12")->satisfied == true);
  CHECK_FALSE(find_req(*torch, "triton")->satisfied);  // for aarch64 only: not judged here
  CHECK(find_req(*torch, "triton")->installed == "2.0.0");
  CHECK_FALSE(find_req(*torch, "opt-einsum")->satisfied);  // an extra: not required
  CHECK(find_req(*torch, "opt-einsum")->marker == "extra == 'opt-einsum'");
  CHECK_FALSE(find_req(*torch, "sympy")->installed);  // not installed: unknown
  CHECK_FALSE(find_req(*torch, "sympy")->satisfied);
  CHECK_FALSE(find_req(*torch, "weird")->satisfied);  // a specifier we do not understand
  REQUIRE(find_dist(e, "Six"));
  CHECK(find_dist(e, "Six")->requires_dist.size() == 1);
  CHECK(find_dist(e, "legacy"));
  // Broken metadata: a note each, with the reason; the rest is read.
  auto* trunc = find_note(f, Reason::malformed, "truncated-1.0");
  REQUIRE(trunc);
  CHECK_THAT(trunc->problem.detail, Catch::Contains("no Name"));
  auto* bin = find_note(f, Reason::malformed, "garbage-1.0");
  REQUIRE(bin);
  CHECK_THAT(bin->problem.detail, Catch::Contains("binary"));
  CHECK(find_note(f, Reason::absent, "nometa-1.0"));
  // Frameworks.
  auto* fw = find_fw(e, "torch");
  REQUIRE(fw);
  CHECK(fw->version == "2.1.0+cu121");
  CHECK(fw->local_tag == "cu121");
  CHECK(fw->cuda == "12.1");
  CHECK_FALSE(fw->cpu_only);
  CHECK(fw->git_version == "abc");
  auto* cupy = find_fw(e, "cupy-cuda12x");
  REQUIRE(cupy);
  CHECK(cupy->cuda == "12");
  CHECK(find_fw(e, "triton"));
}

TEST_CASE("a METADATA whose headers run past the 16 KiB first read is read whole", "[python][probe]") {
  TempDir t;
  const auto site = t.path() / "venv/lib/python3.11/site-packages";
  write_file(t.path() / "venv/pyvenv.cfg", "home = /usr/bin\nversion = 3.11.2\n");
  write_file(t.path() / "venv/bin/python3", "");
  std::string headers = "Metadata-Version: 2.1\nName: big\nVersion: 1.0\n";
  while (headers.size() < 20 * 1024) headers += "Classifier: Programming Language :: Python :: 3 :: Only\n";
  // synthetic: the one requirement comes after the first 16 KiB, with a long body after the blank line.
  write_file(site / "big-1.0.dist-info/METADATA", headers + "Requires-Dist: numpy (>=1.0)\n\n" + std::string(40 * 1024, 'x') + "\n");
  write_file(site / "numpy-2.0.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: numpy\nVersion: 2.0.0\n");
  auto f = probe_venv_snapshot(t);
  REQUIRE(f.software.python.size() == 1);
  const auto* big = find_dist(f.software.python[0], "big");
  REQUIRE(big);
  const auto* numpy = find_req(*big, "numpy");
  REQUIRE(numpy);
  CHECK(numpy->satisfied == std::optional<bool>(true));
}

TEST_CASE("a conda environment whose conda-meta is broken", "[python][probe][bad-input]") {
  TempDir t;
  write_file(t.path() / "env/bin/python3.11", "");
  fs::create_symlink("python3.11", t.path() / "env/bin/python3");
  write_file(t.path() / "env/conda-meta/history", "");
  write_file(t.path() / "env/conda-meta/numpy-1.26.4-py311h.json", R"({"name": "numpy", "version": "1.26.4", "depends": ["python >=3.11,<3.12.0a0", "libblas >=3.9.0,<4.0a0"]})");
  write_file(t.path() / "env/conda-meta/broken-1.0-0.json", "{\"name\": \"broken\", \"vers");
  write_file(t.path() / "env/conda-meta/python-3.11.8-h.json", R"({"name": "python", "version": "3.11.8", "depends": []})");
  fs::create_directories(t.path() / "env/lib/python3.11/site-packages");
  write_file(t.path() / ".gpucheck/manifest.json",
             R"({"format": "gpucheck-snapshot/1", "env": {"CONDA_PREFIX": "/env", "PATH": "/env/bin:/usr/bin"}})");
  auto host = open_host(t.str());
  REQUIRE(host);
  auto f = probe_python_only(**host);
  REQUIRE(f.software.python.size() == 1);  // PATH and CONDA_PREFIX name the same interpreter
  const auto& e = f.software.python[0];
  CHECK(e.kind == "conda");
  CHECK(e.found_via == std::vector<std::string>{"PATH", "CONDA_PREFIX"});
  CHECK(e.version == "3.11");  // from the interpreter's file name
  REQUIRE(e.distributions.size() == 2);
  auto* numpy = find_dist(e, "numpy");
  REQUIRE(numpy);
  CHECK(numpy->installer == "conda");
  CHECK(find_req(*numpy, "python")->installed == "3.11.8");
  CHECK(find_req(*numpy, "python")->satisfied == true);
  auto* n = find_note(f, Reason::malformed, "broken-1.0-0.json");
  REQUIRE(n);
  CHECK_THAT(n->problem.detail, Catch::Contains("not JSON"));
}

TEST_CASE("a pyenv shim on PATH is resolved to the version it would run, without running it", "[python][probe]") {
  TempDir t;
  // The shim as pyenv 2.3 writes it (/root/.pyenv/shims/python3 on the CI host).
  write_file(t.path() / "root/.pyenv/shims/python3",
             "#!/usr/bin/env bash\nset -e\n[ -n \"$PYENV_DEBUG\" ] && set -x\n\nprogram=\"${0##*/}\"\n\n"
             "export PYENV_ROOT=\"/root/.pyenv\"\nexec \"/root/.pyenv/libexec/pyenv\" exec \"$program\" \"$@\"\n");
  write_file(t.path() / "root/.pyenv/version", "3.11.7\n");
  write_file(t.path() / "root/.pyenv/versions/3.11.7/bin/python3.11", "");
  fs::create_symlink("python3.11", t.path() / "root/.pyenv/versions/3.11.7/bin/python3");
  write_file(t.path() / "root/.pyenv/versions/3.11.7/lib/python3.11/site-packages/six-1.16.0.dist-info/METADATA", "Name: six\nVersion: 1.16.0\n");
  write_file(t.path() / ".gpucheck/manifest.json",
             R"({"format": "gpucheck-snapshot/1", "env": {"PATH": "/root/.pyenv/shims:/usr/bin"}})");
  auto host = open_host(t.str());
  REQUIRE(host);
  auto f = probe_python_only(**host);
  REQUIRE(f.software.python.size() == 1);
  const auto& e = f.software.python[0];
  CHECK(e.interpreter == "/root/.pyenv/versions/3.11.7/bin/python3");
  CHECK(e.found_via == std::vector<std::string>{"PATH (pyenv shim /root/.pyenv/shims/python3)"});
  CHECK(find_dist(e, "six"));
}

TEST_CASE("an interpreter that hangs is killed at its deadline, conventional locations are used", "[python][probe][bad-input]") {
  TempDir t;
  write_script(t.path() / "bin/python3", "/bin/sleep 100\n");
  write_file(t.path() / "lib/python3.12/site-packages/foo-1.0.dist-info/METADATA", "Name: foo\nVersion: 1.0\n");
  ScopedPath path((t.path() / "bin").string());
  LiveHost host;
  ProbeOptions o;
  o.command_timeout = Millis(300);
  const auto start = std::chrono::steady_clock::now();
  auto f = probe_python_only(host, o);
  const auto elapsed = std::chrono::steady_clock::now() - start;
  CHECK(elapsed < std::chrono::seconds(5));  // a bound on the deadline, not a benchmark
  auto* n = find_note(f, Reason::timed_out, "sys.path");
  REQUIRE(n);
  CHECK_THAT(n->problem.detail, Catch::Contains("300 ms") && Catch::Contains("conventional"));
  REQUIRE(f.software.python.size() == 1);
  const auto& e = f.software.python[0];
  CHECK(e.sys_path_source == "conventional locations");
  CHECK(e.version == "3.12");
  CHECK(find_dist(e, "foo"));
}

TEST_CASE("a sys.path answer of another form, and one that fails", "[python][probe][bad-input]") {
  TempDir t;
  write_script(t.path() / "a/bin/python3", "echo 'Python 2.7 says: SyntaxError'\n");
  write_script(t.path() / "b/bin/python3", "echo 'ImportError: No module named site' >&2\nexit 1\n");
  ScopedPath path((t.path() / "a/bin").string());
  LiveHost host;
  ProbeOptions o;
  o.pythons = {(t.path() / "b").string()};  // an environment's prefix
  auto f = probe_python_only(host, o);
  REQUIRE(f.software.python.size() == 2);
  auto* bad = find_note(f, Reason::malformed, "sys.path");
  REQUIRE(bad);
  CHECK_THAT(bad->problem.detail, Catch::Contains("separated by NUL"));
  auto* failed = find_note(f, Reason::failed, "sys.path");
  REQUIRE(failed);
  CHECK_THAT(failed->problem.detail, Catch::Contains("exit code 1: ImportError"));
  CHECK(f.software.python[1].found_via == std::vector<std::string>{"--python"});
  for (auto& e : f.software.python) CHECK(e.sys_path_source == "conventional locations");
}

TEST_CASE("a deep probe that hangs is killed at its deadline", "[python][probe][deep][bad-input]") {
  TempDir t;
  const auto site = t.path() / "site";
  write_file(site / "torch-2.1.0.dist-info/METADATA", "Name: torch\nVersion: 2.1.0\n");
  write_file(site / "torch/version.py", "cuda = None\nhip = None\n");
  // Answers the sys.path question; hangs in the deep probe (whose text opens with "# gpucheck's deep probe").
  write_script(t.path() / "bin/python3",
               "case \"$*\" in\n  *\"deep probe\"*) /bin/sleep 100 ;;\n"
               "  *) printf '3.10.0\\000" + t.str() + "\\000" + t.str() + "\\000" + t.str() + "/bin/python3\\000" + site.string() + "' ;;\nesac\n");
  ScopedPath path((t.path() / "bin").string());
  LiveHost host;
  ProbeOptions o;
  o.deep = true;
  o.deep_timeout = Millis(300);
  const auto start = std::chrono::steady_clock::now();
  auto f = probe_python_only(host, o);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
  REQUIRE(f.software.python.size() == 1);
  const auto& e = f.software.python[0];
  CHECK(e.sys_path_source == "interpreter");
  REQUIRE(find_fw(e, "torch"));
  CHECK(find_fw(e, "torch")->cpu_only);
  REQUIRE(e.deep);
  REQUIRE(e.deep->error);
  CHECK_THAT(*e.deep->error, Catch::StartsWith("timed_out"));
  CHECK(find_note(f, Reason::timed_out, "deep probe"));
}

namespace {

// The version Debian's python3-torch states in its own metadata.
std::optional<std::string> debian_torch_version() {
  const std::string dir = "/usr/lib/python3/dist-packages";
  if (!fs::exists(dir + "/torch/__init__.py") || !fs::exists("/usr/bin/python3")) return std::nullopt;
  for (auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("torch-", 0) != 0) continue;
    std::string file;
    if (name.size() > 10 && name.substr(name.size() - 10) == ".dist-info") file = entry.path() / "METADATA";
    else if (name.size() > 9 && name.substr(name.size() - 9) == ".egg-info") file = entry.is_directory() ? (entry.path() / "PKG-INFO").string() : entry.path().string();
    else continue;
    std::smatch m;
    const std::string text = gpucheck::test::read_file(file);
    if (std::regex_search(text, m, std::regex("(^|\n)Version: *([^\r\n]+)"))) return m[2].str();
  }
  return std::nullopt;
}

const PythonEnv* env_of(const Facts& f, const std::string& interpreter) {
  for (auto& e : f.software.python)
    if (e.interpreter == interpreter) return &e;
  return nullptr;
}

}  // namespace

TEST_CASE("this machine: Debian's python3-torch is a CPU-only build of its stated version", "[python][probe][live]") {
  const auto expected = debian_torch_version();
  if (!expected) {
    WARN("/usr/bin/python3 has no torch in /usr/lib/python3/dist-packages: skipped");
    return;
  }
  LiveHost host;
  ProbeOptions o;
  o.pythons = {"/usr/bin/python3"};
  auto f = probe_python_only(host, o);
  const auto* e = env_of(f, "/usr/bin/python3");
  REQUIRE(e);
  CHECK(e->sys_path_source == "files");  // Debian's layout needs no interpreter run
  CHECK(e->kind == "system");
  const auto* torch = find_fw(*e, "torch");
  REQUIRE(torch);
  CHECK(torch->version == *expected);
  CHECK(torch->cpu_only);
  CHECK_FALSE(torch->cuda);
  CHECK_FALSE(torch->hip);
  CHECK(torch->source == "/usr/lib/python3/dist-packages/torch/version.py");
}

TEST_CASE("this machine: the deep probe runs under Debian's python3-torch and says CUDA is unavailable", "[python][probe][deep][live]") {
  if (!debian_torch_version()) {
    WARN("/usr/bin/python3 has no torch: skipped");
    return;
  }
  ScopedPath path("/nonexistent");  // only the interpreter named below
  LiveHost host;
  ProbeOptions o;
  o.pythons = {"/usr/bin/python3"};
  o.deep = true;
  o.deep_timeout = Millis(60000);
  const auto start = std::chrono::steady_clock::now();
  auto f = probe_python_only(host, o);
  CHECK(std::chrono::steady_clock::now() - start < o.deep_timeout);
  const auto* e = env_of(f, "/usr/bin/python3");
  REQUIRE(e);
  REQUIRE(e->deep);
  INFO(e->deep->error.value_or(""));
  CHECK_FALSE(e->deep->error);
  const DeepFramework* torch = nullptr;
  for (auto& d : e->deep->frameworks)
    if (d.name == "torch") torch = &d;
  REQUIRE(torch);
  CHECK_FALSE(torch->import_error);
  CHECK(torch->version);
  CHECK(torch->cuda_available == false);
  CHECK(torch->device_count == 0);
  CHECK_FALSE(torch->fp32_matmul_rel_error);  // no GPU: no matmul
  CHECK(torch->float32_matmul_precision);
}

namespace {

// What the interpreter itself prints for sys.path, without "" (the -c entry).
std::vector<std::string> own_sys_path(const std::string& python) {
  std::vector<std::string> out;
  const std::string cmd = python + " -c \"import sys; print('\\n'.join(sys.path))\"";
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return out;
  char line[4096];
  while (std::fgets(line, sizeof line, p)) {
    std::string l(line);
    if (!l.empty() && l.back() == '\n') l.pop_back();
    if (!l.empty()) out.push_back(l);
  }
  ::pclose(p);
  return out;
}

}  // namespace

// The question runs with -S and adds the .pth files' paths itself, and the
// files' answer follows the same rules: both must still be the sys.path the
// interpreter really starts with.
TEST_CASE("this machine: the sys.path, asked or from files, is what the interpreter itself has, without running .pth imports", "[python][probe][live]") {
  if (!fs::exists("/usr/bin/python3")) {
    WARN("no /usr/bin/python3: skipped");
    return;
  }
  TempDir t;
  // A venv as `python3 -m venv` lays it out (without depending on python3-venv).
  std::string minor;
  if (FILE* p = ::popen("/usr/bin/python3 -c \"import sys; print('%d.%d' % sys.version_info[:2])\"", "r")) {
    char buf[32] = {};
    if (std::fgets(buf, sizeof buf, p)) minor = buf;
    ::pclose(p);
  }
  while (!minor.empty() && (minor.back() == '\n' || minor.back() == '\r')) minor.pop_back();
  REQUIRE_FALSE(minor.empty());
  const fs::path venv = t.path() / "venv";
  const fs::path site = venv / ("lib/python" + minor + "/site-packages");
  fs::create_directories(site);
  fs::create_directories(venv / "bin");
  fs::create_symlink("/usr/bin/python3", venv / "bin/python3");
  write_file(venv / "pyvenv.cfg", "home = /usr/bin\ninclude-system-site-packages = false\nversion = " + minor + "\n");
  fs::create_directories(t.path() / "relative");
  fs::create_directories(t.path() / "absolute");
  fs::create_directories(t.path() / "pythonpath");
  const fs::path marker = t.path() / "import-line-ran";
  write_file(site / "a.pth", "# a comment\n../../../../relative\n\n" + (t.path() / "absolute").string() +
                                 "\n/nonexistent/is/left/out\nimport os; open('" + marker.string() + "', 'w').close()\n");
  write_file(site / "b.pth", (t.path() / "absolute").string() + "\n");  // once only, as site does
  ::setenv("PYTHONPATH", (t.path() / "pythonpath").string().c_str(), 1);
  const auto expected = own_sys_path((venv / "bin/python3").string());
  REQUIRE(fs::exists(marker));  // the interpreter's own start-up ran the import line
  fs::remove(marker);

  ScopedPath path("/nonexistent");
  LiveHost host;
  ProbeOptions o;
  o.pythons = {venv.string()};
  auto f = probe_python_only(host, o);
  auto asked = run_process((venv / "bin/python3").string(), {"-S", "-c", kSysPathQuestion}, Millis(30000));
  ::unsetenv("PYTHONPATH");
  const auto* e = env_of(f, (venv / "bin/python3").string());
  REQUIRE(e);
  CHECK(e->sys_path_source == "files");
  CHECK(e->sys_path == expected);
  REQUIRE(asked);
  auto answer = parse_interpreter_answer(asked->out);
  REQUIRE(answer);
  CHECK(answer->path == expected);
  CHECK(std::find(expected.begin(), expected.end(), (t.path() / "relative").string()) != expected.end());
  CHECK(std::count(expected.begin(), expected.end(), (t.path() / "absolute").string()) == 1);
  CHECK(expected.front() == (t.path() / "pythonpath").string());
  CHECK_FALSE(fs::exists(marker));  // gpucheck's question did not run it
}

// Not part of the suite (hidden tag): bench/python_envs.py runs it with
// GPUCHECK_BENCH_ROOT set to the snapshot it built, to time the Python probe
// alone, in-process, without the cost of starting gpucheck or rendering JSON.
TEST_CASE("bench: the Python probe on a snapshot", "[.][bench-python]") {
  const char* root = std::getenv("GPUCHECK_BENCH_ROOT");
  if (!root) {
    WARN("GPUCHECK_BENCH_ROOT is not set: nothing to time");
    return;
  }
  // GPUCHECK_BENCH_PYTHON: probe that interpreter on the live host (files
  // read directly, as on a real machine) instead of replaying the snapshot.
  const char* python = std::getenv("GPUCHECK_BENCH_PYTHON");
  // A fresh host per run: a snapshot's directory cache starts cold, as in a
  // gpucheck run.
  auto fresh_host = [&]() -> std::unique_ptr<Host> {
    if (python) return std::make_unique<LiveHost>();
    auto opened = open_host(root);
    REQUIRE(opened);
    return std::move(opened).value();
  };
  ScopedPath path("/nonexistent");  // only the interpreter named
  ProbeOptions o;
  if (python) o.pythons = {python};
  const int runs = std::getenv("GPUCHECK_BENCH_RUNS") ? std::atoi(std::getenv("GPUCHECK_BENCH_RUNS")) : 30;
  // Wall time, and the process's CPU time (user + system), which a busy
  // machine inflates much less.
  std::vector<double> ms, cpu_ms;
  std::size_t dists = 0;
  for (int i = 0; i < runs + 3; ++i) {
    const auto host = fresh_host();
    const auto start = std::chrono::steady_clock::now();
    const std::clock_t cpu_start = std::clock();
    auto f = probe_python_only(*host, o);
    const std::clock_t cpu_end = std::clock();
    const auto end = std::chrono::steady_clock::now();
    if (i >= 3) {  // 3 warm-up runs
      ms.push_back(std::chrono::duration<double, std::milli>(end - start).count());
      cpu_ms.push_back(1000.0 * static_cast<double>(cpu_end - cpu_start) / CLOCKS_PER_SEC);
    }
    dists = f.software.python.empty() ? 0 : f.software.python[0].distributions.size();
  }
  std::sort(ms.begin(), ms.end());
  std::sort(cpu_ms.begin(), cpu_ms.end());
  std::printf("BENCH python_probe host=%s distributions=%zu runs=%d wall_median_ms=%.2f wall_min_ms=%.2f cpu_median_ms=%.2f cpu_min_ms=%.2f\n",
              python ? "live" : "snapshot", dists, runs, ms[ms.size() / 2], ms.front(), cpu_ms[cpu_ms.size() / 2], cpu_ms.front());
}
