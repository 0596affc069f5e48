// The links between GPUs and nodes (docs/topology.md): ACS out of a
// bridge's configuration space, the InfiniBand port files, the probes on
// the HGX fixture built from a real board's lspci and ibstat, the facts'
// JSON read back, and fleet naming the nodes whose NCCL net plugin differs.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <filesystem>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>

#include "facts/facts_json.hpp"
#include "facts/pci_vocabulary.hpp"
#include "fleet/fleet_summary.hpp"
#include "gpucheck_run.hpp"
#include "host/hosts.hpp"
#include "importers/gpucheck_json.hpp"
#include "parse/infiniband.hpp"
#include "parse/pci_config.hpp"
#include "paste_support.hpp"
#include "probe.hpp"
#include "test_support.hpp"

using namespace gpucheck;
using gpucheck::test::read_file;
using gpucheck::test::source_path;
using nlohmann::json;

namespace {

const std::string kHgx = source_path("tests/fixtures/hosts/hgx-h100-topology");

Facts probe(const std::string& root) {
  auto host = open_host(root);
  REQUIRE(host);
  return run_probes(**host, {});
}

// A configuration space with the given extended capabilities: {offset, id, next}.
std::string config(std::initializer_list<std::array<unsigned, 3>> caps, std::uint16_t acs_control = 0) {
  std::string b(4096, '\0');
  for (auto [off, id, next] : caps) {
    const std::uint32_t header = id | (1u << 16) | (next << 20);
    for (int i = 0; i < 4; ++i) b[off + i] = static_cast<char>((header >> (8 * i)) & 0xff);
    if (id == 0x0D) {
      b[off + 6] = static_cast<char>(acs_control & 0xff);
      b[off + 7] = static_cast<char>(acs_control >> 8);
    }
  }
  return b;
}

const PciDevice& pci_at(const Facts& f, const std::string& address) {
  for (auto& d : f.pci)
    if (d.address == address) return d;
  FAIL("no PCI device " << address);
  throw;
}

}  // namespace

TEST_CASE("ACS: the control register is found by walking the extended capabilities", "[topology]") {
  // As S7's switch ports list theirs: DSN at 0x100, … ACS at 0x170, AER after it.
  const auto with_acs = config({{0x100, 0x03, 0x150}, {0x150, 0x02, 0x170}, {0x170, 0x0D, 0x1f0}, {0x1f0, 0x01, 0}}, 0x001d);
  auto r = read_acs(with_acs);
  CHECK(r.read == AcsRead::read);
  CHECK(r.control == 0x001d);
  CHECK(acs_words(*r.control) == std::vector<std::string>{"SrcValid", "ReqRedir", "CmpltRedir", "UpstreamFwd"});
  CHECK(acs_redirects_p2p(*r.control));
  CHECK_FALSE(acs_redirects_p2p(0x0011));  // SrcValid and UpstreamFwd only: traffic still turns at the switch
  CHECK(acs_redirects_p2p(0x0020));        // EgressCtrl blocks it

  CHECK(read_acs(config({{0x100, 0x03, 0x150}, {0x150, 0x02, 0}})).read == AcsRead::no_acs);
  // Not root: the kernel shows 64 bytes; a conventional PCI device has 256.
  CHECK(read_acs(std::string(64, '\xff')).read == AcsRead::not_shown);
  CHECK(read_acs(std::string(256, '\0')).read == AcsRead::no_acs);
  // A list that points at itself, or past the space, ends the walk.
  CHECK(read_acs(config({{0x100, 0x03, 0x100}})).read == AcsRead::no_acs);
  CHECK(read_acs(config({{0x100, 0x03, 0xffc}})).read == AcsRead::no_acs);
  CHECK(read_acs(std::string(4096, '\xff')).read == AcsRead::no_acs);
}

TEST_CASE("InfiniBand port files: the state word and the rate", "[topology]") {
  CHECK(ib_state_word("4: ACTIVE\n") == "ACTIVE");
  CHECK(ib_state_word("5: LinkUp") == "LinkUp");
  CHECK(ib_state_word("2: Polling") == "Polling");
  CHECK_FALSE(ib_state_word("ACTIVE"));
  CHECK_FALSE(ib_state_word("4:   "));
  CHECK(ib_rate_gbps("400 Gb/sec (4X NDR)\n") == Approx(400));
  CHECK(ib_rate_gbps("2.5 Gb/sec (1X SDR)") == Approx(2.5));
  CHECK_FALSE(ib_rate_gbps("fast"));
  CHECK_FALSE(ib_rate_gbps("nan Gb/sec"));
  CHECK_FALSE(ib_rate_gbps("-5 Gb/sec (4X)"));
}

