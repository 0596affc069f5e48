// The snapshot writer lays out whatever the probes asked, in whatever order
// they asked it, and the copy answers the same questions the same way.
#include <catch2/catch.hpp>
#include <filesystem>

#include "host/hosts.hpp"
#include "test_support.hpp"

using namespace gpucheck;
using gpucheck::test::TempDir;
using gpucheck::test::write_file;
namespace fs = std::filesystem;

namespace {

// A host rooted at `root` (synthetic: a tree made here, shaped as sysfs
// and a toolkit install are on real machines).
std::unique_ptr<Host> host_at(const fs::path& root) {
  write_file(root / ".gpucheck/manifest.json", R"({"format": "gpucheck-snapshot/1"})");
  auto h = open_host(root.string());
  REQUIRE(h);
  return std::move(h).value();
}

// What an answer says, or "" when there was none.
std::string text_of(const Result<std::string>& r) { return r ? *r : std::string(); }

}  // namespace

TEST_CASE("a link read below another link is written where the reader finds it", "[host][snapshot]") {
  // sysfs: /sys/bus/pci/devices/X is itself a link, and the PCI probe reads
  // X/driver through it. Keyed by the path as asked, the writer would have
  // to write through the link it had just made.
  TempDir t;
  const auto root = t.path() / "root";
  fs::create_directories(root / "sys/devices/pci0000:00/0000:00:02.0");
  fs::create_directories(root / "sys/bus/pci/devices");
  fs::create_directories(root / "sys/bus/pci/drivers/bochs-drm");
  fs::create_symlink("../../../devices/pci0000:00/0000:00:02.0", root / "sys/bus/pci/devices/0000:00:02.0");
  fs::create_symlink("../../../bus/pci/drivers/bochs-drm", root / "sys/devices/pci0000:00/0000:00:02.0/driver");
  write_file(root / "sys/devices/pci0000:00/0000:00:02.0/class", "0x030000\n");

  const auto inner = host_at(root);
  RecordingHost rec(*inner);
  const std::string driver = "/sys/bus/pci/devices/0000:00:02.0/driver";
  const auto link = rec.read_link(driver);
  REQUIRE(link);
  REQUIRE(rec.read_file("/sys/bus/pci/devices/0000:00:02.0/class", 4096));

  auto written = rec.write_snapshot((t.path() / "copy").string(), "synthetic sysfs");
  INFO((written ? "" : written.problem().where + ": " + written.problem().detail));
  REQUIRE(written);
  const auto copy = open_host(written->dir);
  REQUIRE(copy);
  CHECK(text_of((*copy)->read_link(driver)) == *link);
  CHECK(text_of((*copy)->read_file("/sys/bus/pci/devices/0000:00:02.0/class", 4096)) == "0x030000\n");
  CHECK(fs::is_symlink(t.path() / "copy/sys/bus/pci/devices/0000:00:02.0"));
}

TEST_CASE("a directory known only to exist still holds what was found below it", "[host][snapshot]") {
  // The toolkit probe asks real_path(/opt/tk) (a directory) and then whether
  // /opt/tk/bin/nvcc exists; nothing lists /opt/tk. Written parent first as
  // an empty file, the directory could not hold nvcc.
  TempDir t;
  const auto root = t.path() / "root";
  write_file(root / "opt/tk/bin/nvcc", "#!/bin/sh\n");
  fs::create_symlink("tk", root / "opt/alias");

  const auto inner = host_at(root);
  RecordingHost rec(*inner);
  REQUIRE(text_of(rec.real_path("/opt/alias")) == "/opt/tk");
  REQUIRE(rec.exists("/opt/tk/bin"));
  REQUIRE(rec.exists("/opt/alias/bin/nvcc"));

  auto written = rec.write_snapshot((t.path() / "copy").string(), "synthetic toolkit");
  INFO((written ? "" : written.problem().where + ": " + written.problem().detail));
  REQUIRE(written);
  const auto copy = open_host(written->dir);
  REQUIRE(copy);
  CHECK(text_of((*copy)->real_path("/opt/alias")) == "/opt/tk");
  CHECK((*copy)->exists("/opt/tk/bin"));
  CHECK((*copy)->exists("/opt/alias/bin/nvcc"));
  CHECK(fs::is_directory(t.path() / "copy/opt/tk/bin"));
}

TEST_CASE("a listed link to a file stays a link in the snapshot", "[host][snapshot]") {
  // Debian's CUDA packages put /usr/local/lib/libcudart.so.13 as a link
  // into the toolkit. One probe lists /usr/local/lib (the link is typed by
  // what it points at: a file), another reads through the link. The
  // listing's placeholder for a file must not be written over the link.
  TempDir t;
  const auto root = t.path() / "root";
  write_file(root / "usr/local/cuda-13.0/lib/libcudart.so.13", "ELF");
  fs::create_directories(root / "usr/local/lib");
  fs::create_symlink("/usr/local/cuda-13.0/lib/libcudart.so.13", root / "usr/local/lib/libcudart.so.13");
  write_file(root / "usr/local/lib/plain.so", "ELF");

  const auto inner = host_at(root);
  RecordingHost rec(*inner);
  REQUIRE(text_of(rec.read_file("/usr/local/lib/libcudart.so.13", 16)) == "ELF");
  const auto listing = rec.list_dir("/usr/local/lib");
  REQUIRE(listing);
  REQUIRE(listing->size() == 2);

  auto written = rec.write_snapshot((t.path() / "copy").string(), "synthetic library directory");
  INFO((written ? "" : written.problem().where + ": " + written.problem().detail));
  REQUIRE(written);
  const auto copy = open_host(written->dir);
  REQUIRE(copy);
  CHECK(text_of((*copy)->read_file("/usr/local/lib/libcudart.so.13", 16)) == "ELF");
  const auto replayed = (*copy)->list_dir("/usr/local/lib");
  REQUIRE(replayed);
  CHECK(replayed->size() == 2);
  CHECK(fs::is_symlink(t.path() / "copy/usr/local/lib/libcudart.so.13"));
}
