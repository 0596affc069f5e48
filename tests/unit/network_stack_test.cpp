// The network stack beside the RDMA ports (docs/topology.md, "Network"):
// AWS's EFA devices and driver release, NVIDIA HPC-X's release, each read
// by the probe from a copy of the HGX fixture with the files added, then
// compared across nodes by fleet and pinned by lock.
#include <catch2/catch.hpp>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "facts/facts_json.hpp"
#include "fleet/fleet_summary.hpp"
#include "host/hosts.hpp"
#include "probe.hpp"
#include "test_support.hpp"

using namespace gpucheck;
using gpucheck::test::source_path;
using gpucheck::test::write_file;
namespace fs = std::filesystem;

namespace {

struct Node {
  gpucheck::test::TempDir dir;
  fs::path root = dir.path() / "host";
  Node() { fs::copy(source_path("tests/fixtures/hosts/hgx-h100-topology"), root, fs::copy_options::recursive | fs::copy_options::copy_symlinks); }
  // An EFA device as AWS's driver shows it in sysfs: every port ACTIVE, the
  // link layer "Unknown" (drivers/infiniband/core/sysfs.c for UNSPECIFIED).
  void add_efa(bool versioned) {
    write_file(root / "sys/class/infiniband/efa_0/ports/1/state", "4: ACTIVE\n");
    write_file(root / "sys/class/infiniband/efa_0/ports/1/link_layer", "Unknown\n");
    write_file(root / "sys/class/infiniband/efa_0/ports/1/rate", "100 Gb/sec (4X EDR)\n");
    fs::create_directories(root / "sys/class/infiniband/efa_0/device");
    fs::create_symlink("../../../../bus/pci/drivers/efa", root / "sys/class/infiniband/efa_0/device/driver");
    if (versioned) write_file(root / "sys/module/efa/version", "2.13.1g\n");
  }
  Facts probe() const {
    auto host = open_host(root.string());
    REQUIRE(host);
    return run_probes(**host, {});
  }
};

const IbDevice* device(const Facts& f, const std::string& name) {
  for (auto& d : f.network.ib)
    if (d.name == name) return &d;
  return nullptr;
}

}  // namespace

TEST_CASE("EFA: the probe reads the driver and its release, and keeps EFA out of the RDMA ports' facts", "[topology]") {
  Node n;
  n.add_efa(true);
  const Facts f = n.probe();
  const IbDevice* efa = device(f, "efa_0");
  REQUIRE(efa);
  CHECK(efa->driver == "efa");
  CHECK(is_efa(*efa));
  const IbDevice* mlx = device(f, "mlx5_0");
  REQUIRE(mlx);
  CHECK(mlx->driver == "mlx5_core");
  CHECK_FALSE(is_efa(*mlx));
  CHECK(f.network.efa_version == "2.13.1g");
  // The kernel's own efa module has no version file: "inbox", as OFED's.
  Node inbox;
  inbox.add_efa(false);
  const Facts g = inbox.probe();
  CHECK_FALSE(g.network.efa_version);
  std::vector<FleetEntry> fleet;
  fleet.push_back({"a.json", read_node_report(to_json(f).dump(), "a.json")});
  fleet.push_back({"b.json", read_node_report(to_json(f).dump(), "b.json")});
  fleet.push_back({"c.json", read_node_report(to_json(g).dump(), "c.json")});
  const FleetSummary s = summarize_fleet(fleet);
  const FieldSkew& efa_driver = s.skew[index_of(SkewField::efa_driver)];
  REQUIRE(efa_driver.majority);
  CHECK(efa_driver.majority->value == "2.13.1g");
  REQUIRE(efa_driver.others.size() == 1);
  CHECK(efa_driver.others[0].value == "inbox");
  CHECK(efa_driver.others[0].nodes == std::vector<std::string>{"c.json"});
}

TEST_CASE("HPC-X: its release from its VERSION file, else its directory's name, and nodes that differ are named", "[topology][fleet]") {
  Node version_file;
  write_file(version_file.root / "opt/hpcx/VERSION", "HPC-X v2.20\nucx-39c8f9b 1.17.0\n");
  const Facts a = version_file.probe();
  CHECK(a.network.hpcx_version == "2.20");
  CHECK(a.network.hpcx_source == "/opt/hpcx/VERSION");

  // NGC images and NVIDIA's tarballs: hpcx-v<release>-<compiler>-<ofed>-<distro>-<cuda>-<arch>.
  Node linked;
  fs::create_directories(linked.root / "opt/hpcx-v2.17.1-gcc-mlnx_ofed-ubuntu22.04-cuda12-x86_64");
  fs::create_symlink("hpcx-v2.17.1-gcc-mlnx_ofed-ubuntu22.04-cuda12-x86_64", linked.root / "opt/hpcx");
  const Facts b = linked.probe();
  CHECK(b.network.hpcx_version == "2.17.1");

  // A VERSION file of other words and an unversioned directory: unknown, not guessed.
  Node unnamed;
  write_file(unnamed.root / "opt/hpcx/VERSION", "v2.20 maybe\n");
  CHECK_FALSE(unnamed.probe().network.hpcx_version);

  std::vector<FleetEntry> fleet;
  for (const char* node : {"n1.json", "n2.json"}) fleet.push_back({node, read_node_report(to_json(a).dump(), node)});
  fleet.push_back({"n3.json", read_node_report(to_json(b).dump(), "n3.json")});
  const FleetSummary s = summarize_fleet(fleet);
  const FieldSkew& hpcx = s.skew[index_of(SkewField::hpcx)];
  REQUIRE(hpcx.majority);
  CHECK(hpcx.majority->value == "2.20");
  REQUIRE(hpcx.others.size() == 1);
  CHECK(hpcx.others[0].nodes == std::vector<std::string>{"n3.json"});
}
