// The sys.path worked out from files is the one the interpreter gives: for
// every Python 3 on this machine (Debian's /usr/bin/python3 and each pyenv
// version), plain, with a user site and .pth files, with PYTHONPATH, with
// PYTHONNOUSERSITE, through a symbolic link, and in venvs with and without
// the system's site-packages. Layouts whose rules are not followed are
// refused, never guessed.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "host/hosts.hpp"
#include "host/process.hpp"
#include "python_sys_path.hpp"
#include "test_support.hpp"

using namespace gpucheck;
using gpucheck::test::ScopedEnv;
using gpucheck::test::TempDir;
using gpucheck::test::write_file;
namespace fs = std::filesystem;

namespace {

// Every Python 3 interpreter this machine has: Debian's, and pyenv's.
std::vector<std::string> interpreters() {
  std::vector<std::string> out;
  if (fs::exists("/usr/bin/python3")) out.push_back("/usr/bin/python3");
  const char* home = std::getenv("HOME");
  const std::string root = std::getenv("PYENV_ROOT") ? std::getenv("PYENV_ROOT") : home ? std::string(home) + "/.pyenv" : "";
  std::error_code ec;
  if (!root.empty())
    for (auto& v : fs::directory_iterator(root + "/versions", ec))
      if (v.path().filename().string().rfind("3.", 0) == 0 && fs::exists(v.path() / "bin/python3")) out.push_back((v.path() / "bin/python3").string());
  std::sort(out.begin(), out.end());
  return out;
}

InterpreterAnswer ask(const std::string& interpreter) {
  auto run = run_process(interpreter, {"-S", "-c", kSysPathQuestion}, Millis(30000));
  REQUIRE(run);
  INFO(run->err);
  REQUIRE(run->exit_code == 0);
  auto a = parse_interpreter_answer(run->out);
  REQUIRE(a);
  return *a;
}

std::string python_xy(const std::string& interpreter) {
  const auto a = ask(interpreter);
  return a.version.substr(0, a.version.rfind('.'));
}

// The files' answer equals the interpreter's, entry for entry.
void check_same(const std::string& interpreter) {
  INFO("interpreter " << interpreter);
  const auto asked = ask(interpreter);
  auto host = open_host("/");
  REQUIRE(host);
  const auto files = sys_path_from_files(**host, interpreter);
  if (!files) FAIL_CHECK("not settled from files: " << files.problem().where << ": " << files.problem().detail);
  REQUIRE(files);
  CHECK(files->path == asked.path);
  CHECK(files->prefix == asked.prefix);
  CHECK(files->base_prefix == asked.base_prefix);
  CHECK(files->version == asked.version);
}

void make_venv(const std::string& interpreter, const fs::path& dir, bool system_site) {
  std::vector<std::string> args{"-m", "venv", "--without-pip"};
  if (system_site) args.push_back("--system-site-packages");
  args.push_back(dir.string());
  auto run = run_process(interpreter, args, Millis(60000));
  REQUIRE(run);
  INFO(run->err);
  REQUIRE(run->exit_code == 0);
}

// A clean environment for the question: none of the variables that move
// sys.path, and a home of our own.
struct QuietEnv {
  TempDir home;
  ScopedEnv h{"HOME", home.str()};
  ScopedEnv pp{"PYTHONPATH", std::nullopt}, ph{"PYTHONHOME", std::nullopt}, ub{"PYTHONUSERBASE", std::nullopt},
      nus{"PYTHONNOUSERSITE", std::nullopt}, pl{"PYTHONPLATLIBDIR", std::nullopt}, sp{"PYTHONSAFEPATH", std::nullopt};
};

// A site directory with .pth files: path lines (relative, absolute, one
// that does not exist), a comment, an import line, a hidden file, CRLF.
void write_pth_files(const fs::path& site, const fs::path& extra) {
  fs::create_directories(extra / "rel");
  fs::create_directories(extra / "abs");
  write_file(site / "a.pth", "# a comment\n" + fs::relative(extra / "rel", site).string() + "\n\nimport os\n/does/not/exist\n");
  write_file(site / "b.pth", (extra / "abs").string() + "/  \r\n" + (extra / "rel").string() + "\r\n");
  write_file(site / ".hidden.pth", (extra / "hidden").string() + "\n");
  fs::create_directories(extra / "hidden");
}

// A synthetic tree of Debian's python3.11 (a fake ELF, the stdlib landmark,
// the real Debian site.py of this machine, HOME=/root); false where this
// machine has no Debian python3.11 to copy site.py from.
bool debian_tree(const fs::path& root) {
  const std::string site_py = "/usr/lib/python3.11/site.py";
  if (!fs::exists(site_py) || gpucheck::test::read_file(site_py).find("dist-packages") == std::string::npos) return false;
  write_file(root / "usr/bin/python3.11", std::string("\x7f" "ELF", 4) + std::string(60, '\0'));
  write_file(root / "usr/lib/python3.11/os.py", "");
  write_file(root / "usr/lib/python3.11/site.py", gpucheck::test::read_file(site_py));
  fs::create_directories(root / "usr/lib/python3.11/lib-dynload");
  write_file(root / ".gpucheck/manifest.json", R"({"format": "gpucheck-snapshot/1", "env": {"HOME": "/root"}})");
  return true;
}

}  // namespace

