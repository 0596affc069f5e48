// The peer copies between GPUs (docs/kernels.md, "Peer copies") against the
// fake libcuda (tests/fake_cuda): the child, the watchdog, the restarts, the
// word-by-word check and the rates are real; the driver is a double that
// copies host memory, flips the bits a description asks it to, and reports
// virtual time. What each pair should reach comes from the facts: the HGX
// fixture (a real board's PCIe tree, its NVLinks synthetic) and hand-made ones.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "builtin/builtin_knowledge.hpp"
#include "facts/facts_json.hpp"
#include "host/hosts.hpp"
#include "importers/gpucheck_json.hpp"
#include "kernels/peer_links.hpp"
#include "kernels/run.hpp"
#include "matrix/gpu_figures.hpp"
#include "matrix/lookup.hpp"
#include "probe.hpp"
#include "rules/knowledge.hpp"
#include "fake_cuda_support.hpp"
#include "gpucheck_run.hpp"
#include "test_support.hpp"

using namespace gpucheck;
using namespace gpucheck::kernels;
using namespace gpucheck::test;

namespace {

// Two H100s as the fake describes them (synthetic), the second's bus id in
// capitals as some drivers print it.
const std::string kTwoH100 =
    "driver_version 12080\n"
    "device name=\"NVIDIA H100 80GB HBM3\" uuid=GPU-5e7a1c0b-9f3d-4a6e-8b21-0c4d7e9f1a23 cc=9.0 sms=2 mem=85520809984 "
    "bus=00000000:18:00.0\n"
    "device name=\"NVIDIA H100 80GB HBM3\" uuid=GPU-5e7a1c0b-9f3d-4a6e-8b21-0c4d7e9f1a24 cc=9.0 sms=2 mem=85520809984 "
    "bus=00000000:2A:00.0\n";

KernelRequest p2p_request() {
  KernelRequest r = fake_request({"p2p"});
  r.session.peer_bytes = 1 << 20;
  r.session.peer_reps = 4;
  return r;
}

const PeerCopy& copy_of(const KernelFacts& f, int src, int dst) {
  for (auto& p : f.peer_copies)
    if (p.src_ordinal == src && p.dst_ordinal == dst) return p;
  FAIL("no peer copy " << src << " -> " << dst);
  throw;
}
const PeerCopy& copy_of(const KernelFacts&& f, int src, int dst) = delete;

Facts probe(const std::string& root) {
  auto host = open_host(root);
  REQUIRE(host);
  return run_probes(**host, {});
}

}  // namespace

TEST_CASE("peer copies: each direction is checked word by word and timed with peer access on", "[kernels][fake_cuda][p2p]") {
  FakeDriver s(kTwoH100 + "peer all time_ms=0.5\nmemcpy_ms 3\n");
  const KernelFacts f = run_kernel_checks(p2p_request());
  REQUIRE_FALSE(f.error);
  REQUIRE(f.peer_copies.size() == 2);
  const PeerCopy& c = copy_of(f, 0, 1);
  CHECK(c.src_bus == "0000:18:00.0");
  CHECK(c.dst_bus == "0000:2a:00.0");
  CHECK(to_string(c.status) == "passed");
  CHECK(c.can_access == true);
  CHECK(c.correct == true);
  CHECK(c.bytes == (1u << 20));
  CHECK(c.words_checked == 2 * (1u << 20) / 4);  // once over poison, once after the timed copies
  CHECK(c.words_wrong == 0);
  // Four copies of 1 MiB in 4 × 0.5 ms of the fake's clock: peer access was
  // enabled (a staged copy costs it 2 × memcpy_ms, 6 ms).
  REQUIRE(c.gbs);
  CHECK(*c.gbs == Approx(1048576.0 / 0.0005 / 1e9));
  CHECK_FALSE(c.expected_gbs);  // the request named no link between them
  CHECK(to_string(copy_of(f, 1, 0).status) == "passed");
  CHECK(kernels_exit_code(f) == 0);
}

