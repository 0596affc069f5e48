// The ELF dynamic-section parser: synthetic objects built by
// tests/elf_objects, agreement with `readelf -d` on real objects of this
// machine, unsupported classes, truncation at every length, and random
// corruption that must give an error value, never a crash.
#include <catch2/catch.hpp>
#include <filesystem>
#include <random>

#include "host/elf.hpp"
#include "host/hosts.hpp"
#include "host/process.hpp"
#include "test_support.hpp"
#include "util/strings.hpp"

using namespace gpucheck;
namespace fs = std::filesystem;

namespace {

std::string object(const std::string& name) { return gpucheck::test::read_file(std::string(GPUCHECK_ELF_OBJECTS_DIR) + "/" + name); }

const char* kTorchRpath =
    "$ORIGIN/../../nvidia/cublas/lib:$ORIGIN/../../nvidia/cuda_cupti/lib:$ORIGIN/../../nvidia/cuda_nvrtc/lib:"
    "$ORIGIN/../../nvidia/cuda_runtime/lib:$ORIGIN/../../nvidia/cudnn/lib:$ORIGIN/../../nvidia/cufft/lib:"
    "$ORIGIN/../../nvidia/curand/lib:$ORIGIN/../../nvidia/cusolver/lib:$ORIGIN/../../nvidia/cusparse/lib:"
    "$ORIGIN/../../nvidia/nccl/lib:$ORIGIN/../../nvidia/nvtx/lib:$ORIGIN";

// What `readelf -d` says of an object: NEEDED in order, SONAME, RPATH, RUNPATH.
struct Readelf {
  std::vector<std::string> needed;
  std::optional<std::string> soname, rpath, runpath;
};
std::optional<Readelf> readelf(const std::string& path) {
  auto prog = find_program("readelf", "/usr/bin:/bin");
  if (!prog) return std::nullopt;
  auto out = run_process(*prog, {"-d", "-W", path}, Millis(20000));
  if (!out || out->exit_code != 0) return std::nullopt;
  Readelf r;
  for (auto line : split_lines(out->out)) {
    const auto open = line.find('['), close = line.rfind(']');
    if (open == std::string_view::npos || close == std::string_view::npos) continue;
    const std::string value(line.substr(open + 1, close - open - 1));
    if (line.find("(NEEDED)") != std::string_view::npos) r.needed.push_back(value);
    else if (line.find("(SONAME)") != std::string_view::npos) r.soname = value;
    else if (line.find("(RPATH)") != std::string_view::npos) r.rpath = value;
    else if (line.find("(RUNPATH)") != std::string_view::npos) r.runpath = value;
  }
  return r;
}

}  // namespace

TEST_CASE("a synthetic torch object: DT_NEEDED in order, DT_SONAME, DT_RPATH", "[elf]") {
  auto d = parse_elf_dynamic(object("libtorch_cuda_rpath.so"));
  REQUIRE(d);
  CHECK(d->machine == "x86_64");
  CHECK(d->has_dynamic);
  CHECK(d->soname == std::optional<std::string>("libtorch_cuda.so"));
  CHECK(d->rpath == std::optional<std::string>(kTorchRpath));
  CHECK_FALSE(d->runpath);
  const std::vector<std::string> want = {"libc10_cuda.so", "libcudart.so.12", "libcusparse.so.12", "libcufft.so.11",
                                         "libcurand.so.10", "libcublas.so.12", "libcublasLt.so.12", "libcudnn.so.9",
                                         "libnccl.so.2", "libnvToolsExt.so.1", "libc10.so", "libtorch_cpu.so"};
  CHECK(d->needed == want);

  auto r = parse_elf_dynamic(object("libtorch_cuda_runpath.so"));
  REQUIRE(r);
  CHECK(r->runpath == std::optional<std::string>(kTorchRpath));
  CHECK_FALSE(r->rpath);

  auto plain = parse_elf_dynamic(object("libplain.so"));
  REQUIRE(plain);
  CHECK(plain->needed.empty());
  CHECK(plain->soname == std::optional<std::string>("libplain.so.1"));
}

