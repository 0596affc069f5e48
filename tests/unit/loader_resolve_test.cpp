// Loader resolution: dynamic string tokens, ld.so(8)'s search order (DT_RPATH
// before LD_LIBRARY_PATH, DT_RUNPATH after it), the loader probe over facts
// built here (the Python probe's output is not needed), the
// ld-path-shadows-cudnn fixture, the JSON and text forms, and agreement with
// ldd for a real CUDA library of this machine.
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "facts/json_util.hpp"
#include "host/elf.hpp"
#include "host/hosts.hpp"
#include "host/library_locator.hpp"
#include "host/process.hpp"
#include "probe.hpp"
#include "report/text_writer.hpp"
#include "test_support.hpp"
#include "util/strings.hpp"

using namespace gpucheck;
using gpucheck::test::TempDir;
using gpucheck::test::write_file;
namespace fs = std::filesystem;

namespace {

const std::string kObjects = GPUCHECK_ELF_OBJECTS_DIR;
const std::string kSite = "/venv/lib/python3.11/site-packages";

// A snapshot root with a venv whose torch ships cuDNN in nvidia/cudnn/lib, and
// an older cuDNN on LD_LIBRARY_PATH.
void make_host(const fs::path& root, const std::string& torch_object) {
  const fs::path sp = root / kSite.substr(1);
  fs::create_directories(sp / "torch/lib");
  fs::copy_file(kObjects + "/" + torch_object, sp / "torch/lib/libtorch_cuda.so");
  fs::create_directories(sp / "nvidia/cudnn/lib");
  fs::copy_file(kObjects + "/libcudnn_shim.so", sp / "nvidia/cudnn/lib/libcudnn.so.9");
  write_file(sp / "nvidia/cudnn/lib/libcudnn_graph.so.9", "");
  write_file(sp / "nvidia/cudnn/lib/libcudnn_ops.so.9", "");
  write_file(sp / "nvidia/cuda_runtime/lib/libcudart.so.12", "");
  write_file(root / "opt/old/lib64/libcudnn.so.9.0.0", "");
  fs::create_symlink("libcudnn.so.9.0.0", root / "opt/old/lib64/libcudnn.so.9");
  write_file(root / "opt/old/lib64/libcudnn_graph.so.9.0.0", "");
  fs::create_symlink("libcudnn_graph.so.9.0.0", root / "opt/old/lib64/libcudnn_graph.so.9");
  write_file(root / "opt/old/lib64/libcudart.so.12.2.140", "");
  fs::create_symlink("libcudart.so.12.2.140", root / "opt/old/lib64/libcudart.so.12");
  write_file(root / ".gpucheck/manifest.json",
             R"({"format": "gpucheck-snapshot/1", "uname": {"machine": "x86_64"},
                 "env": {"LD_LIBRARY_PATH": "/opt/old/lib64"}})");
}

std::vector<LoaderView> run_loader(const std::string& root, const std::string& site) {
  auto host = open_host(root);
  REQUIRE(host);
  ProbeContext ctx(**host, {});
  PythonEnv env;
  env.interpreter = "/venv/bin/python3";
  env.kind = "venv";
  env.sys_path = {"/usr/lib/python311.zip", "/venv/lib/python3.11/lib-dynload", site};
  ctx.facts().software.python.push_back(env);
  probe_loader(ctx);
  return ctx.facts().software.python[0].loader;
}

const ResolvedNeed* need(const LoaderView& v, const std::string& soname) {
  for (auto& n : v.needed)
    if (n.soname == soname) return &n;
  return nullptr;
}

}  // namespace