TEST_CASE("peer copies: bytes that arrive wrong while every call succeeds fail the pair, not its reverse", "[kernels][fake_cuda][p2p]") {
  // The silent corruption of github.com/NVIDIA/open-gpu-kernel-modules/issues/1257, as the fake plays it.
  FakeDriver s(kTwoH100 + "peer 0 1 corrupt=3\npeer 1 0\n");
  const KernelFacts f = run_kernel_checks(p2p_request());
  const PeerCopy& bad = copy_of(f, 0, 1);
  CHECK(to_string(bad.status) == "failed");
  CHECK(bad.correct == false);
  CHECK(bad.words_wrong == 6);  // three words in each of the two checked copies
  CHECK_THAT(bad.reason.value_or(""), Catch::Contains("6 of 524288 words did not arrive as written") &&
                                          Catch::Contains("every call succeeding") && Catch::Contains("first at byte 0"));
  CHECK(to_string(copy_of(f, 1, 0).status) == "passed");
  CHECK(kernels_exit_code(f) == 1);
}

TEST_CASE("peer copies: no peer access is reported, not copied, and is no failure", "[kernels][fake_cuda][p2p]") {
  FakeDriver s(kTwoH100);
  const KernelFacts f = run_kernel_checks(p2p_request());
  REQUIRE(f.peer_copies.size() == 2);
  for (auto& p : f.peer_copies) {
    CHECK(to_string(p.status) == "skipped");
    CHECK(p.can_access == false);
    CHECK_FALSE(p.gbs);
    CHECK_THAT(p.reason.value_or(""), Catch::Contains("cuDeviceCanAccessPeer"));
  }
  CHECK(kernels_exit_code(f) == 0);
}

TEST_CASE("peer copies: a hung copy is killed, a refused grant fails, and the pairs left run in a fresh child", "[kernels][fake_cuda][p2p]") {
  const std::string three = kTwoH100 +
                            "device name=\"NVIDIA H100 80GB HBM3\" uuid=GPU-5e7a1c0b-9f3d-4a6e-8b21-0c4d7e9f1a25 cc=9.0 sms=2 "
                            "mem=85520809984 bus=00000000:3A:00.0\n";
  // Each pair asks for peer access both ways, so the refusal from 2 to 1 fails both of their pairs.
  FakeDriver s(three + "peer all\npeer 0 1 hang=1\npeer 2 1 enable_error=999\n");
  KernelRequest req = p2p_request();
  req.step_timeout = Millis(1500);
  const KernelFacts f = run_kernel_checks(req);
  REQUIRE(f.peer_copies.size() == 6);
  CHECK(to_string(copy_of(f, 0, 1).status) == "timed_out");
  for (auto [a, b] : {std::pair{1, 2}, std::pair{2, 1}}) {
    const PeerCopy& refused = copy_of(f, a, b);
    CHECK(to_string(refused.status) == "failed");
    CHECK_THAT(refused.reason.value_or(""), Catch::Contains("cuCtxEnablePeerAccess returned CUDA_ERROR_UNKNOWN"));
  }
  for (auto [a, b] : {std::pair{0, 2}, std::pair{1, 0}, std::pair{2, 0}}) {
    INFO(a << " -> " << b);
    CHECK(to_string(copy_of(f, a, b).status) == "passed");
  }
  CHECK(kernels_exit_code(f) == 1);
}

