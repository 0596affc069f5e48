// Pasted `lspci -vvv` and `nvidia-smi topo -m`/`-p2p` (docs/topology.md,
// "Pastes"): the PCIe tree above the GPUs and NICs, read from the real
// capture the HGX fixture was built from and compared with what the sysfs
// probe reads of that fixture; the topo matrices between GPUs; each judged
// by `check --from` as a user would run it.
#include <catch2/catch.hpp>

#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "facts/pci_vocabulary.hpp"
#include "gpucheck_run.hpp"
#include "host/hosts.hpp"
#include "paste_support.hpp"
#include "probe.hpp"
#include "test_support.hpp"

using namespace gpucheck;
using gpucheck::test::read_file;
using gpucheck::test::source_path;
using nlohmann::json;

namespace {

const std::string kHgxCapture = "tests/fixtures/captures/hgx-h100-dell_lspci-vvv.txt";

std::string capture(const std::string& name) { return read_file(source_path("tests/data/links/" + name)); }

std::set<std::string> rules_of(const std::string& text, int* exit_code = nullptr) {
  gpucheck::test::TempDir t;
  gpucheck::test::write_file(t.path() / "paste.txt", text);
  auto r = gpucheck::test::run_gpucheck({"check", "--from", (t.path() / "paste.txt").string(), "--json"});
  INFO("exit " << r.exit_code << ": " << r.err);
  REQUIRE((r.exit_code == 0 || r.exit_code == 1 || r.exit_code == 3));
  if (exit_code) *exit_code = r.exit_code;
  std::set<std::string> out;
  const json j = json::parse(r.out);
  for (auto& f : j["findings"]) out.insert(f["rule"].get<std::string>());
  return out;
}

// What the topology rules read of a path, in one comparable string.
std::string path_text(const PciPath& p) {
  std::string out = p.host_bridge.value_or("-");
  for (auto& b : p.bridges) {
    out += " > " + b.address + " acs " + std::to_string(static_cast<int>(b.acs)) + ":" +
           (b.acs_control ? std::to_string(*b.acs_control) : "-") + " x" + std::to_string(b.link.current_width.value_or(-1)) +
           "/x" + std::to_string(b.link.max_width.value_or(-1)) + " gen" + std::to_string(b.link.current_gen.value_or(-1)) + "/" +
           std::to_string(b.link.max_gen.value_or(-1));
  }
  return out;
}

const PciDevice* device_at(const Facts& f, const std::string& address) {
  for (auto& d : f.pci)
    if (d.address == address) return &d;
  return nullptr;
}

}  // namespace

TEST_CASE("acs_control_of reads lspci's ACSCtl words back into the register", "[topology][paste]") {
  CHECK(acs_control_of("SrcValid- TransBlk- ReqRedir- CmpltRedir- UpstreamFwd- EgressCtrl- DirectTrans-") == std::uint16_t{0});
  const auto on = acs_control_of("SrcValid+ TransBlk- ReqRedir+ CmpltRedir+ UpstreamFwd+ EgressCtrl- DirectTrans-");
  REQUIRE(on);
  CHECK(*on == 0x1d);
  CHECK(acs_redirects_p2p(*on));
  CHECK(acs_words(*on) == std::vector<std::string>{"SrcValid", "ReqRedir", "CmpltRedir", "UpstreamFwd"});
  CHECK_FALSE(acs_control_of(""));
  CHECK_FALSE(acs_control_of("SrcValid+ Bogus+"));
  CHECK_FALSE(acs_control_of("SrcValid"));
}