TEST_CASE("the ELF parser agrees with readelf -d on this machine's objects", "[elf][real-host]") {
  // Debian's python3-torch (CPU build) and the CUDA libraries of the CI host;
  // whichever exist are compared, and at least one must.
  std::vector<std::string> paths = {std::string(GPUCHECK_ELF_OBJECTS_DIR) + "/libtorch_cuda_rpath.so"};
  for (const char* dir : {"/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/local/cuda/lib64"}) {
    std::error_code ec;
    for (auto& e : fs::directory_iterator(dir, ec)) {
      const auto name = e.path().filename().string();
      if (e.is_symlink() || !e.is_regular_file()) continue;
      if (starts_with(name, "libtorch_cpu.so.") || starts_with(name, "libtorch_python.so.") ||
          starts_with(name, "libcudnn_adv.so.") || starts_with(name, "libcusolver.so.") || name == "libcudnn.so.9" ||
          starts_with(name, "libcublas.so."))
        paths.push_back(e.path().string());
    }
  }
  LiveHost host;
  int compared = 0;
  for (auto& p : paths) {
    INFO(p);
    auto want = readelf(p);
    if (!want) continue;
    auto got = read_elf_dynamic(host, p);
    REQUIRE(got);
    CHECK(got->needed == want->needed);
    CHECK(got->soname == want->soname);
    CHECK(got->rpath == want->rpath);
    CHECK(got->runpath == want->runpath);
    ++compared;
  }
  CHECK(compared >= 1);
  WARN("compared " << compared << " objects with readelf -d");
}

TEST_CASE("32-bit and big-endian objects are unsupported, with the reason", "[elf][bad-input]") {
  std::string h = object("libplain.so");
  std::string c32 = h;
  c32[4] = 1;
  auto r = parse_elf_dynamic(c32);
  REQUIRE_FALSE(r);
  CHECK_THAT(r.problem().detail, Catch::Contains("unsupported") && Catch::Contains("32-bit"));
  std::string be = h;
  be[5] = 2;
  auto b = parse_elf_dynamic(be);
  REQUIRE_FALSE(b);
  CHECK_THAT(b.problem().detail, Catch::Contains("unsupported") && Catch::Contains("big-endian"));
  CHECK_THAT(parse_elf_dynamic("#!/bin/sh\necho hi\n").problem().detail, Catch::Contains("not an ELF"));
  CHECK(parse_elf_dynamic("").problem().reason == Reason::malformed);
}

TEST_CASE("a truncated object is an error with the offset, at every length", "[elf][bad-input]") {
  const std::string full = object("libtorch_cuda_rpath.so");
  int errors = 0;
  for (std::size_t n = 0; n < full.size(); ++n) {
    auto r = parse_elf_dynamic(std::string_view(full).substr(0, n));
    if (!r) {
      ++errors;
      CHECK(r.problem().reason == Reason::malformed);
      if (n >= 64) CHECK_THAT(r.problem().detail, Catch::Contains("offset"));
    }
  }
  // The section headers and symbol tables after the strings are not needed:
  // a cut there still parses, a cut before the strings does not.
  CHECK(errors > 1000);
}

TEST_CASE("random corruption never crashes the parser", "[elf][bad-input][fuzz]") {
  const std::string base = object("libtorch_cuda_rpath.so");
  std::mt19937 rng(20240611);
  int ok = 0, bad = 0;
  for (int i = 0; i < 400; ++i) {
    std::string b = base;
    const int flips = 1 + static_cast<int>(rng() % 16);
    for (int k = 0; k < flips; ++k) {
      // Bias towards the headers and the dynamic section, where offsets live.
      const std::size_t at = (rng() % 2) ? rng() % 0x600 : rng() % b.size();
      if (at < b.size()) b[at] = static_cast<char>(rng() & 0xff);
    }
    if (rng() % 5 == 0) b.resize(rng() % b.size());
    auto r = parse_elf_dynamic(b);
    if (r) ++ok;
    else {
      ++bad;
      CHECK_FALSE(r.problem().detail.empty());
    }
  }
  CHECK(ok + bad == 400);
}

TEST_CASE("read through a Host: only ranges, and a missing file is absent", "[elf]") {
  LiveHost host(GPUCHECK_ELF_OBJECTS_DIR);
  auto d = read_elf_dynamic(host, "/libtorch_cuda_runpath.so");
  REQUIRE(d);
  CHECK(d->needed.size() == 12);
  CHECK(read_elf_dynamic(host, "/nope.so").problem().reason == Reason::absent);
}