TEST_CASE("sys.path from files: each interpreter as it is", "[python][sys_path]") {
  const auto all = interpreters();
  REQUIRE_FALSE(all.empty());  // Debian's python3 is a build dependency
  QuietEnv q;
  for (auto& i : all) check_same(i);
}

TEST_CASE("sys.path from files: the user site and its .pth files", "[python][sys_path]") {
  for (auto& i : interpreters()) {
    QuietEnv q;
    const auto site = q.home.path() / (".local/lib/python" + python_xy(i) + "/site-packages");
    write_pth_files(site, q.home.path() / "extra");
    check_same(i);
    ScopedEnv off("PYTHONNOUSERSITE", std::string("1"));
    check_same(i);
  }
}

TEST_CASE("sys.path from files: PYTHONPATH and PYTHONUSERBASE", "[python][sys_path]") {
  for (auto& i : interpreters()) {
    QuietEnv q;
    fs::create_directories(q.home.path() / "lib1");
    ScopedEnv pp("PYTHONPATH", q.home.str() + "/lib1/:" + q.home.str() + "/missing/../lib2");
    const auto base = q.home.path() / "userbase";
    fs::create_directories(base / ("lib/python" + python_xy(i) + "/site-packages"));
    ScopedEnv ub("PYTHONUSERBASE", base.string());
    check_same(i);
  }
}

TEST_CASE("sys.path from files: an interpreter reached through a link", "[python][sys_path]") {
  for (auto& i : interpreters()) {
    QuietEnv q;
    fs::create_directories(q.home.path() / "bin");
    fs::create_symlink(fs::canonical(i), q.home.path() / "bin/python3");
    check_same((q.home.path() / "bin/python3").string());
  }
}

TEST_CASE("sys.path from files: venvs with and without the system's packages", "[python][sys_path]") {
  for (auto& i : interpreters()) {
    for (bool system_site : {false, true}) {
      QuietEnv q;
      const auto dir = q.home.path() / "venv";
      make_venv(i, dir, system_site);
      const auto site = dir / ("lib/python" + python_xy(i) + "/site-packages");
      write_pth_files(site, q.home.path() / "extra");
      // The user site is seen only when the venv lets the system in.
      fs::create_directories(q.home.path() / (".local/lib/python" + python_xy(i) + "/site-packages"));
      check_same((dir / "bin/python3").string());
      check_same((dir / "bin/python").string());
    }
  }
}