TEST_CASE("a pasted lspci -vvv of an HGX H100 gives the PCIe tree the sysfs probe reads of the same board", "[paste][topology][links]") {
  // The fixture's /sys was derived from this capture (tests/fixtures/hosts/hgx-h100-topology.md):
  // the paste must land on the same devices, bridges, links and ACS.
  auto host = open_host(source_path("tests/fixtures/hosts/hgx-h100-topology"));
  REQUIRE(host);
  const Facts probed = run_probes(**host, {});
  const Facts pasted = gpucheck::test::paste(read_file(source_path(kHgxCapture)));
  REQUIRE(pasted.pci.size() == 12);  // 8 H100s, 4 NVSwitches
  std::map<std::string, std::string> a, b;
  for (auto& d : probed.pci)
    a[d.address] = std::string(to_string(d.kind)) + " " + d.device_id + " " + d.driver.value_or("none") + " numa " +
                   std::to_string(d.numa_node.value_or(-1)) + " " + path_text(d.path);
  for (auto& d : pasted.pci)
    b[d.address] = std::string(to_string(d.kind)) + " " + d.device_id + " " + d.driver.value_or("none") + " numa " +
                   std::to_string(d.numa_node.value_or(-1)) + " " + path_text(d.path);
  CHECK(a == b);
  std::map<std::string, std::string> nics_probed, nics_pasted;
  for (auto& d : probed.network.ib) nics_probed[d.pci_address.value_or("?")] = path_text(d.path);
  for (auto& d : pasted.network.ib) nics_pasted[d.pci_address.value_or("?")] = path_text(d.path);
  CHECK(nics_pasted.size() == 12);
  CHECK(nics_probed == nics_pasted);
  CHECK_FALSE(pasted.network.read);  // lspci shows no port: the RDMA rules have nothing to judge

  const PciDevice* gpu = device_at(pasted, "0000:19:00.0");
  REQUIRE(gpu);
  CHECK(gpu->kind == PciKind::gpu);
  CHECK(gpu->device_id == "2330");
  CHECK(gpu->link.current_gen == 5);
  CHECK(gpu->link.current_width == 16);
  REQUIRE(gpu->path.bridges.size() == 3);
  CHECK(gpu->path.bridges[1].acs == AcsRead::no_acs);  // the switch's upstream port has no ACS capability
  CHECK(gpu->path.bridges[2].acs == AcsRead::read);
}

TEST_CASE("check --from: ACS on a pasted lspci's switch ports is p2p-acs-redirect, the real board's ACS is not", "[cli][paste][topology][links]") {
  const auto healthy = rules_of(read_file(source_path(kHgxCapture)));
  CHECK_FALSE(healthy.count("p2p-acs-redirect"));
  CHECK_FALSE(healthy.count("p2p-acs-iommu"));
  // The real board's first switch with the kernel's ACS bits on every port
  // (tests/data/links/README.md): the paste shows no IOMMU, so the warning,
  // not the translated-IOMMU error.
  const auto acs_on = rules_of(capture("synthetic-lspci-vvv_hgx-h100-switch-acs-on.txt"));
  CHECK(acs_on.count("p2p-acs-redirect"));
  CHECK_FALSE(acs_on.count("p2p-acs-iommu"));
}

TEST_CASE("a non-root lspci -vvv reads the GPU and its driver but no ACS", "[paste][topology][links]") {
  const Facts f = gpucheck::test::paste(capture("lspci-vvv_non-root-h100.txt"));
  REQUIRE(f.pci.size() == 1);
  CHECK(f.pci[0].address == "0000:3b:00.0");
  CHECK(f.pci[0].driver == "nvidia");
  CHECK(f.pci[0].numa_node == 0);
  CHECK(f.pci[0].name == "GA103");  // the reporter's old pci.ids, as lspci printed it
  CHECK(f.pci[0].path.bridges.empty());
  // A whole non-root run of a server without GPUs: its devices counted, nothing made a fact.
  const Facts dell = gpucheck::test::paste(capture("lspci-vvv_non-root-dell-haswell.txt"));
  CHECK(dell.pci.empty());
  REQUIRE(dell.report);
  REQUIRE(dell.report->blocks.size() == 1);
  CHECK(dell.report->blocks[0].note.value_or("").find("none a GPU or a Mellanox NIC") != std::string::npos);
}

TEST_CASE("a pasted grep of ACSCtl lines is counted, not judged", "[paste][topology][links]") {
  const Facts f = gpucheck::test::paste(capture("lspci-grep-acsctl_nccl629.txt"));
  CHECK(f.pci.empty());
  REQUIRE(f.report);
  REQUIRE(f.report->blocks.size() == 1);
  CHECK(f.report->blocks[0].note.value_or("").find("13 ACSCtl lines, 1 redirecting") != std::string::npos);
  CHECK(rules_of(capture("lspci-grep-acsctl_nccl629.txt")).empty());
}

