// Pasted outputs of the link tools (docs/topology.md, "Pastes"): each read
// from a real capture in tests/data/links/ (README.md there names them),
// then judged by `check --from` as a user would run it.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "gpucheck_run.hpp"
#include "paste_support.hpp"
#include "test_support.hpp"

using namespace gpucheck;
using gpucheck::test::read_file;
using gpucheck::test::source_path;
using nlohmann::json;

namespace {

std::string capture(const std::string& name) { return read_file(source_path("tests/data/links/" + name)); }

struct Judged {
  int exit_code;
  std::string verdict;
  std::set<std::string> rules;
};

Judged judge(const std::string& text) {
  gpucheck::test::TempDir t;
  gpucheck::test::write_file(t.path() / "paste.txt", text);
  auto r = gpucheck::test::run_gpucheck({"check", "--from", (t.path() / "paste.txt").string(), "--json"});
  INFO("exit " << r.exit_code << ": " << r.err);
  REQUIRE((r.exit_code == 0 || r.exit_code == 1 || r.exit_code == 3));  // 3: the paste shows no driver or framework
  const json j = json::parse(r.out);
  Judged out{r.exit_code, j["verdict"].get<std::string>(), {}};
  for (auto& f : j["findings"]) out.rules.insert(f["rule"].get<std::string>());
  return out;
}

const NvLink* link_of(const GpuNvLinks& g, int n) {
  for (auto& l : g.links)
    if (l.link == n) return &l;
  return nullptr;
}

void replace_once(std::string& s, const std::string& from, const std::string& to) {
  const auto at = s.find(from);
  REQUIRE(at != std::string::npos);
  s.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("pasted nvlink -e and -s of one GPU read as one GPU with both", "[paste][topology][links]") {
  const Facts f = gpucheck::test::paste(capture("nvlink-e-s_h100-ml-engineering.txt"));
  REQUIRE(f.nvidia_smi);
  CHECK(f.nvidia_smi->gpus.size() == 1);
  REQUIRE(f.nvlink);
  REQUIRE(f.nvlink->gpus.size() == 1);
  const auto& g = f.nvlink->gpus[0];
  // -e lists links 0, 1 and 17 ("[...]" between); -s lists 0 and 17.
  CHECK(g.links.size() == 3);
  const NvLink* l0 = link_of(g, 0);
  const NvLink* l1 = link_of(g, 1);
  const NvLink* l17 = link_of(g, 17);
  REQUIRE(l0);
  REQUIRE(l1);
  REQUIRE(l17);
  CHECK(l0->state_read);
  CHECK(l0->active);
  CHECK(l0->replay == 0u);
  CHECK(l0->recovery == 0u);
  CHECK(l0->crc_flit == 0u);
  // Only -e names link 1: its counters are known, not whether it is up.
  CHECK_FALSE(l1->state_read);
  CHECK(l1->replay == 0u);
  CHECK(l17->state_read);
  CHECK(l17->crc_flit == 0u);
}

TEST_CASE("check --from: NVLink error counters in a pasted nvlink -e are judged, its links' state is not guessed", "[cli][paste][topology][links]") {
  const std::string both = capture("nvlink-e-s_h100-ml-engineering.txt");
  auto clean = judge(both);
  CHECK(clean.rules.count("nvlink-error-counters") == 0);
  CHECK(clean.rules.count("nvlink-link-down") == 0);

  // Synthetic: link 1's replay counter at 7, as a flaky link counts.
  std::string counted = both;
  replace_once(counted, "Link 1: Replay Errors: 0", "Link 1: Replay Errors: 7");
  auto j = judge(counted);
  CHECK(j.rules.count("nvlink-error-counters") == 1);
  CHECK(j.rules.count("nvlink-link-down") == 0);

  // -e alone: no link reads as down for want of a -s line.
  const std::string errors_only = counted.substr(0, counted.find("Another useful command"));
  const Facts f = gpucheck::test::paste(errors_only);
  REQUIRE(f.nvlink);
  for (auto& l : f.nvlink->gpus.at(0).links) CHECK_FALSE(l.state_read);
  j = judge(errors_only);
  CHECK(j.rules.count("nvlink-error-counters") == 1);
  CHECK(j.rules.count("nvlink-link-down") == 0);
}

TEST_CASE("pasted nvlink -e with hostile counts reads what it can", "[paste][topology][links][hostile]") {
  const std::string text =
      "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-x)\n"
      "\t Link 0: Replay Errors: -5\n"
      "\t Link 0: Recovery Errors: 99999999999999999999999\n"
      "\t Link 0: CRC Errors: 3\n"
      "\t Link 1: Bogus Errors: 1\n"
      "\t Link 99: CRC Errors: 1\n";
  const Facts f = gpucheck::test::paste(text);
  REQUIRE(f.nvlink);
  REQUIRE(f.nvlink->gpus.size() == 1);
  REQUIRE(f.nvlink->gpus[0].links.size() == 1);
  const auto& l = f.nvlink->gpus[0].links[0];
  CHECK_FALSE(l.replay);
  CHECK_FALSE(l.recovery);
  CHECK(l.crc_flit == 3u);
}

TEST_CASE("pasted ibv_devinfo reads devices and ports as sysfs names them", "[paste][topology][links]") {
  const Facts f = gpucheck::test::paste(capture("ibv_devinfo_connectx7-port-down.txt"));
  REQUIRE(f.network.read);
  REQUIRE(f.network.ib.size() == 2);
  const auto& d0 = f.network.ib[0];
  CHECK(d0.name == "mlx5_0");
  CHECK(d0.hca_type == "MT4129");  // vendor_part_id 4129, as ibstat's "CA type"
  CHECK(d0.fw_ver == "28.39.2048");
  CHECK(d0.board_id == "MT_0000000838");
  REQUIRE(d0.ports.size() == 1);
  CHECK(d0.ports[0].port == 1);
  CHECK(d0.ports[0].state == "DOWN");
  CHECK(d0.ports[0].link_layer == "InfiniBand");
  CHECK_FALSE(d0.ports[0].rate_gbps);  // plain ibv_devinfo shows no width or speed
  // The capture ends after mlx5_1's board_id: a device without ports.
  CHECK(f.network.ib[1].name == "mlx5_1");
  CHECK(f.network.ib[1].ports.empty());

  const Facts roce = gpucheck::test::paste(capture("ibv_devinfo_connectx6dx-roce-down.txt"));
  REQUIRE(roce.network.ib.size() == 2);
  CHECK(roce.network.ib[0].hca_type == "MT4125");
  REQUIRE(roce.network.ib[0].ports.size() == 1);
  CHECK(roce.network.ib[0].ports[0].state == "DOWN");
  CHECK(roce.network.ib[0].ports[0].link_layer == "Ethernet");
  CHECK(roce.network.ib[1].hca_type == "MT4129");
}

TEST_CASE("check --from: a pasted ibv_devinfo port down beside an active peer is rdma-port-down", "[cli][paste][topology][links]") {
  const std::string real = capture("ibv_devinfo_connectx7-port-down.txt");
  // Alone: mlx5_0's port is down and no peer is shown up, so nothing to compare.
  auto alone = judge(real);
  CHECK(alone.rules.count("rdma-port-down") == 0);

  // Synthetic: mlx5_1's port, cut from the capture, ACTIVE as ibv_devinfo -v
  // prints one (the -v fields: phys_state, active_width, active_speed).
  const std::string peer = real +
                           "        phys_port_cnt:                  1\n"
                           "                port:   1\n"
                           "                        state:                  PORT_ACTIVE (4)\n"
                           "                        max_mtu:                4096 (5)\n"
                           "                        phys_state:             LINK_UP (5)\n"
                           "                        active_width:           4X (2)\n"
                           "                        active_speed:           100.0 Gbps (64)\n"
                           "                        link_layer:             InfiniBand\n";
  const Facts f = gpucheck::test::paste(peer);
  REQUIRE(f.network.ib.size() == 2);
  REQUIRE(f.network.ib[1].ports.size() == 1);
  const auto& p = f.network.ib[1].ports[0];
  CHECK(p.state == "ACTIVE");
  CHECK(p.phys_state == "LinkUp");
  CHECK(p.rate == "400 Gb/sec (4X NDR)");
  CHECK(p.rate_gbps == Approx(400));
  auto j = judge(peer);
  CHECK(j.rules.count("rdma-port-down") == 1);
  CHECK(j.rules.count("rdma-rail-port-down") == 0);  // a paste shows no PCIe path: no rail known
  CHECK(j.rules.count("gpudirect-rdma-missing") == 0);
  CHECK(j.verdict != "pass");
}

TEST_CASE("pasted ibv_devinfo with hostile fields reads what it can", "[paste][topology][links][hostile]") {
  std::string text = "hca_id: mlx5_0\n\tvendor_id: 0x1425\n\tvendor_part_id: 25608\n";
  for (int i = 0; i < 400; ++i) text += "\t\tport:\t" + std::to_string(i) + "\n\t\t\tstate:\tPORT_ACTIVE (99)\n\t\t\tactive_width:\t4096X (9)\n\t\t\tactive_speed:\tnan Gbps (1)\n";
  const Facts f = gpucheck::test::paste(text);
  REQUIRE(f.network.ib.size() == 1);
  CHECK_FALSE(f.network.ib[0].hca_type);  // not Mellanox's: sysfs's name is not known
  CHECK(f.network.ib[0].ports.size() == 255);
  for (auto& p : f.network.ib[0].ports) {
    CHECK_FALSE(p.state);
    CHECK_FALSE(p.rate_gbps);
  }
}

TEST_CASE("pasted NCCL_DEBUG=INFO logs: the version, the environment NCCL read and its network", "[paste][topology][links]") {
  const Facts rtx = gpucheck::test::paste(capture("nccl-debug_rtx5090-socket.txt"));
  int nccl = 0;
  for (auto& l : rtx.software.libraries)
    if (l.name == "nccl") {
      ++nccl;
      CHECK(l.version == "2.25.1");
    }
  CHECK(nccl == 1);  // two ranks print the same version: one library
  CHECK_FALSE(rtx.network.nccl_net_plugin);
  REQUIRE(rtx.report);
  bool said = false;
  for (auto& b : rtx.report->blocks)
    if (b.note && b.note->find("network Socket") != std::string::npos && b.note->find("no net plugin") != std::string::npos) said = true;
  CHECK(said);

  const Facts ib_off = gpucheck::test::paste(capture("nccl-debug_ib-disabled-socket.txt"));
  CHECK(ib_off.software.gpu_env.at("NCCL_IB_DISABLE") == "1");
  CHECK(ib_off.software.gpu_env.at("NCCL_P2P_LEVEL") == "LOC");

  const Facts sharp = gpucheck::test::paste(capture("nccl-debug_hpcx-sharp-plugin.txt"));
  REQUIRE(sharp.network.nccl_net_plugin);
  CHECK(sharp.network.nccl_net_plugin->path == "/opt/hpcx/nccl_rdma_sharp_plugin/lib/libnccl-net.so");
  CHECK(sharp.network.nccl_net_plugin->file == "libnccl-net.so");
}

TEST_CASE("check --from: NCCL's environment from a pasted log is judged against the links pasted beside it", "[cli][paste][topology][links]") {
  // NCCL_IB_DISABLE=1 in a real log, beside the real ibstat of an H100 node
  // with ACTIVE RoCE ports: NCCL talks TCP while RDMA ports are up.
  const std::string log = capture("nccl-debug_ib-disabled-socket.txt");
  const std::string ibstat = read_file(source_path("tests/fixtures/captures/hgx-h100-roce_ibstat.txt"));
  auto j = judge(log + "\n" + ibstat);
  CHECK(j.rules.count("nccl-ib-disabled") == 1);
  // The log alone shows no RDMA port: nothing to judge it against.
  CHECK(judge(log).rules.count("nccl-ib-disabled") == 0);

  // Synthetic: the line NCCL prints for NCCL_P2P_DISABLE=1 (as in the
  // logs of NCCL 2.2x), beside a real nvlink -s of eight NVLinked A100s.
  const std::string nvlink = capture("nvlink-s_a100-sxm4-8gpu.txt");
  const std::string p2p = "host:1:1 [0] NCCL INFO NCCL_P2P_DISABLE set by environment to 1\n";
  CHECK(judge(p2p + "\n" + nvlink).rules.count("nccl-p2p-disabled-nvlink") == 1);
  CHECK(judge(nvlink).rules.count("nccl-p2p-disabled-nvlink") == 0);
}

TEST_CASE("pasted copy-rate matrices: p2pBandwidthLatencyTest and nvbandwidth, every pair in its direction", "[paste][topology][links]") {
  const Facts p2p = gpucheck::test::paste(capture("p2pBandwidthLatencyTest_6gpu-p2p-slower-than-staged.txt"));
  REQUIRE(p2p.report);
  REQUIRE(p2p.report->peer_rates.size() == 3);
  const auto& staged = p2p.report->peer_rates[0];
  CHECK_FALSE(staged.peer_access);
  CHECK_FALSE(staged.bidirectional);
  REQUIRE(staged.rates.size() == 30);  // 6 GPUs, the diagonal left out
  CHECK(staged.rates[0].src == 0);
  CHECK(staged.rates[0].dst == 1);
  CHECK(staged.rates[0].gbs == Approx(20.10));
  CHECK(p2p.report->peer_rates[1].peer_access);
  CHECK(p2p.report->peer_rates[1].test == "p2pBandwidthLatencyTest: Unidirectional P2P=Enabled Bandwidth (P2P Writes) Matrix");

  const Facts nvb = gpucheck::test::paste(capture("nvbandwidth_rtx-a6000-6gpu.txt"));
  REQUIRE(nvb.report);
  REQUIRE(nvb.report->peer_rates.size() == 1);
  const auto& m = nvb.report->peer_rates[0];
  REQUIRE(m.rates.size() == 30);
  bool found = false;
  for (auto& r : m.rates)
    if (r.src == 0 && r.dst == 3) found = r.gbs == Approx(21.95);
  CHECK(found);
  // The SUM line belongs to the matrix: nothing of it is left unread.
  for (auto& u : nvb.report->unread) CHECK(u.text.find("SUM") == std::string::npos);

  // Synthetic: the same matrix printed "GPU(row) <- GPU(column)" carries the data from the column's GPU to the row's.
  std::string reversed = capture("nvbandwidth_rtx-a6000-6gpu.txt");
  replace_once(reversed, "GPU(row) -> GPU(column)", "GPU(row) <- GPU(column)");
  const Facts back = gpucheck::test::paste(reversed);
  REQUIRE(back.report);
  REQUIRE(back.report->peer_rates.size() == 1);
  found = false;
  for (auto& r : back.report->peer_rates[0].rates)
    if (r.src == 3 && r.dst == 0) found = r.gbs == Approx(21.95);
  CHECK(found);
}

TEST_CASE("check --from: peer copies slower than staged ones, and a pair far below the others, are judged", "[cli][paste][topology][links]") {
  // Real: P2P writes at about 10 GB/s where copies through host memory reach 20 to 22.
  auto slow = judge(capture("p2pBandwidthLatencyTest_6gpu-p2p-slower-than-staged.txt"));
  CHECK(slow.rules.count("p2p-slower-than-staged") == 1);
  CHECK(slow.rules.count("p2p-pair-slow") == 0);  // every pair alike: none stands out
  // Real: six A6000s over PCIe, 21.8 to 26.35 GB/s: healthy.
  const std::string nvb = capture("nvbandwidth_rtx-a6000-6gpu.txt");
  auto healthy = judge(nvb);
  CHECK(healthy.rules.count("p2p-pair-slow") == 0);
  CHECK(healthy.rules.count("p2p-slower-than-staged") == 0);
  // Synthetic: the same matrix with GPU 0 -> 3 at 8.10 GB/s.
  auto r = gpucheck::test::run_gpucheck(
      {"check", "--from", source_path("tests/data/links/synthetic-nvbandwidth_one-pair-slow.txt"), "--json"});
  const auto j = nlohmann::ordered_json::parse(r.out);  // "schema" first, as gpucheck writes it
  std::string message;
  for (auto& f : j["findings"])
    if (f["rule"] == "p2p-pair-slow") message = f["message"].get<std::string>();
  CHECK_THAT(message, Catch::Contains("GPU 0 -> 3: 8.1 GB/s (median 22.6)"));
  // gpucheck's own JSON of that paste carries the matrix: judged the same again.
  gpucheck::test::TempDir t;
  gpucheck::test::write_file(t.path() / "again.json", j["facts"].dump());
  auto again = gpucheck::test::run_gpucheck({"check", "--from", (t.path() / "again.json").string(), "--json"});
  CHECK_THAT(again.out, Catch::Contains("p2p-pair-slow"));
}

TEST_CASE("a pasted copy-rate matrix of thousands of columns keeps 64 GPUs and ends in time", "[paste][topology][links][hostile]") {
  std::string text = "Unidirectional P2P=Enabled Bandwidth (P2P Writes) Matrix (GB/s)\n   D\\D";
  for (int c = 0; c < 3000; ++c) text += " " + std::to_string(c);
  text += "\n";
  for (int r = 0; r < 300; ++r) {
    text += std::to_string(r);
    for (int c = 0; c < 3000; ++c) text += " 1e308";
    text += "\n";
  }
  const Facts f = gpucheck::test::paste(text);
  REQUIRE(f.report);
  REQUIRE(f.report->peer_rates.size() == 1);
  CHECK(f.report->peer_rates[0].rates.empty());  // 1e308 GB/s is no rate
}

TEST_CASE("pasted nccl-tests: the run's own validation, its GPUs and bus bandwidth", "[paste][topology][links]") {
  const std::string ok = capture("nccl-tests_alltoall-rtx5090-ok.txt");
  const Facts f = gpucheck::test::paste(ok);
  REQUIRE(f.report);
  REQUIRE(f.report->nccl_tests.size() == 1);
  const NcclTestRun& run = f.report->nccl_tests[0];
  CHECK(run.validated);
  CHECK(run.gpus == 1);
  CHECK(run.wrong == 0);  // 0 out of place; N/A in place is no count
  CHECK(run.out_of_bounds == 0);
  CHECK(run.avg_busbw_gbs == 0.0);
  CHECK(judge(ok).rules.count("nccl-test-wrong-values") == 0);

  const std::string failed = capture("synthetic-nccl-tests_out-of-bounds.txt");
  const Facts bad = gpucheck::test::paste(failed);
  REQUIRE(bad.report);
  REQUIRE(bad.report->nccl_tests.size() == 1);
  CHECK(bad.report->nccl_tests[0].wrong == 56);
  CHECK(bad.report->nccl_tests[0].out_of_bounds == 56);
  const auto j = judge(failed);
  CHECK(j.rules.count("nccl-test-wrong-values") == 1);
  CHECK(j.exit_code == 1);

  // Synthetic: a version before the #wrong column printed the largest error
  // ("error 1e-07"), not a count; its out-of-bounds line still counts.
  std::string old = failed;
  replace_once(old, "busbw #wrong     time   algbw   busbw #wrong", "busbw  error     time   algbw   busbw  error");
  const Facts before = gpucheck::test::paste(old);
  REQUIRE(before.report);
  REQUIRE(before.report->nccl_tests.size() == 1);
  CHECK(before.report->nccl_tests[0].validated);
  CHECK(before.report->nccl_tests[0].wrong == 0);
  CHECK(judge(old).rules.count("nccl-test-wrong-values") == 1);
  // ... and cut before that line, it shows no validation at all: not judged, not passed as right.
  std::string cut = old.substr(0, old.find("# Out of bounds"));
  const Facts unknown = gpucheck::test::paste(cut);
  REQUIRE(unknown.report);
  REQUIRE(unknown.report->nccl_tests.size() == 1);
  CHECK_FALSE(unknown.report->nccl_tests[0].validated);
  CHECK(judge(cut).rules.count("nccl-test-wrong-values") == 0);
}

TEST_CASE("a pasted nccl-tests run with hostile counts reads what it can", "[paste][topology][links][hostile]") {
  // Synthetic: counts past any integer, negative and not numbers, rows of a thousand cells, a heading repeated.
  std::string text = "# nThread 1 nGpus 1 minBytes 8 maxBytes 8 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0\n";
  text += "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n";
  for (int i = 0; i < 2000; ++i) {
    text += "           8             2     float     sum      -1    18.35    0.00    0.00 99999999999999999999    18.04    0.00    0.00     -5";
    for (int c = 0; c < 1000; ++c) text += " x";
    text += "\n";
  }
  text += "# Out of bounds values : 1e300 FAILED\n# Avg bus bandwidth    : nan\n";
  const Facts f = gpucheck::test::paste(text);
  REQUIRE(f.report);
  REQUIRE(f.report->nccl_tests.size() == 1);
  const NcclTestRun& run = f.report->nccl_tests[0];
  CHECK(run.wrong == 0);              // neither count is one
  CHECK_FALSE(run.out_of_bounds);     // 1e300 is no count
  CHECK_FALSE(run.avg_busbw_gbs);
  CHECK(run.validated);               // its #wrong columns are there
}