TEST_CASE("topology: the HGX fixture's PCIe paths, RDMA ports and NVLinks", "[topology][fixtures]") {
  const Facts f = probe(kHgx);
  // S7: GPU 0000:19:00.0 below root port 15:01.0, switch 16:00.0, its port 17:01.0.
  const auto& gpu = pci_at(f, "0000:19:00.0");
  CHECK(gpu.path.host_bridge == "pci0000:15");
  REQUIRE(gpu.path.bridges.size() == 3);
  CHECK(gpu.path.bridges[0].address == "0000:15:01.0");
  CHECK(gpu.path.bridges[1].address == "0000:16:00.0");
  CHECK(gpu.path.bridges[2].address == "0000:17:01.0");
  CHECK(gpu.path.bridges[2].acs == AcsRead::read);
  CHECK(gpu.path.bridges[2].acs_control == 0);  // S7: ACSCtl all '-' on the switch's ports
  CHECK(gpu.path.bridges[1].acs == AcsRead::no_acs);  // the upstream port lists no ACS
  CHECK(gpu.path.bridges[0].link.current_width == 16);
  CHECK_FALSE(gpu.path.iommu_group);
  CHECK(f.iommu.read);
  CHECK(f.iommu.units.empty());

  REQUIRE(f.network.read);
  REQUIRE(f.network.ib.size() == 12);
  const auto& nic = f.network.ib[0];
  CHECK(nic.name == "mlx5_0");
  CHECK(nic.pci_address == "0000:1a:00.0");
  CHECK(nic.hca_type == "MT4129");
  CHECK(nic.fw_ver == "28.39.1002");
  CHECK(nic.numa_node == 0);
  CHECK(nic.path.bridges.size() == 3);
  REQUIRE(nic.ports.size() == 1);
  CHECK(nic.ports[0].state == "ACTIVE");
  CHECK(nic.ports[0].phys_state == "LinkUp");
  CHECK(nic.ports[0].rate_gbps == Approx(400));
  CHECK(nic.ports[0].link_layer == "Ethernet");
  CHECK(f.network.ib[1].hca_type == "MT4125");  // S8: a ConnectX-6 Dx
  CHECK(f.network.peermem == "nvidia_peermem");
  CHECK_FALSE(f.network.nccl_net_plugin);

  REQUIRE(f.nvlink);
  REQUIRE(f.nvlink->gpus.size() == 8);
  CHECK(f.nvlink->gpus[0].pci_bus_id == "0000:19:00.0");
  CHECK(f.nvlink->gpus[0].links.size() == 18);
}

TEST_CASE("topology: the facts' JSON reads back as written", "[topology][json]") {
  for (const char* name : {"hgx-h100-topology", "hgx-h100-acs-iommu"}) {
    INFO(name);
    const Facts f = probe(source_path(std::string("tests/fixtures/hosts/") + name));
    const auto written = to_json(f);
    auto back = facts_from_json(written.dump(), name);
    REQUIRE(back);
    CHECK(to_json(*back) == written);
  }
  // A report written before these facts has none of their keys: unknown, not an error.
  json old = to_json(probe(kHgx));
  old.erase("iommu");
  old.erase("network");
  old.erase("nvlink");
  for (auto& d : old["pci"]) d.erase("path");
  auto back = facts_from_json(old.dump(), "old.json");
  REQUIRE(back);
  CHECK_FALSE(back->network.read);
  CHECK_FALSE(back->nvlink);
  CHECK(back->pci.at(0).path.bridges.empty());
}

