// CUDA toolkits and GPU libraries: the parsers, and the real toolkit of the
// CI host (NVIDIA's CUDA 13 from wheels under /usr/local/cuda, with cuDNN
// and NCCL), whose expected versions this test reads from the files itself.
#include <catch2/catch.hpp>
#include <filesystem>
#include <regex>

#include "host/hosts.hpp"
#include "parse/c_header.hpp"
#include "parse/cuda_files.hpp"
#include "probe.hpp"
#include "test_support.hpp"

using namespace gpucheck;
using gpucheck::test::TempDir;
using gpucheck::test::write_file;
namespace fs = std::filesystem;

TEST_CASE("toolkit version files", "[cuda_files]") {
  // The layouts of version.json (CUDA 11.1 and later) and version.txt (up to 11.0).
  CHECK(*cuda_version_from_version_json(R"({"cuda": {"name": "CUDA SDK", "version": "12.4.1"}, "cuda_cudart": {"version": "12.4.127"}})") == "12.4.1");
  CHECK(*cuda_version_from_version_txt("CUDA Version 11.0.228\n") == "11.0.228");
  CHECK(*cuda_version_from_nvcc("nvcc: NVIDIA (R) Cuda compiler driver\nCuda compilation tools, release 13.0, V13.0.88\nBuild cuda_13.0.r13.0/compiler.36424714_0\n") == "13.0.88");
}

TEST_CASE("broken toolkit version files", "[cuda_files][bad-input]") {
  CHECK(cuda_version_from_version_json("{").problem().reason == Reason::malformed);
  CHECK(cuda_version_from_version_json(R"({"cuda": {}})").problem().reason == Reason::malformed);
  CHECK(cuda_version_from_version_json(R"({"cuda": {"version": "twelve"}})").problem().reason == Reason::malformed);
  CHECK_FALSE(cuda_version_from_version_txt(""));
  CHECK_FALSE(cuda_version_from_version_txt("CUDA Version banana"));
  CHECK_FALSE(cuda_version_from_nvcc("nvcc: command not found"));
}

TEST_CASE("integer #defines of a header", "[cuda_files]") {
  auto d = integer_defines("#define CUDNN_MAJOR 9\n#  define CUDNN_MINOR 1 /* minor */\n#define CUDNN_PATCHLEVEL 0\n"
                           "#define CUDNN_VERSION (CUDNN_MAJOR * 10000)\n#define CUDA_VERSION 12040U\n#define NAME \"x\"\n");
  CHECK(d.at("CUDNN_MAJOR") == 9);
  CHECK(d.at("CUDNN_MINOR") == 1);
  CHECK(d.at("CUDA_VERSION") == 12040);
  CHECK(d.count("CUDNN_VERSION") == 0);  // an expression, not a number
  CHECK(d.count("NAME") == 0);
  CHECK(version_from_defines(d, {"CUDNN_MAJOR", "CUDNN_MINOR", "CUDNN_PATCHLEVEL"}) == "9.1.0");
  CHECK_FALSE(version_from_defines(d, {"CUDNN_MAJOR", "NCCL_MINOR"}));
  CHECK(integer_defines(std::string(300, '\xff')).empty());
}

TEST_CASE("object-like macros of a header", "[cuda_files]") {
  auto d = macro_definitions("#define PY_VERSION      \"3.11.7+\"  /* text */\n#define PY_MAJOR_VERSION 3 // major\n"
                             "#define CALL(x) (x)\n#define BARE\n#defineX 1\n  # define NCCL_SUFFIX \"\"\n#define CUDA_VERSION 13000/*c*/\n");
  CHECK(d.at("PY_VERSION") == "3.11.7+");
  CHECK(d.at("PY_MAJOR_VERSION") == "3");
  CHECK(d.at("NCCL_SUFFIX").empty());
  CHECK(d.at("BARE").empty());
  CHECK(d.at("CUDA_VERSION") == "13000");
  CHECK(d.count("CALL") == 0);  // function-like
  CHECK(d.count("X") == 0);
  CHECK(d.size() == 5);
  CHECK(integer_defines("#define CUDA_VERSION 13000/*c*/\n").at("CUDA_VERSION") == 13000);
}