TEST_CASE("a hostile lspci -vvv: bridge loops, a deep chain, a GPU without -k's lines", "[paste][topology][links][hostile]") {
  const std::string gpu = "19:00.0 3D controller: NVIDIA Corporation Device 2330 (rev a1)\n\tNUMA node: 0\n\tKernel driver in use: nvidia\n";
  SECTION("two bridges leading to each other end the path") {
    const std::string text = "18:00.0 PCI bridge: Broadcom PEX\n\tBus: primary=18, secondary=19, subordinate=19\n\n" + std::string("19:01.0 PCI bridge: Broadcom PEX\n\tBus: primary=19, secondary=18, subordinate=18\n\n") + gpu;
    const Facts f = gpucheck::test::paste(text);
    REQUIRE(f.pci.size() == 1);
    CHECK(f.pci[0].path.bridges.size() <= kMaxPciPathBridges);
  }
  SECTION("a chain of 5,000 bridges keeps the last 32 above the GPU and ends in time") {
    std::string text;
    char buf[160];
    for (int i = 0; i < 5000; ++i) {
      // Bus numbers wrap at 256: the chain loops, and the cap ends it.
      std::snprintf(buf, sizeof buf, "%02x:00.0 PCI bridge: Broadcom PEX\n\tBus: primary=%02x, secondary=%02x, subordinate=ff\n\n", i % 255,
                    i % 255, (i + 1) % 255);
      text += buf;
    }
    text += gpu;
    const Facts f = gpucheck::test::paste(text);
    REQUIRE(f.pci.size() == 1);
    CHECK(f.pci[0].path.bridges.size() == kMaxPciPathBridges);
  }
  SECTION("without -k's lines a GPU is no fact: its driver is unknown, not missing") {
    const Facts f = gpucheck::test::paste("19:00.0 3D controller: NVIDIA Corporation Device 2330 (rev a1)\n\tNUMA node: 0\n\tLatency: 0\n");
    CHECK(f.pci.empty());
  }
  SECTION("with Kernel modules and no driver in use, the GPU has none bound") {
    const auto rules = rules_of("19:00.0 3D controller: NVIDIA Corporation Device 2330 (rev a1)\n\tKernel modules: nvidia\n");
    CHECK(rules.count("gpu-without-driver"));
  }
  SECTION("an ACSCtl line of other words is not understood") {
    const Facts f = gpucheck::test::paste("\t\tACSCtl:\tSrcValid+ Nonsense+\n\t\tACSCtl:\tSrcValid- ReqRedir-\n");
    REQUIRE(f.report);
    CHECK(f.report->unread_total == 1);
  }
}

namespace {

const TopoMatrix& only_topo(const Facts& f) {
  REQUIRE(f.report);
  REQUIRE(f.report->topo.size() == 1);
  return f.report->topo[0];
}

std::string word_of(const TopoMatrix& m, int src, int dst) {
  for (auto& x : m.pairs)
    if (x.src == src && x.dst == dst) return x.word;
  return "";
}

}  // namespace