TEST_CASE("fleet: reports that differ only in NCCL's net plugin name the odd nodes", "[topology][fleet]") {
  const json base = to_json(probe(kHgx));
  json with_plugin = base;
  with_plugin["network"]["nccl_net_plugin"] = {{"file", "libnccl-net.so"},
                                               {"path", "/opt/hpcx/nccl_rdma_sharp_plugin/lib/libnccl-net.so"},
                                               {"found_via", "LD_LIBRARY_PATH"}};
  std::vector<FleetEntry> fleet;
  for (const char* n : {"node01.json", "node02.json", "node04.json"}) fleet.push_back({n, read_node_report(base.dump(), n)});
  fleet.push_back({"node03.json", read_node_report(with_plugin.dump(), "node03.json")});
  const FleetSummary s = summarize_fleet(fleet);
  const FieldSkew& plugin = s.skew[index_of(SkewField::nccl_net_plugin)];
  REQUIRE(plugin.majority);
  CHECK(plugin.majority->value == "none");
  REQUIRE(plugin.others.size() == 1);
  CHECK(plugin.others[0].value == "/opt/hpcx/nccl_rdma_sharp_plugin/lib/libnccl-net.so");
  CHECK(plugin.others[0].nodes == std::vector<std::string>{"node03.json"});
  // Nothing else differs.
  for (auto& f : s.skew)
    if (f.field != SkewField::nccl_net_plugin) CHECK_FALSE(f.skewed());
  for (auto field : {SkewField::ofed, SkewField::rdma_firmware, SkewField::gpudirect_rdma}) REQUIRE(s.skew[index_of(field)].majority);
  CHECK(s.skew[index_of(SkewField::ofed)].majority->value == "inbox");
  CHECK(s.skew[index_of(SkewField::rdma_firmware)].majority->value == "22.39.1002, 28.39.1002");
  CHECK(s.skew[index_of(SkewField::gpudirect_rdma)].majority->value == "nvidia_peermem");
}

// Live, as a launcher runs it: the binary with the fake libcuda and the fake
// NVML (tests/fake_cuda) as this host's driver, no nvidia-smi on PATH.
TEST_CASE("NVLink through NVML in its own child: links down, counters, a hang costs only them", "[cli][fake_cuda][topology]") {
  gpucheck::test::TempDir t;
  const std::string dev = "bus=0000:18:00.0 name=\"NVIDIA H100 80GB HBM3\"";
  gpucheck::test::write_file(t.path() / "cuda.txt",
                             "driver_version 12020\ndevice name=\"NVIDIA H100 80GB HBM3\" uuid=GPU-5e7a1c0b-9f3d-4a6e-8b21-0c4d7e9f1a23 "
                             "cc=9.0 sms=132 mem=85520809984 bus=0000:18:00.0\ndevice name=\"NVIDIA H100 80GB HBM3\" "
                             "uuid=GPU-7c3cadbd-17e5-0913-f69b-c618122ea0cd cc=9.0 sms=132 mem=85520809984 bus=0000:2A:00.0\n");
  std::filesystem::create_directories(t.path() / "bin");
  const auto env_with = [&](const std::string& nvml) {
    gpucheck::test::write_file(t.path() / "nvml.txt", nvml);
    return std::vector<std::string>{"PATH=" + t.str() + "/bin:/usr/bin:/bin", "LD_LIBRARY_PATH=" + std::string(GPUCHECK_FAKE_CUDA_DIR),
                                    "GPUCHECK_FAKE_CUDA=" + t.str() + "/cuda.txt", "GPUCHECK_FAKE_NVML=" + t.str() + "/nvml.txt"};
  };
  const std::string two = "driver 535.104.05\ndevice " + dev + " nvlinks=18 nvlink_down=3 nvlink_replay=5\ndevice " +
                          "bus=0000:2a:00.0 name=\"NVIDIA H100 80GB HBM3\" nvlinks=18\n";
  auto r = gpucheck::test::run_gpucheck_with(env_with(two), "", {"check", "--json"});
  INFO(r.err);
  const json j = json::parse(r.out);
  const json& gpus = j["facts"]["nvlink"]["gpus"];
  REQUIRE(gpus.size() == 2);
  CHECK(gpus[0]["pci_bus_id"] == "0000:18:00.0");
  REQUIRE(gpus[0]["links"].size() == 18);
  CHECK(gpus[0]["links"][3]["active"] == false);
  CHECK(gpus[0]["links"][0]["replay"] == 5);
  CHECK(gpus[0]["links"][0]["version"] == 6);
  CHECK(gpus[0]["links"][0]["remote_pci"].is_null());
  std::set<std::string> rules;
  for (auto& f : j["findings"]) rules.insert(f["rule"].get<std::string>());
  CHECK(rules.count("nvlink-link-down") == 1);
  CHECK(rules.count("nvlink-error-counters") == 1);
  CHECK(r.exit_code == 1);

  // No NVLink at all (a PCIe card): no links, no finding.
  r = gpucheck::test::run_gpucheck_with(env_with("device " + dev + "\n"), "", {"probe", "--json"});
  CHECK(json::parse(r.out)["nvlink"]["gpus"][0]["links"].empty());

  // A hung NVLink query: its facts unknown, timed out, the rest of the run answered.
  r = gpucheck::test::run_gpucheck_with(env_with("hang nvmlDeviceGetNvLinkState\ndevice " + dev + " nvlinks=18\n"), "",
                                        {"--timeout", "3", "probe", "--json"});
  const json hung = json::parse(r.out);
  CHECK(hung["nvlink"].is_null());
  CHECK(hung["nvidia_smi"]["gpus"].size() == 1);
  bool noted = false;
  for (auto& n : hung["notes"]) noted |= n["subject"] == "nvlink" && n["reason"] == "timed_out";
  CHECK(noted);
}