TEST_CASE("peer copies: a pair is rated against the link the request names", "[kernels][fake_cuda][p2p]") {
  FakeDriver s(kTwoH100 + "peer all time_ms=1\n");
  KernelRequest req = p2p_request();
  req.peer_links[{"0000:18:00.0", "0000:2a:00.0"}] = PeerLink{"nvswitch", 4.0, "a synthetic 4 GB/s link"};
  const KernelFacts f = run_kernel_checks(req);
  const PeerCopy& rated = copy_of(f, 0, 1);
  REQUIRE(rated.gbs);
  CHECK(rated.link == "nvswitch");
  CHECK(rated.expected_gbs == 4.0);
  CHECK(rated.expected_source == "a synthetic 4 GB/s link");
  REQUIRE(rated.ratio);
  CHECK(*rated.ratio == Approx(*rated.gbs / 4.0));
  CHECK_FALSE(copy_of(f, 1, 0).ratio);
}

TEST_CASE("peer copies: MIG instances and a single GPU get none, nor does a run without p2p in --precision", "[kernels][fake_cuda][p2p]") {
  {
    FakeDriver s(kFakeH100 + "peer all\n");
    CHECK(run_kernel_checks(p2p_request()).peer_copies.empty());
  }
  {
    FakeDriver s(
        "driver_version 12080\n"
        "device name=\"NVIDIA H100 80GB HBM3 MIG 1g.10gb\" uuid=GPU-5e7a1c0b-9f3d-4a6e-8b21-0c4d7e9f1a23 cc=9.0 sms=2 mem=10000000000 bus=00000000:18:00.0\n"
        "device name=\"NVIDIA H100 80GB HBM3 MIG 1g.10gb\" uuid=GPU-5e7a1c0b-9f3d-4a6e-8b21-0c4d7e9f1a24 cc=9.0 sms=2 mem=10000000000 bus=00000000:18:00.0\n"
        "peer all\n");
    CHECK(run_kernel_checks(p2p_request()).peer_copies.empty());
  }
  FakeDriver s(kTwoH100 + "peer all\n");
  CHECK(run_kernel_checks(fake_request({"bandwidth"})).peer_copies.empty());
}

TEST_CASE("peer links: NVSwitch pairs on the HGX fixture get NVLink's datasheet share, a link down lowers it", "[kernels][p2p][topology]") {
  auto k = load_knowledge("");
  REQUIRE(k);
  Facts f = probe(source_path("tests/fixtures/hosts/hgx-h100-topology"));
  auto links = peer_links(f, &k->matrix);
  CHECK(links.size() == 8 * 7);
  const PeerLink& l = links.at({"0000:19:00.0", "0000:3b:00.0"});
  CHECK(l.link == "nvswitch");
  REQUIRE(l.gbs);
  CHECK(*l.gbs == Approx(450));  // NVLink 4: 900 GB/s both ways (matrix h100-sxm5-80gb)
  CHECK_THAT(l.source, Catch::Contains("18 of 18 links active here") && Catch::Contains("h100-sxm5-80gb"));

  REQUIRE(f.nvlink);
  f.nvlink->gpus[1].links[0].active = false;  // GPU 0000:3b:00.0: one of 18 down
  links = peer_links(f, &k->matrix);
  CHECK(*links.at({"0000:19:00.0", "0000:3b:00.0"}).gbs == Approx(450.0 * 17 / 18));
  CHECK(*links.at({"0000:3b:00.0", "0000:19:00.0"}).gbs == Approx(450.0 * 17 / 18));
  CHECK(*links.at({"0000:19:00.0", "0000:4c:00.0"}).gbs == Approx(450));

  // No NVLink facts: each GPU has a switch of its own, so peer traffic turns
  // at the root complex, which is not judged.
  f.nvlink.reset();
  links = peer_links(f, &k->matrix);
  const PeerLink& host = links.at({"0000:19:00.0", "0000:3b:00.0"});
  CHECK(host.link == "pcie_host");
  CHECK_FALSE(host.gbs);
}