TEST_CASE("$ORIGIN, ${ORIGIN} and $PLATFORM are expanded, $LIB and relative entries are not", "[loader]") {
  const std::string o = "/sp/torch/lib";
  CHECK(expand_search_entry("$ORIGIN/../../nvidia/cudnn/lib", o, "x86_64") == "/sp/nvidia/cudnn/lib");
  CHECK(expand_search_entry("${ORIGIN}/x", o, "x86_64") == "/sp/torch/lib/x");
  CHECK(expand_search_entry("$ORIGIN", o, "x86_64") == "/sp/torch/lib");
  CHECK(expand_search_entry("/opt/$PLATFORM/lib", o, "aarch64") == "/opt/aarch64/lib");
  CHECK(expand_search_entry("/opt/${PLATFORM}", o, "x86_64") == "/opt/x86_64");
  CHECK_FALSE(expand_search_entry("/opt/$LIB", o, "x86_64"));
  CHECK_FALSE(expand_search_entry("$ORIGINAL/x", o, "x86_64"));
  CHECK_FALSE(expand_search_entry("lib", o, "x86_64"));
  CHECK(expand_search_entry("/usr/local/cuda/lib64/", o, "x86_64") == "/usr/local/cuda/lib64");

  ElfDynamic d;
  d.rpath = "$ORIGIN/a:/b:$LIB/c";
  std::vector<std::string> left;
  auto sp = object_search_path(d, "/x/y/lib.so", "x86_64", &left);
  CHECK(sp.rpath == std::vector<std::string>{"/x/y/a", "/b"});
  CHECK(sp.runpath.empty());
  CHECK(left == std::vector<std::string>{"$LIB/c"});
  d.runpath = "$ORIGIN";  // ld.so(8): DT_RPATH is ignored when DT_RUNPATH exists
  sp = object_search_path(d, "/x/y/lib.so", "x86_64");
  CHECK(sp.rpath.empty());
  CHECK(sp.runpath == std::vector<std::string>{"/x/y"});
}

TEST_CASE("ld.so's order: RPATH, LD_LIBRARY_PATH, RUNPATH, cache, default directories", "[loader]") {
  TempDir t;
  write_file(t.path() / "rp/libx.so.1", "");
  write_file(t.path() / "llp/libx.so.1", "");
  write_file(t.path() / "run/libx.so.1", "");
  write_file(t.path() / "usr/lib/x86_64-linux-gnu/libx.so.1", "");
  write_file(t.path() / ".gpucheck/manifest.json",
             R"({"format": "gpucheck-snapshot/1", "uname": {"machine": "x86_64"}, "env": {"LD_LIBRARY_PATH": "/llp"}})");
  auto host = open_host(t.str());
  REQUIRE(host);
  LibraryLocator loc(**host);
  auto a = loc.locate("libx.so.1", ObjectSearchPath{{"/rp"}, {}});
  REQUIRE(a.copies.size() == 3);
  CHECK(a.copies[0].via == "RPATH");
  CHECK(a.copies[1].via == "LD_LIBRARY_PATH");
  CHECK(a.copies[2].via == "default directory");
  auto b = loc.locate("libx.so.1", ObjectSearchPath{{}, {"/run"}});
  REQUIRE(b.copies.size() == 3);
  CHECK(b.copies[0].path == "/llp/libx.so.1");
  CHECK(b.copies[1].via == "RUNPATH");
  CHECK(loc.locate("libx.so.1").copies.size() == 2);  // the old API: no object directories
  CHECK(loc.locate("libnone.so.1", ObjectSearchPath{{"/rp"}, {"/run"}}).copies.empty());
}

TEST_CASE("torch with DT_RPATH keeps its own cuDNN, the shim's RUNPATH lets LD_LIBRARY_PATH shadow the sub-libraries",
          "[loader][probe]") {
  TempDir t;
  make_host(t.path(), "libtorch_cuda_rpath.so");
  const auto views = run_loader(t.str(), kSite);
  REQUIRE(views.size() == 2);
  const auto& torch = views[0];
  CHECK(torch.owner == "torch");
  CHECK(torch.object == kSite + "/torch/lib/libtorch_cuda.so");
  CHECK(torch.rpath.size() == 12);
  CHECK(torch.runpath.empty());
  // Only GPU vendor libraries: torch's own libc10_cuda.so, libc10.so and libtorch_cpu.so are left out.
  CHECK(torch.needed.size() == 9);
  CHECK_FALSE(need(torch, "libc10_cuda.so"));
  CHECK_FALSE(need(torch, "libc10.so"));
  auto* cudnn = need(torch, "libcudnn.so.9");
  REQUIRE(cudnn);
  CHECK(cudnn->path == kSite + "/nvidia/cudnn/lib/libcudnn.so.9");
  CHECK(cudnn->via == std::optional<std::string>("RPATH"));
  CHECK(cudnn->other_copies == std::vector<std::string>{"/opt/old/lib64/libcudnn.so.9"});
  CHECK_FALSE(cudnn->shadows_bundled);
  CHECK_FALSE(cudnn->version);  // the wheel's file has no version in its name
  auto* nccl = need(torch, "libnccl.so.2");
  REQUIRE(nccl);
  CHECK_FALSE(nccl->path);  // not installed anywhere: the loader would fail
  CHECK_FALSE(nccl->via);

  const auto& shim = views[1];
  CHECK(shim.object == kSite + "/nvidia/cudnn/lib/libcudnn.so.9");
  CHECK(shim.runpath == std::vector<std::string>{"$ORIGIN"});
  REQUIRE(shim.needed.size() == 2);  // only the sub-libraries the wheel ships
  auto* graph = need(shim, "libcudnn_graph.so.9");
  REQUIRE(graph);
  CHECK(graph->path == "/opt/old/lib64/libcudnn_graph.so.9");
  CHECK(graph->via == std::optional<std::string>("LD_LIBRARY_PATH"));
  CHECK(graph->version == std::optional<std::string>("9.0.0"));
  CHECK(graph->shadows_bundled);
  CHECK(graph->other_copies == std::vector<std::string>{kSite + "/nvidia/cudnn/lib/libcudnn_graph.so.9"});
  auto* ops = need(shim, "libcudnn_ops.so.9");
  REQUIRE(ops);
  CHECK(ops->via == std::optional<std::string>("RUNPATH"));
  CHECK_FALSE(ops->shadows_bundled);
}