TEST_CASE("pastes: ibstat and nvidia-smi nvlink -s are read as the probes read sysfs and NVML", "[topology][paste]") {
  // S8 of hgx-h100-topology: 12 RoCE HCAs, mlx5_5 Down/Disabled, mlx5_11 Down/Polling.
  const Facts roce = gpucheck::test::paste(read_file(source_path("tests/fixtures/captures/hgx-h100-roce_ibstat.txt")));
  REQUIRE(roce.network.read);
  REQUIRE(roce.network.ib.size() == 12);
  const auto& d0 = roce.network.ib[0];
  CHECK(d0.name == "mlx5_0");
  CHECK(d0.hca_type == "MT4129");
  CHECK(d0.fw_ver == "28.39.1002");
  REQUIRE(d0.ports.size() == 1);
  CHECK(d0.ports[0].state == "ACTIVE");
  CHECK(d0.ports[0].phys_state == "LinkUp");
  CHECK(d0.ports[0].rate_gbps == Approx(400));
  CHECK(d0.ports[0].link_layer == "Ethernet");
  int down = 0;
  for (auto& d : roce.network.ib) down += d.ports.at(0).state == "DOWN";
  CHECK(down == 2);

  // A ConnectX-3 with two ports, one InfiniBand and one Ethernet, both down.
  const Facts cx3 = gpucheck::test::paste(read_file(source_path("tests/data/links/ibstat_connectx3-port-down.txt")));
  REQUIRE(cx3.network.ib.size() == 1);
  REQUIRE(cx3.network.ib[0].ports.size() == 2);
  CHECK(cx3.network.ib[0].ports[0].state == "DOWN");
  CHECK(cx3.network.ib[0].ports[0].phys_state == "Polling");
  CHECK(cx3.network.ib[0].ports[0].link_layer == "InfiniBand");
  CHECK(cx3.network.ib[0].ports[1].link_layer == "Ethernet");

  const std::string nvlink = read_file(source_path("tests/data/links/nvlink-s_a100-sxm4-8gpu.txt"));
  const Facts a100 = gpucheck::test::paste(nvlink);
  REQUIRE(a100.nvlink);
  REQUIRE(a100.nvlink->gpus.size() == 8);
  CHECK(a100.nvlink->gpus[7].links.size() == 12);
  REQUIRE(a100.nvidia_smi);
  CHECK(a100.nvidia_smi->gpus.at(0).product_name == "NVIDIA A100-SXM4-80GB");
}