TEST_CASE("peer links: two GPUs below one PCIe switch get the slower link, a direct NVLink its share", "[kernels][p2p]") {
  // Synthetic facts: two cards below one switch (root port 00:01.0, switch 01:00.0), one at Gen4 x16, one at Gen4 x8.
  Facts f;
  const auto card = [](const std::string& address, const std::string& port, int width) {
    PciDevice d;
    d.address = address;
    d.vendor_id = "10de";
    d.device_id = "20b5";  // A100 PCIe 80GB
    d.link.max_gen = 4;
    d.link.max_width = width;
    for (const std::string& b : {std::string("0000:00:01.0"), std::string("0000:01:00.0"), port}) {
      PciBridge br;
      br.address = b;
      d.path.bridges.push_back(br);
    }
    return d;
  };
  f.pci = {card("0000:03:00.0", "0000:02:08.0", 16), card("0000:04:00.0", "0000:02:10.0", 8)};
  auto links = peer_links(f, nullptr);
  const PeerLink& sw = links.at({"0000:03:00.0", "0000:04:00.0"});
  CHECK(sw.link == "pcie_switch");
  REQUIRE(sw.gbs);
  CHECK(*sw.gbs == Approx(*pcie_gbs(4, 8)));
  CHECK_THAT(sw.source, Catch::Contains("0000:01:00.0") && Catch::Contains("gen4 x8"));

  // An NVLink bridge between them: 12 links each, all reaching the other.
  auto k = load_knowledge("");
  REQUIRE(k);
  NvLinkFacts nv;
  for (auto [self, other] : {std::pair{"0000:03:00.0", "0000:04:00.0"}, std::pair{"0000:04:00.0", "0000:03:00.0"}}) {
    GpuNvLinks g;
    g.pci_bus_id = self;
    for (int i = 0; i < 12; ++i) {
      NvLink l;
      l.link = i;
      l.active = true;
      l.version = 4;  // NVLink 3.0
      l.remote_pci = other;
      g.links.push_back(l);
    }
    nv.gpus.push_back(g);
  }
  f.nvlink = nv;
  links = peer_links(f, &k->matrix);
  const PeerLink& bridge = links.at({"0000:03:00.0", "0000:04:00.0"});
  CHECK(bridge.link == "nvlink");
  const GpuModel* model = find_gpu_by_pci_id(k->matrix, "10de:20b5");
  REQUIRE(model);
  REQUIRE(nvlink_total_gbs(*model));
  CHECK(*bridge.gbs == Approx(*nvlink_total_gbs(*model) / 2));
  CHECK_THAT(bridge.source, Catch::Contains("12 of its 12 links reach it"));
}

TEST_CASE("peer copies: the facts' JSON reads back, and an older report without them still reads", "[kernels][p2p][json]") {
  const std::string path = source_path("tests/data/kernels/synthetic-hgx-h100-p2p-broken.json");
  auto f = facts_from_json(read_file(path), path);
  REQUIRE(f);
  REQUIRE(f->kernels);
  REQUIRE(f->kernels->peer_copies.size() == 56);
  const auto written = to_json(*f);
  auto back = facts_from_json(written.dump(), "again.json");
  REQUIRE(back);
  CHECK(to_json(*back) == written);
  const PeerCopy& bad = f->kernels->peer_copies[0];
  CHECK(bad.words_wrong == 3);
  CHECK(bad.link == "nvswitch");

  auto old = nlohmann::json::parse(read_file(path));
  old["kernels"].erase("peer_copies");
  auto before = facts_from_json(old.dump(), "old.json");
  REQUIRE(before);
  CHECK(before->kernels->peer_copies.empty());
}