TEST_CASE("sys.path from files: layouts whose rules are not followed are refused", "[python][sys_path]") {
  QuietEnv q;
  auto host = open_host("/");
  REQUIRE(host);
  const auto root = q.home.path();
  const std::string elf = std::string("\x7f" "ELF", 4) + std::string(60, '\0');

  SECTION("a wrapper script") {
    write_file(root / "bin/python3", "#!/bin/sh\nexec /usr/bin/python3 \"$@\"\n");
    auto r = sys_path_from_files(**host, (root / "bin/python3").string());
    REQUIRE_FALSE(r);
    CHECK_THAT(r.problem().detail, Catch::Contains("wrapper script"));
  }
  SECTION("Python 2") {
    write_file(root / "bin/python2.7", elf);
    auto r = sys_path_from_files(**host, (root / "bin/python2.7").string());
    REQUIRE_FALSE(r);
    CHECK_THAT(r.problem().detail, Catch::Contains("Python 2.7"));
  }
  SECTION("no stdlib above the executable") {
    write_file(root / "opt/bin/python3.12", elf);
    auto r = sys_path_from_files(**host, (root / "opt/bin/python3.12").string());
    REQUIRE_FALSE(r);
    CHECK_THAT(r.problem().detail, Catch::Contains("lib/python3.12/os.py"));
  }
  SECTION("a distribution's own site.py (Fedora's /usr/local outside RPM builds)") {
    write_file(root / "usr/bin/python3.12", elf);
    write_file(root / "usr/lib/python3.12/os.py", "");
    fs::create_directories(root / "usr/lib/python3.12/lib-dynload");
    write_file(root / "usr/lib/python3.12/site.py", "def getsitepackages():\n    if 'RPM_BUILD_ROOT' not in os.environ: PREFIXES.insert(0, '/usr/local')\n");
    auto r = sys_path_from_files(**host, (root / "usr/bin/python3.12").string());
    REQUIRE_FALSE(r);
    CHECK_THAT(r.problem().detail, Catch::Contains("patched"));
  }
  SECTION("a relative PYTHONPATH entry") {
    ScopedEnv pp("PYTHONPATH", std::string("src:/abs"));
    auto r = sys_path_from_files(**host, "/usr/bin/python3");
    REQUIRE_FALSE(r);
    CHECK_THAT(r.problem().detail, Catch::Contains("working directory"));
  }
}

// Debian's python3.11 without python3.11-dev: no patchlevel.h, so the full
// version comes from its package (synthetic tree: a fake ELF, the real
// Debian site.py where this machine has one, a dpkg stanza).
TEST_CASE("sys.path from files: Debian's version from its package when the headers are absent", "[python][sys_path]") {
  QuietEnv q;
  const auto root = q.home.path() / "root";
  if (!debian_tree(root)) {
    WARN("no Debian python3.11 here: skipped");
    return;
  }
  fs::create_directories(root / "usr/lib/python3/dist-packages");
  write_file(root / "var/lib/dpkg/status",
             "Package: python3.11-minimal\nStatus: install ok installed\nVersion: 3.11.2-6+deb12u6\n\n");
  auto host = open_host(root.string());
  REQUIRE(host);
  auto r = sys_path_from_files(**host, "/usr/bin/python3.11");
  if (!r) FAIL(r.problem().where << ": " << r.problem().detail);
  CHECK(r->version == "3.11.2");
  CHECK(r->path == std::vector<std::string>{"/usr/lib/python311.zip", "/usr/lib/python3.11", "/usr/lib/python3.11/lib-dynload",
                                            "/usr/lib/python3/dist-packages"});
}

// Hostile .pth files in a site directory: a FIFO, invalid UTF-8 and NULs,
// and one past the 1 MiB read bound. None hangs or aborts; no line of them
// names an existing directory, so sys.path is as without them.
TEST_CASE("sys.path from files: hostile .pth files are read safely", "[python][sys_path][bad-input]") {
  QuietEnv q;
  const auto root = q.home.path() / "root";
  if (!debian_tree(root)) {
    WARN("no Debian python3.11 here: skipped");
    return;
  }
  const auto site = root / "usr/lib/python3/dist-packages";
  fs::create_directories(site);
  REQUIRE(::mkfifo((site / "a-fifo.pth").c_str(), 0600) == 0);
  write_file(site / "b-bytes.pth", std::string("\xff\xfe\x00/usr\x00\n\xc3\x28..\n", 13));
  write_file(site / "c-huge.pth", std::string(3u << 20, 'x') + "\n/usr\n");
  auto host = open_host(root.string());
  REQUIRE(host);
  auto r = sys_path_from_files(**host, "/usr/bin/python3.11");
  if (!r) FAIL(r.problem().where << ": " << r.problem().detail);
  CHECK(r->path == std::vector<std::string>{"/usr/lib/python311.zip", "/usr/lib/python3.11", "/usr/lib/python3.11/lib-dynload",
                                            "/usr/lib/python3/dist-packages"});
}