TEST_CASE("check --from: an NVLink down or a rail down in a paste is judged, what it does not show is not", "[cli][topology][paste]") {
  gpucheck::test::TempDir t;
  std::string nvlink = read_file(source_path("tests/data/links/nvlink-s_a100-sxm4-8gpu.txt"));
  // Synthetic: GPU 2's link 5 inactive, as nvidia-smi prints a link that is down.
  const auto gpu2 = nvlink.find("GPU 2:");
  const auto at = nvlink.find("Link 5: 25 GB/s", gpu2);
  REQUIRE(at != std::string::npos);
  nvlink.replace(at, std::string("Link 5: 25 GB/s").size(), "Link 5: <inactive>");
  gpucheck::test::write_file(t.path() / "nvlink.txt", nvlink);
  auto r = gpucheck::test::run_gpucheck({"check", "--from", (t.path() / "nvlink.txt").string(), "--json"});
  json j = json::parse(r.out);
  std::set<std::string> rules;
  for (auto& f : j["findings"]) rules.insert(f["rule"].get<std::string>());
  CHECK(rules.count("nvlink-link-down") == 1);
  CHECK(r.exit_code == 1);

  // The ibstat of two rails down, pasted alone: ports down beside their peers
  // (no PCIe paths in a paste, so no rail is known: warnings), no GPUDirect
  // RDMA verdict (a paste does not show the modules), and no pass.
  r = gpucheck::test::run_gpucheck({"check", "--from", source_path("tests/fixtures/captures/hgx-h100-roce_ibstat.txt"), "--json"});
  j = json::parse(r.out);
  rules.clear();
  for (auto& f : j["findings"]) rules.insert(f["rule"].get<std::string>());
  CHECK(rules.count("rdma-port-down") == 1);
  CHECK(rules.count("gpudirect-rdma-missing") == 0);
  CHECK(j["verdict"] != "pass");
}

namespace {

// The HGX fixture's facts as `probe --json` writes them, changed by `edit`,
// judged by `check --from` of the release binary: the rules that fired.
using OJ = nlohmann::ordered_json;  // as gpucheck writes it: "schema" first

std::set<std::string> judged_after(const std::function<void(OJ&)>& edit) {
  OJ facts = to_json(probe(kHgx));
  edit(facts);
  gpucheck::test::TempDir t;
  gpucheck::test::write_file(t.path() / "facts.json", facts.dump());
  auto r = gpucheck::test::run_gpucheck({"check", "--from", (t.path() / "facts.json").string(), "--json"});
  INFO("exit " << r.exit_code << ": " << r.err);
  REQUIRE((r.exit_code == 0 || r.exit_code == 1));
  const json report = json::parse(r.out);
  std::set<std::string> rules;
  for (auto& f : report["findings"]) rules.insert(f["rule"].get<std::string>());
  return rules;
}

OJ& ib(OJ& facts, const std::string& name) {
  for (auto& d : facts["network"]["ib"])
    if (d["name"] == name) return d;
  FAIL("no " << name);
  throw;
}

}  // namespace

TEST_CASE("links: a healthy node is not failed, a crafted report does not crash", "[cli][topology][hostile]") {
  // A storage ConnectX-7 (the rails' model) on a root port of its own, its
  // second port unused: a warning, never a rail down.
  auto rules = judged_after([](OJ& f) {
    for (const char* name : {"mlx5_7", "mlx5_8"}) {
      OJ& d = ib(f, name);
      d["hca_type"] = "MT4129";
      d["path"]["host_bridge"] = "pci0000:e0";
      d["path"]["bridges"] = OJ::parse(R"([{"address": "0000:e0:01.0", "link": {}, "acs_read": "no_acs", "acs": null}])");
    }
    ib(f, "mlx5_8")["ports"][0]["state"] = "DOWN";
    ib(f, "mlx5_8")["ports"][0]["phys_state"] = "Disabled";
  });
  CHECK(rules.count("rdma-rail-port-down") == 0);
  CHECK(rules.count("rdma-port-down") == 1);

  // A dual-port NIC alone below a port whose ACS redirects, a translating
  // IOMMU, no GPU beside it: no peer-to-peer path, no ACS finding.
  rules = judged_after([](OJ& f) {
    for (const char* name : {"mlx5_7", "mlx5_8"}) {
      OJ& d = ib(f, name);
      d["path"]["host_bridge"] = "pci0000:e0";
      d["path"]["bridges"] = OJ::parse(R"([{"address": "0000:e0:01.0", "link": {}, "acs_read": "no_acs", "acs": null},
                                              {"address": "0000:e1:00.0", "link": {}, "acs_read": "no_acs", "acs": null},
                                              {"address": "0000:e2:00.0", "link": {}, "acs_read": "read",
                                               "acs": {"control": "001d", "enabled": ["SrcValid", "ReqRedir", "CmpltRedir", "UpstreamFwd"]}}])");
    }
    for (auto& d : f["pci"]) d["path"]["iommu_type"] = "DMA-FQ";
  });
  CHECK(rules.count("p2p-acs-iommu") == 0);
  CHECK(rules.count("p2p-acs-redirect") == 0);

  // Bridges without a host bridge, a rate past any link's, every counter at
  // its maximum: read, judged, no crash, no wrap.
  rules = judged_after([](OJ& f) {
    ib(f, "mlx5_3")["path"]["host_bridge"] = nullptr;
    ib(f, "mlx5_4")["ports"][0]["rate_gbps"] = 1e300;
    auto& link = f["nvlink"]["gpus"][0]["links"][0];
    for (const char* c : {"replay", "recovery", "crc_flit", "crc_data"}) link[c] = std::numeric_limits<std::uint64_t>::max();
  });
  CHECK(rules.count("nvlink-error-counters") == 1);
  CHECK(rules.count("rdma-port-slow") == 0);

  // A GPU whose NVML knows fewer links, none of them down (a truncated
  // listing): not a link down.
  rules = judged_after([](OJ& f) { f["nvlink"]["gpus"][2]["links"] = OJ::array({f["nvlink"]["gpus"][2]["links"][0]}); });
  CHECK(rules.count("nvlink-link-down") == 0);
}