TEST_CASE("pasted nvidia-smi topo -p2p: every pair's word, and the mode from the command line above", "[paste][topology][links]") {
  const auto gns = only_topo(gpucheck::test::paste(capture("nvidia-smi-topo-p2p_rtx5090-2gpu-gns.txt")));
  CHECK(gns.test == "nvidia-smi topo -p2p");  // the issue shows no command line: the mode is unknown
  CHECK(gns.pairs.size() == 2);
  CHECK(word_of(gns, 0, 1) == "GNS");
  CHECK(word_of(gns, 1, 0) == "GNS");
  const auto cns = only_topo(gpucheck::test::paste(capture("nvidia-smi-topo-p2p_l4-2gpu-cns.txt")));
  CHECK(cns.test == "nvidia-smi topo -p2p r");
  CHECK(word_of(cns, 1, 0) == "CNS");
  const auto ns = only_topo(gpucheck::test::paste(capture("nvidia-smi-topo-p2p_rtx2080ti-2gpu-ns.txt")));
  CHECK(ns.test == "nvidia-smi topo -p2p p");
  const auto ok = only_topo(gpucheck::test::paste(capture("nvidia-smi-topo-p2p_h100-8gpu-ok.txt")));
  CHECK(ok.pairs.size() == 56);
  for (auto& x : ok.pairs) CHECK(x.word == "OK");
  const auto m = only_topo(gpucheck::test::paste(capture("nvidia-smi-topo-m_h100-8gpu-nv18.txt")));
  CHECK(m.test == "nvidia-smi topo -m");
  CHECK(m.pairs.size() == 56);
  CHECK(word_of(m, 7, 6) == "NV18");
}

TEST_CASE("check --from: GPUs joined by NVLink without peer access in pasted topo matrices", "[cli][paste][topology][links]") {
  // Both real: an H100 node's topo -m (NV18 everywhere) and an H100 node's -p2p r (OK everywhere).
  const auto healthy = rules_of(capture("nvidia-smi-topo-m_h100-8gpu-nv18.txt") + "\n" + capture("nvidia-smi-topo-p2p_h100-8gpu-ok.txt"));
  CHECK_FALSE(healthy.count("p2p-access-missing-nvlink"));
  CHECK(rules_of(capture("synthetic-nvidia-smi-topo_h100-8gpu-pair-ns.txt")).count("p2p-access-missing-nvlink"));
  // GNS between two RTX 5090s (no NVLink) is what those GPUs are, not a fault.
  CHECK(rules_of(capture("nvidia-smi-topo-p2p_rtx5090-2gpu-gns.txt")).empty());
  // Without the mode it may be -p2p a or p (atomics, native properties), another question: not judged.
  std::string no_mode = capture("synthetic-nvidia-smi-topo_h100-8gpu-pair-ns.txt");
  const auto prompt = no_mode.find("$ nvidia-smi topo -p2p r\n");
  REQUIRE(prompt != std::string::npos);
  no_mode.erase(prompt, std::string("$ nvidia-smi topo -p2p r\n").size());
  CHECK_FALSE(rules_of(no_mode).count("p2p-access-missing-nvlink"));
}

TEST_CASE("pasted topo matrices survive gpucheck's own JSON", "[paste][topology][links]") {
  gpucheck::test::TempDir t;
  gpucheck::test::write_file(t.path() / "paste.txt", capture("synthetic-nvidia-smi-topo_h100-8gpu-pair-ns.txt"));
  auto probe = gpucheck::test::run_gpucheck({"probe", "--from", (t.path() / "paste.txt").string(), "--json"});
  REQUIRE(probe.exit_code == 0);
  gpucheck::test::write_file(t.path() / "facts.json", probe.out);
  auto again = gpucheck::test::run_gpucheck({"check", "--from", (t.path() / "facts.json").string(), "--json"});
  const json j = json::parse(again.out);
  std::set<std::string> rules;
  for (auto& f : j["findings"]) rules.insert(f["rule"].get<std::string>());
  CHECK(rules.count("p2p-access-missing-nvlink"));
}

TEST_CASE("a hostile topo matrix: thousands of columns, ragged rows, words of no kind", "[paste][topology][links][hostile]") {
  std::string head = "\t";
  for (int i = 0; i < 3000; ++i) head += "GPU" + std::to_string(i) + "\t";
  std::string text = head + "\nGPU0\tX\tOK\tOK\nGPU1\tOK\tX\nGPU2\tBANANA\tOK\tX\tOK\tOK\n";
  const Facts f = gpucheck::test::paste(text);
  REQUIRE(f.report);
  REQUIRE(f.report->topo.size() == 1);
  CHECK(f.report->topo[0].pairs.size() <= kMaxPeerRateGpus * (kMaxPeerRateGpus - 1));
  CHECK(f.report->topo[0].test == "nvidia-smi topo -m");  // BANANA is no -p2p word
}