TEST_CASE("torch with DT_RUNPATH: LD_LIBRARY_PATH wins and shadows the wheel's libraries", "[loader][probe]") {
  TempDir t;
  make_host(t.path(), "libtorch_cuda_runpath.so");
  const auto views = run_loader(t.str(), kSite);
  REQUIRE_FALSE(views.empty());
  auto* cudnn = need(views[0], "libcudnn.so.9");
  REQUIRE(cudnn);
  CHECK(cudnn->path == "/opt/old/lib64/libcudnn.so.9");
  CHECK(cudnn->version == std::optional<std::string>("9.0.0"));
  CHECK(cudnn->shadows_bundled);
  auto* cudart = need(views[0], "libcudart.so.12");
  REQUIRE(cudart);
  CHECK(cudart->version == std::optional<std::string>("12.2.140"));
  CHECK(cudart->shadows_bundled);
  // The bundled shim is not what loads, so its sub-libraries are not looked at.
  CHECK(views.size() == 1);
}

TEST_CASE("no framework objects, unreadable objects and $LIB entries become notes, not guesses", "[loader][probe]") {
  TempDir t;
  write_file(t.path() / kSite.substr(1) / "torch/lib/libtorch_cuda.so", "not an elf object at all, just text");
  write_file(t.path() / ".gpucheck/manifest.json", R"({"format": "gpucheck-snapshot/1"})");
  auto host = open_host(t.str());
  REQUIRE(host);
  ProbeContext ctx(**host, {});
  PythonEnv env;
  env.sys_path = {kSite, "relative/dir", ""};
  ctx.facts().software.python.push_back(env);
  probe_loader(ctx);
  CHECK(ctx.facts().software.python[0].loader.empty());
  REQUIRE(ctx.facts().notes.size() == 1);
  CHECK(ctx.facts().notes[0].subject == "loader");
  CHECK_THAT(ctx.facts().notes[0].problem.detail, Catch::Contains("not an ELF"));
}

TEST_CASE("JSON of a loader view: every field, unknown is null", "[loader][json]") {
  LoaderView v;
  v.object = "/sp/torch/lib/libtorch_cuda.so";
  v.owner = "torch";
  v.rpath = {"$ORIGIN"};
  v.needed.push_back({"libnccl.so.2", std::nullopt, std::nullopt, std::nullopt, {}, false});
  v.needed.push_back({"libcudnn.so.9", "/opt/libcudnn.so.9", "LD_LIBRARY_PATH", "9.0.0", {"/sp/libcudnn.so.9"}, true});
  const auto j = to_json(v);
  CHECK(j["object"] == v.object);
  CHECK(j["owner"] == "torch");
  CHECK(j["rpath"] == J::array({"$ORIGIN"}));
  CHECK(j["runpath"] == J::array());
  CHECK(j["needed"][0]["path"].is_null());
  CHECK(j["needed"][0]["via"].is_null());
  CHECK(j["needed"][0]["version"].is_null());
  CHECK(j["needed"][0]["other_copies"] == J::array());
  CHECK(j["needed"][1]["shadows_bundled"] == true);
  CHECK(j["needed"][1]["version"] == "9.0.0");

  Style plain(false);
  Writer w(plain);
  loader_lines(w, v);
  const auto text = w.raw().str();
  CHECK_THAT(text, Catch::Contains("libnccl.so.2") && Catch::Contains("not found"));
  CHECK_THAT(text, Catch::Contains("/opt/libcudnn.so.9 (9.0.0) via LD_LIBRARY_PATH"));
  CHECK_THAT(text, Catch::Contains("shadows the package's own copy"));
}