// A snapshot is a stranger's directory: its sysfs files may be FIFOs, huge,
// or not UTF-8. Each costs only its own fact, in bounded time.
TEST_CASE("links: a hostile snapshot's sysfs files: a FIFO, a huge config, bytes that are not UTF-8", "[cli][topology][hostile]") {
  gpucheck::test::TempDir t;
  const auto root = t.path() / "node";
  std::filesystem::copy(kHgx, root, std::filesystem::copy_options::recursive | std::filesystem::copy_options::copy_symlinks);
  const auto port = root / "sys/devices/pci0000:15/0000:15:01.0/0000:16:00.0/0000:17:02.0/0000:1a:00.0/infiniband/mlx5_0/ports/1";
  std::filesystem::remove(port / "state");
  REQUIRE(::mkfifo((port / "state").c_str(), 0600) == 0);  // a read would wait forever
  gpucheck::test::write_file(port / "rate", "400 Gb/sec \xff\xfe (4X NDR)\n");
  gpucheck::test::write_file(root / "sys/devices/pci0000:15/0000:15:01.0/0000:16:00.0/0000:17:01.0/config", std::string(16 << 20, '\x0d'));
  gpucheck::test::write_file(root / "sys/class/infiniband/mlx5_1/hca_type", "MT\xc3\x28\n");
  auto r = gpucheck::test::run_gpucheck({"--timeout", "10", "--root", root.string(), "probe", "--json"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const json j = json::parse(r.out);  // valid JSON: the bytes that are not UTF-8 are replaced, with a note
  const json* mlx5_0 = nullptr;
  for (auto& d : j["network"]["ib"])
    if (d["name"] == "mlx5_0") mlx5_0 = &d;
  REQUIRE(mlx5_0);
  CHECK((*mlx5_0)["ports"][0]["state"].is_null());  // the FIFO is not read
  // The rate's number is read; its bytes that are not UTF-8 become U+FFFD, said in a note.
  CHECK((*mlx5_0)["ports"][0]["rate_gbps"] == 400);
  CHECK_THAT((*mlx5_0)["ports"][0]["rate"].get<std::string>(), Catch::Contains("\xef\xbf\xbd"));
  bool replaced = false;
  for (auto& n : j["notes"]) replaced |= n["detail"].get<std::string>().find("not UTF-8") != std::string::npos;
  CHECK(replaced);
  CHECK(j["network"]["ib"].size() == 12);
  // The huge config is read to its first 4 KiB: a configuration space's size.
  bool bridge_seen = false;
  for (auto& d : j["pci"])
    for (auto& b : d["path"]["bridges"])
      if (b["address"] == "0000:17:01.0") bridge_seen = true;
  CHECK(bridge_seen);
}
