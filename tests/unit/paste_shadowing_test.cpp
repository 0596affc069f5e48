// A Python package's library that the loader resolves through
// LD_LIBRARY_PATH, read from a paste's `ldd` and `echo $LD_LIBRARY_PATH`
// (block_ldd.cpp, block_env.cpp, import_report.cpp). The text is
// infiniflow/ragflow#4466's (tests/data/pastes-real/), cut to its blocks.
#include <catch2/catch.hpp>

#include "importers/import_report.hpp"
#include "paste_support.hpp"
#include "test_support.hpp"

using namespace gpucheck;
using gpucheck::test::paste;

namespace {

const std::string kLdd =
    "ldd /home/mit/kxyRAG/ragflow/.venv/lib/python3.12/site-packages/torch/lib/../../nvidia/cusparse/lib/libcusparse.so.12\n"
    "\tlinux-vdso.so.1 (0x00007ffebafed000)\n"
    "\tlibnvJitLink.so.12 => /usr/local/cuda-12.1/lib64/libnvJitLink.so.12 (0x000070ddad800000)\n"
    "\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x000070ddad400000)\n"
    "\n";

const ResolvedNeed& only_need(const Facts& f) {
  REQUIRE(f.software.python.size() == 1);
  REQUIRE(f.software.python[0].loader.size() == 1);
  const auto& view = f.software.python[0].loader[0];
  CHECK(view.owner == "nvidia-cusparse");  // the path's "torch/lib/../.." normalised away
  REQUIRE(view.needed.size() == 1);         // GPU libraries only: not libc
  CHECK(view.needed[0].soname == "libnvJitLink.so.12");
  return view.needed[0];
}

}  // namespace

TEST_CASE("an echoed LD_LIBRARY_PATH is read as the variable", "[importers][paste]") {
  const auto f = paste("(ragflow-py3.12) mit@mit-FRONTIER:~/kxyRAG/ragflow$ echo $LD_LIBRARY_PATH\n/usr/local/cuda-12.1/lib64:\n");
  REQUIRE(f.software.gpu_env.count("LD_LIBRARY_PATH") == 1);
  CHECK(f.software.gpu_env.at("LD_LIBRARY_PATH") == "/usr/local/cuda-12.1/lib64:");
}

TEST_CASE("a package's GPU library found in an LD_LIBRARY_PATH directory shadows the wheels'", "[importers][paste]") {
  const auto f = paste(kLdd + "(ragflow-py3.12) mit@mit-FRONTIER:~/kxyRAG/ragflow$ echo $LD_LIBRARY_PATH\n/usr/local/cuda-12.1/lib64:\n");
  const auto& need = only_need(f);
  CHECK(need.via == "LD_LIBRARY_PATH");
  CHECK(need.shadows_bundled);
}

TEST_CASE("without LD_LIBRARY_PATH naming its directory, ldd's answer is no shadowing", "[importers][paste]") {
  // How ldd found it is not said: the loader's cache or a default directory are as likely.
  const auto alone = paste(kLdd);
  CHECK(!only_need(alone).shadows_bundled);
  const auto elsewhere = paste(kLdd + "$ echo $LD_LIBRARY_PATH\n/opt/other/lib\n");
  CHECK(!only_need(elsewhere).shadows_bundled);
}