TEST_CASE("ld-path-shadows-cudnn fixture: torch's cuDNN is named, the shadowed sub-libraries flagged",
          "[loader][fixtures]") {
  const std::string root = gpucheck::test::source_path("tests/fixtures/hosts/ld-path-shadows-cudnn");
  const std::string site = "/home/user/venv/lib/python3.10/site-packages";
  // The committed object is what tests/elf_objects/build.sh builds.
  auto committed = parse_elf_dynamic(gpucheck::test::read_file(root + site + "/torch/lib/libtorch_cuda.so"));
  auto built = parse_elf_dynamic(gpucheck::test::read_file(kObjects + "/libtorch_cuda_rpath.so"));
  REQUIRE(committed);
  REQUIRE(built);
  CHECK(committed->needed == built->needed);
  CHECK(committed->rpath == built->rpath);
  auto shim = parse_elf_dynamic(gpucheck::test::read_file(root + site + "/nvidia/cudnn/lib/libcudnn.so.9"));
  REQUIRE(shim);
  CHECK(shim->runpath == std::optional<std::string>("$ORIGIN"));

  const auto views = run_loader(root, site);
  REQUIRE(views.size() == 2);
  auto* cudnn = need(views[0], "libcudnn.so.9");
  REQUIRE(cudnn);
  CHECK(cudnn->path == site + "/nvidia/cudnn/lib/libcudnn.so.9");
  CHECK(cudnn->via == std::optional<std::string>("RPATH"));
  CHECK(cudnn->other_copies == std::vector<std::string>{"/usr/local/cuda-12.2/lib64/libcudnn.so.9"});
  CHECK_FALSE(cudnn->shadows_bundled);
  REQUIRE(views[1].needed.size() == 7);
  for (auto& n : views[1].needed) {
    INFO(n.soname);
    CHECK(starts_with(*n.path, "/usr/local/cuda-12.2/lib64/"));
    CHECK(n.version == std::optional<std::string>("9.0.0"));
    CHECK(n.shadows_bundled);
  }
}

TEST_CASE("GPU NEEDED entries of a real CUDA library resolve as ldd says", "[loader][real-host]") {
  // libcusolver needs libcublas, libcublasLt, libcusparse and libnvJitLink
  // through DT_RUNPATH $ORIGIN; ldd maps them without a GPU.
  std::string lib;
  std::error_code ec;
  for (auto& e : fs::directory_iterator("/usr/local/cuda/lib64", ec)) {
    const auto name = e.path().filename().string();
    if (starts_with(name, "libcusolver.so.") && std::count(name.begin(), name.end(), '.') == 2) lib = e.path().string();
  }
  if (lib.empty()) {
    WARN("no /usr/local/cuda/lib64/libcusolver.so.N here; skipped");
    return;
  }
  auto ldd = find_program("ldd", "/usr/bin:/bin");
  REQUIRE(ldd);
  auto out = run_process(*ldd, {lib}, Millis(20000));
  REQUIRE(out);
  std::map<std::string, std::string> want;  // soname -> path
  for (auto line : split_lines(out->out)) {
    const auto arrow = line.find(" => ");
    if (arrow == std::string_view::npos) continue;
    const std::string soname(trim(line.substr(0, arrow)));
    auto rest = line.substr(arrow + 4);
    const std::string path(rest.substr(0, rest.find(" (")));
    want[soname] = path;
  }
  LiveHost host;
  LibraryLocator loc(host);
  auto dyn = read_elf_dynamic(host, lib);
  REQUIRE(dyn);
  const auto sp = object_search_path(*dyn, lib, loc.machine());
  int compared = 0;
  for (auto& soname : dyn->needed) {
    if (!starts_with(soname, "libcu") && !starts_with(soname, "libnv")) continue;
    INFO(soname);
    REQUIRE(want.count(soname));
    auto l = loc.locate(soname, sp);
    REQUIRE_FALSE(l.copies.empty());
    CHECK(fs::equivalent(l.copies[0].path, want[soname]));
    ++compared;
  }
  CHECK(compared >= 2);
}