TEST_CASE("dist-info directory names", "[cuda_files]") {
  auto d = parse_dist_info_dir("nvidia_cudnn_cu13-9.19.0.56.dist-info");
  REQUIRE(d);
  CHECK(d->name == "nvidia_cudnn_cu13");
  CHECK(d->version == "9.19.0.56");
  CHECK(parse_dist_info_dir("torch-2.1.0+cu121.dist-info")->version == "2.1.0+cu121");
  CHECK_FALSE(parse_dist_info_dir("torch.egg-info"));
  CHECK_FALSE(parse_dist_info_dir("-1.0.dist-info"));
  CHECK_FALSE(parse_dist_info_dir(".dist-info"));
}

TEST_CASE("mountinfo mount points", "[cuda_files]") {
  // proc(5)'s example line, and a driver library bind-mounted by libnvidia-container.
  auto mp = mountinfo_mount_points(
      "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue\n"
      "612 590 259:1 /usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15 /usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15 ro,nosuid,nodev,relatime - ext4 /dev/nvme0n1p1 rw\n"
      "1 2 3:4 / /with\\040space rw - tmpfs tmpfs rw\n"
      "garbage\n");
  REQUIRE(mp.size() == 3);
  CHECK(mp[0] == "/mnt2");
  CHECK(mp[1] == "/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15");
  CHECK(mp[2] == "/with space");
}

TEST_CASE("toolkits: the active one and the version from the most exact file", "[cuda_toolkits]") {
  TempDir t;
  write_file(t.path() / "usr/local/cuda-11.8/version.json", R"({"cuda": {"name": "CUDA SDK", "version": "11.8.0"}})");
  write_file(t.path() / "usr/local/cuda-11.8/bin/nvcc", "");
  write_file(t.path() / "usr/local/cuda-12.4/version.json", R"({"cuda": {"name": "CUDA SDK", "version": "12.4.1"}})");
  write_file(t.path() / "usr/local/cuda-12.4/bin/nvcc", "");
  write_file(t.path() / "usr/local/cuda-12.4/include/cudnn_version.h", "#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 1\n#define CUDNN_PATCHLEVEL 0\n");
  write_file(t.path() / "usr/local/cuda-12.4/lib64/libcudnn.so.9.1.0", "");
  fs::create_symlink("libcudnn.so.9.1.0", t.path() / "usr/local/cuda-12.4/lib64/libcudnn.so.9");
  write_file(t.path() / "usr/local/cuda-10.2/version.txt", "CUDA Version 10.2.89\n");
  fs::create_directories(t.path() / "usr/local/cuda-empty");
  fs::create_symlink("/usr/local/cuda-12.4", t.path() / "usr/local/cuda");
  SECTION("the /usr/local/cuda link decides when nothing else does") {
    write_file(t.path() / ".gpucheck/manifest.json", R"({"format": "gpucheck-snapshot/1", "env": {"PATH": "/usr/bin"}})");
    auto host = open_host(t.str());
    REQUIRE(host);
    auto f = run_probes(**host, {});
    const auto& tk = f.software.toolkits;
    REQUIRE(tk.size() == 3);  // cuda and cuda-12.4 are one; cuda-empty is no toolkit
    CHECK(tk[0].root == "/usr/local/cuda-10.2");
    CHECK(tk[0].version == "10.2.89");
    CHECK(tk[1].version == "11.8.0");
    CHECK(tk[2].root == "/usr/local/cuda-12.4");
    CHECK(tk[2].version == "12.4.1");
    CHECK(tk[2].active);
    CHECK_FALSE(tk[1].active);
    bool cudnn = false;
    for (auto& l : f.software.libraries)
      if (l.name == "cudnn" && l.found_in == "/usr/local/cuda-12.4") {
        cudnn = true;
        CHECK(l.version == "9.1.0");
        CHECK(l.library == "/usr/local/cuda-12.4/lib64/libcudnn.so.9.1.0");
        CHECK(l.version_source == "/usr/local/cuda-12.4/include/cudnn_version.h");
      }
    CHECK(cudnn);
  }
  SECTION("CUDA_HOME wins over the nvcc on PATH and the link") {
    write_file(t.path() / ".gpucheck/manifest.json",
               R"({"format": "gpucheck-snapshot/1", "env": {"PATH": "/usr/local/cuda-10.2/bin:/usr/bin", "CUDA_HOME": "/usr/local/cuda-11.8"}})");
    write_file(t.path() / "usr/local/cuda-10.2/bin/nvcc", "");
    auto host = open_host(t.str());
    REQUIRE(host);
    auto f = run_probes(**host, {});
    int active = 0;
    for (auto& k : f.software.toolkits) {
      active += k.active;
      if (k.root == "/usr/local/cuda-11.8") CHECK(k.active);
    }
    CHECK(active == 1);
  }
}