TEST_CASE("check --from: a peer copy that corrupted, hung or crawled is judged, a healthy board passes", "[cli][kernels][p2p]") {
  auto broken = run_gpucheck({"--from", source_path("tests/data/kernels/synthetic-hgx-h100-p2p-broken.json"), "check", "--json"});
  CHECK(broken.exit_code == 1);
  const auto j = nlohmann::json::parse(broken.out);
  std::map<std::string, std::string> where;
  for (auto& f : j["findings"]) where[f["rule"].get<std::string>()] = f["message"].get<std::string>();
  REQUIRE(where.count("p2p-copy-corrupt"));
  CHECK_THAT(where["p2p-copy-corrupt"], Catch::Contains("GPU 0000:3b:00.0 (3 of 33554432 words)"));
  CHECK_THAT(where["p2p-copy-failed"], Catch::Contains("GPU 0000:5d:00.0 (timed_out"));
  CHECK_THAT(where["p2p-copy-slow"], Catch::Contains("0000:bb:00.0") && Catch::Contains("27%"));
  CHECK_THAT(where["p2p-access-missing-nvlink"], Catch::Contains("GPU 0000:db:00.0"));
  auto text = run_gpucheck({"--from", source_path("tests/data/kernels/synthetic-hgx-h100-p2p-broken.json"), "check"});
  CHECK_THAT(text.out, Catch::Contains("53 of 55 peer copies passed on 8 GPU(s)"));

  auto healthy = run_gpucheck({"--from", source_path("tests/data/kernels/synthetic-hgx-h100-p2p-healthy.json"), "check"});
  CHECK(healthy.exit_code == 0);
  CHECK_THAT(healthy.out, Catch::Contains("56 of 56 peer copies passed"));
}

TEST_CASE("kernels --precision p2p: the table, the JSON and the exit code on the fake driver", "[cli][kernels][fake_cuda][p2p]") {
  FakeDriver driver(kTwoH100 + "peer 0 1 corrupt=1\npeer 1 0\n");
  ScopedEnv path("LD_LIBRARY_PATH", GPUCHECK_FAKE_CUDA_DIR);
  auto text = run_gpucheck({"kernels", "--precision", "p2p"});
  INFO(text.err);
  CHECK(text.exit_code == 1);
  CHECK_THAT(text.out, Catch::Contains("Peer copies (GPU to GPU, one direction):") && Catch::Contains("did not arrive as written"));
  auto js = run_gpucheck({"kernels", "--precision", "p2p", "--json"});
  CHECK(js.exit_code == 1);
  const auto k = nlohmann::json::parse(js.out)["kernels"];
  REQUIRE(k["peer_copies"].size() == 2);
  CHECK(k["peer_copies"][0]["status"] == "failed");
  CHECK(k["peer_copies"][1]["status"] == "passed");
  auto junit = run_gpucheck({"kernels", "--precision", "p2p", "--format", "junit"});
  CHECK_THAT(junit.out, Catch::Contains("p2p to GPU 1"));
}

TEST_CASE("check --kernels: a live copy no link rates, far below the node's other pairs, is p2p-pair-slow", "[cli][kernels][fake_cuda][p2p]") {
  // This host's sysfs shows no GPU, so no pair has a link to be rated
  // against (as a path through the root complex has none): the copies are
  // compared with each other. 0 -> 2 takes five times as long as the rest.
  const std::string three = kTwoH100 +
                            "device name=\"NVIDIA H100 80GB HBM3\" uuid=GPU-5e7a1c0b-9f3d-4a6e-8b21-0c4d7e9f1a25 cc=9.0 sms=2 "
                            "mem=85520809984 bus=00000000:3A:00.0\n";
  FakeDriver driver(three + "peer all time_ms=1\npeer 0 2 time_ms=5\n");
  ScopedEnv path("LD_LIBRARY_PATH", GPUCHECK_FAKE_CUDA_DIR);
  auto r = run_gpucheck({"check", "--kernels", "--precision", "p2p", "--json"});
  INFO(r.err);
  REQUIRE(r.exit_code != 2);
  const auto j = nlohmann::json::parse(r.out);
  std::string message;
  for (auto& f : j["findings"])
    if (f["rule"] == "p2p-pair-slow") message = f["message"].get<std::string>();
  CHECK_THAT(message, Catch::Contains("GPU 0 -> 2:") && Catch::Contains("median"));
  CHECK(message.find("GPU 1 -> ") == std::string::npos);
}