TEST_CASE("on the CI host: /usr/local/cuda, cuDNN and NCCL with the versions their own files state", "[cuda_toolkits][real-host]") {
  if (!fs::exists("/usr/local/cuda/include/cuda.h")) {
    WARN("no CUDA toolkit at /usr/local/cuda on this machine");
    return;
  }
  LiveHost host;
  auto f = run_probes(host, {});
  const std::string root = fs::canonical("/usr/local/cuda").string();
  const CudaToolkit* tk = nullptr;
  for (auto& t : f.software.toolkits)
    if (t.root == root) tk = &t;
  REQUIRE(tk);
  // The expected toolkit version, read here from the toolkit's own metadata.
  std::string expected;
  if (fs::exists(root + "/version.json")) {
    std::smatch m;
    const auto text = gpucheck::test::read_file(root + "/version.json");
    REQUIRE(std::regex_search(text, m, std::regex(R"re("cuda"\s*:\s*\{[^}]*"version"\s*:\s*"([^"]+)")re")));
    expected = m[1];
  } else {
    for (auto& e : fs::directory_iterator(root + "/dist-info")) {
      const auto n = e.path().filename().string();
      if (n.rfind("nvidia_cuda_runtime-", 0) == 0) expected = n.substr(20, n.size() - 20 - 10);
    }
  }
  REQUIRE_FALSE(expected.empty());
  CHECK(tk->version == expected);
  // cuDNN and NCCL: the versions their headers state, each with its path.
  auto header_version = [&](const std::string& header, const std::vector<std::string>& macros) {
    const auto text = gpucheck::test::read_file(root + "/include/" + header);
    std::string v;
    for (auto& m : macros) {
      std::smatch sm;
      REQUIRE(std::regex_search(text, sm, std::regex("#define " + m + " (\\d+)")));
      v += (v.empty() ? "" : ".") + sm[1].str();
    }
    return v;
  };
  auto find_lib = [&](const std::string& name) -> const LibraryInstall* {
    for (auto& l : f.software.libraries)
      if (l.name == name && l.found_in == root) return &l;
    return nullptr;
  };
  for (auto [name, header, macros] : std::vector<std::tuple<std::string, std::string, std::vector<std::string>>>{
           {"cudnn", "cudnn_version.h", {"CUDNN_MAJOR", "CUDNN_MINOR", "CUDNN_PATCHLEVEL"}},
           {"nccl", "nccl.h", {"NCCL_MAJOR", "NCCL_MINOR", "NCCL_PATCH"}}}) {
    if (!fs::exists(root + "/include/" + header)) continue;
    INFO(name);
    auto lib = find_lib(name);
    REQUIRE(lib);
    CHECK(lib->version == header_version(header, macros));
    CHECK(lib->version_source == root + "/include/" + header);
    REQUIRE(lib->library);
    CHECK(fs::exists(*lib->library));
  }
}
