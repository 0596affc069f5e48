// The ROCm probe: hand-made snapshot roots for the file side (installs,
// amdgpu, KFD topology, HIP, environment; broken input as notes), recorded
// and failed ROCm SMI answers replayed, and the real librocm_smi64 of the CI
// host (Debian 12's librocm-smi64-1) loaded live, where it must fail cleanly.
#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "host/hosts.hpp"
#include "probe.hpp"
#include "report/reports.hpp"
#include "test_support.hpp"

using namespace gpucheck;
using gpucheck::test::TempDir;
using gpucheck::test::write_file;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const std::string kNodes = "sys/class/kfd/kfd/topology/nodes";

void manifest(const TempDir& t, const json& env, const json& calls = json::object()) {
  write_file(t.path() / ".gpucheck/manifest.json",
             json{{"format", "gpucheck-snapshot/1"}, {"env", env}, {"calls", calls}}.dump());
}

Facts probe_root(const std::string& root) {
  auto host = open_host(root);
  REQUIRE(host);
  ProbeContext ctx(**host, {});
  probe_rocm(ctx);
  finish_rocm(ctx);
  return std::move(ctx.facts());
}

std::vector<Note> rocm_notes(const Facts& f) {
  std::vector<Note> out;
  for (auto& n : f.notes)
    if (n.subject == "rocm") out.push_back(n);
  return out;
}

const Note* find_note(const Facts& f, const std::string& item) {
  for (auto& n : f.notes)
    if (n.subject == "rocm" && n.item == item) return &n;
  return nullptr;
}

// Two ROCm releases, /opt/rocm -> rocm-6.0.2, an MI300X GPU node and a CPU node.
void two_installs(const TempDir& t) {
  write_file(t.path() / "opt/rocm-6.0.2/.info/version", gpucheck::test::data("rocm/info-version-6.0.2"));
  write_file(t.path() / "opt/rocm-6.0.2/include/hip/hip_version.h", gpucheck::test::data("rocm/hip_version-6.0.2.h"));
  write_file(t.path() / "opt/rocm-5.7.1/include/rocm-core/rocm_version.h",
             "#define ROCM_VERSION_MAJOR 5\n#define ROCM_VERSION_MINOR 7\n#define ROCM_VERSION_PATCH 1\n");
  fs::create_symlink("/opt/rocm-6.0.2", t.path() / "opt/rocm");
  write_file(t.path() / "sys/module/amdgpu/version", "6.3.6\n");
  write_file(t.path() / kNodes / "0/properties", gpucheck::test::data("rocm/kfd-mi300x-cpu-node.properties"));
  write_file(t.path() / kNodes / "1/properties", gpucheck::test::data("rocm/kfd-mi300x-gpu-node.properties"));
  write_file(t.path() / kNodes / "1/mem_banks/0/properties", "heap_type 1\nsize_in_bytes 206141652992\nflags 0\nwidth 8192\nmem_clk_max 1300\n");
}

}  // namespace

TEST_CASE("rocm probe: installs, active link, versions, KFD GPU node, HIP, env", "[rocm]") {
  TempDir t;
  two_installs(t);
  manifest(t, {{"HIP_VISIBLE_DEVICES", "0,1"}, {"HSA_OVERRIDE_GFX_VERSION", "9.4.2"}, {"ROCR_VISIBLE_DEVICES", nullptr}});
  const Facts f = probe_root(t.str());
  const auto& r = f.software.rocm;

  REQUIRE(r.installs.size() == 2);  // /opt/rocm is a link, not a third install
  CHECK(r.installs[0].root == "/opt/rocm-5.7.1");
  CHECK(r.installs[0].version == std::optional<std::string>("5.7.1"));
  CHECK(r.installs[0].version_source == std::optional<std::string>("/opt/rocm-5.7.1/include/rocm-core/rocm_version.h"));
  CHECK_FALSE(r.installs[0].active);
  CHECK(r.installs[1].root == "/opt/rocm-6.0.2");
  CHECK(r.installs[1].version == std::optional<std::string>("6.0.2"));
  CHECK(r.installs[1].version_source == std::optional<std::string>("/opt/rocm-6.0.2/.info/version"));
  CHECK(r.installs[1].active);
  CHECK(r.hip_version == std::optional<std::string>("6.0.32831-204d35d16"));  // from the active install
  CHECK(r.amdgpu_module_version == std::optional<std::string>("6.3.6"));

  REQUIRE(r.gpu_nodes.size() == 1);  // node 0 (simd_count 0) is the CPU
  const auto& n = r.gpu_nodes[0];
  CHECK(n.node == 1);
  CHECK(n.gfx_target == std::optional<std::string>("gfx942"));
  CHECK(n.simd_count == 1216);
  CHECK(n.vram_bytes == std::uint64_t{206141652992});
  CHECK(n.device_id == std::optional<std::string>("74a1"));
  CHECK(n.source == "/sys/class/kfd/kfd/topology/nodes/1");

  CHECK(r.env == std::map<std::string, std::string>{{"HIP_VISIBLE_DEVICES", "0,1"}, {"HSA_OVERRIDE_GFX_VERSION", "9.4.2"}});
  // No librocm_smi64 in this root: said so, nothing loaded, no call asked for.
  CHECK_FALSE(r.smi);
  const auto* smi = find_note(f, "ROCm SMI");
  REQUIRE(smi);
  CHECK(smi->problem.reason == Reason::absent);
  CHECK(rocm_notes(f).size() == 1);
}

TEST_CASE("rocm probe: ROCM_PATH wins over /opt/rocm and may lie outside /opt", "[rocm]") {
  TempDir t;
  two_installs(t);
  write_file(t.path() / "home/u/rocm/.info/version-dev", "6.1.0-82\n");
  manifest(t, {{"ROCM_PATH", "/home/u/rocm/"}});
  const auto& r = probe_root(t.str()).software.rocm;
  REQUIRE(r.installs.size() == 3);
  int active = 0;
  for (auto& i : r.installs) {
    active += i.active ? 1 : 0;
    if (i.root == "/home/u/rocm") {
      CHECK(i.active);
      CHECK(i.version == std::optional<std::string>("6.1.0"));
      CHECK(i.version_source == std::optional<std::string>("/home/u/rocm/.info/version-dev"));
    }
  }
  CHECK(active == 1);
  CHECK_FALSE(r.hip_version);  // the active install has no HIP headers
  CHECK(r.env.at("ROCM_PATH") == "/home/u/rocm/");
}

TEST_CASE("rocm probe: broken files become notes with reasons", "[rocm][bad_input]") {
  TempDir t;
  write_file(t.path() / "opt/rocm-6.0.2/.info/version", "6.");  // truncated
  write_file(t.path() / "opt/rocm-6.0.2/include/hip/hip_version.h", "#define HIP_VERSION_MAJOR 6\n");  // truncated
  fs::create_directories(t.path() / "sys/module/amdgpu");  // in-tree module: no version file
  write_file(t.path() / kNodes / "0/properties", "garbage\n\x01\x02\x03\n");
  write_file(t.path() / kNodes / "1/properties", "simd_count 304\ngfx_target_version 90402\nbogus line here\n");
  write_file(t.path() / kNodes / "1/mem_banks/0/properties", "heap_type 0\nsize_in_bytes 1024\n");  // system memory only
  write_file(t.path() / kNodes / "2/properties", "cpu_cores_count 0\ngfx_target_version 123\n");  // no simd_count, bad target
  write_file(t.path() / kNodes / "not-a-node/properties", "simd_count 4\n");
  manifest(t, json::object());
  const Facts f = probe_root(t.str());
  const auto& r = f.software.rocm;

  REQUIRE(r.installs.size() == 1);
  CHECK_FALSE(r.installs[0].version);
  CHECK_FALSE(r.amdgpu_module_version);
  CHECK_FALSE(r.hip_version);
  REQUIRE(r.gpu_nodes.size() == 2);
  CHECK(r.gpu_nodes[0].node == 1);
  CHECK(r.gpu_nodes[0].gfx_target == std::optional<std::string>("gfx942"));
  CHECK_FALSE(r.gpu_nodes[0].vram_bytes);
  CHECK(r.gpu_nodes[1].node == 2);
  CHECK_FALSE(r.gpu_nodes[1].gfx_target);
  CHECK_FALSE(r.gpu_nodes[1].simd_count);

  auto reason_of = [&](const std::string& item) {
    const auto* n = find_note(f, item);
    INFO(item);
    REQUIRE(n);
    return n->problem;
  };
  CHECK(reason_of("ROCm version of /opt/rocm-6.0.2").reason == Reason::malformed);
  CHECK_THAT(reason_of("ROCm version of /opt/rocm-6.0.2").where, Catch::Contains(".info/version"));
  CHECK(reason_of("HIP version").reason == Reason::malformed);
  CHECK_THAT(reason_of("HIP version").detail, Catch::Contains("HIP_VERSION_MINOR"));
  CHECK_THAT(reason_of("amdgpu module version").detail, Catch::Contains("in-tree"));
  CHECK(reason_of("KFD node 0").reason == Reason::malformed);  // unreadable: neither CPU nor GPU
  CHECK_THAT(reason_of("KFD node 1").detail, Catch::Contains("1 unreadable line"));
  CHECK_THAT(reason_of("VRAM of /sys/class/kfd/kfd/topology/nodes/1").detail, Catch::Contains("APU"));
  CHECK_THAT(reason_of("KFD node 2").detail, Catch::Contains("simd_count"));
  CHECK_THAT(reason_of("KFD node 2 gfx target").detail, Catch::Contains("123"));
}

TEST_CASE("rocm probe: no ROCm at all is one note and no text section", "[rocm]") {
  TempDir t;
  write_file(t.path() / "opt/nvidia/readme", "x");
  manifest(t, json::object());
  const Facts f = probe_root(t.str());
  const auto& r = f.software.rocm;
  CHECK(r.installs.empty());
  CHECK(r.gpu_nodes.empty());
  CHECK_FALSE(r.smi);
  const auto notes = rocm_notes(f);
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].item == "ROCm");
  CHECK(notes[0].problem.reason == Reason::absent);
  const auto text = render_facts_text(f, {false, "test"});
  CHECK(text.find("\nROCm\n") == std::string::npos);
  // Every field is in the JSON, unknown as null.
  const auto j = json::parse(render_facts_json(f, {false, "test"}))["software"]["rocm"];
  for (const char* k : {"installs", "amdgpu_module_version", "gpu_nodes", "smi", "hip_version", "env"}) CHECK(j.contains(k));
  CHECK(j["smi"].is_null());
  CHECK(j["amdgpu_module_version"].is_null());
}

TEST_CASE("rocm probe: replayed ROCm SMI answers", "[rocm][smi]") {
  TempDir t;
  two_installs(t);
  write_file(t.path() / "opt/rocm-6.0.2/lib/librocm_smi64.so.6", "");
  SECTION("a healthy answer") {
    manifest(t, json::object(), {{"rocm-smi", {{"output", json{{"library", "/opt/rocm-6.0.2/lib/librocm_smi64.so.6"},
                                                                {"missing_symbols", json::array()},
                                                                {"init_status", 0},
                                                                {"init_message", "RSMI_STATUS_SUCCESS: The function has been executed successfully."},
                                                                {"version", "6.0.0"},
                                                                {"device_count", 8}}
                                                               .dump()}}}});
    const Facts f = probe_root(t.str());
    REQUIRE(f.software.rocm.smi);
    const auto& s = *f.software.rocm.smi;
    CHECK(s.library == std::optional<std::string>("/opt/rocm-6.0.2/lib/librocm_smi64.so.6"));
    CHECK(s.init_status == 0);
    CHECK(s.version == std::optional<std::string>("6.0.0"));
    CHECK(s.device_count == 8);
    CHECK(rocm_notes(f).empty());
    const auto text = render_facts_text(f, {false, "test"});
    CHECK_THAT(text, Catch::Contains("rsmi_init ok, 8 GPU(s)"));
    CHECK_THAT(text, Catch::Contains("KFD node 1") && Catch::Contains("gfx942, 1216 SIMDs, 192.0 GiB, device 74a1"));
  }
  SECTION("missing entry points are recorded, the rest is used") {
    manifest(t, json::object(), {{"rocm-smi", {{"output", json{{"library", "x.so"}, {"missing_symbols", {"rsmi_version_get", "rsmi_status_string"}},
                                                                {"init_status", 0}, {"device_count", 1}}
                                                               .dump()}}}});
    const Facts f = probe_root(t.str());
    REQUIRE(f.software.rocm.smi);
    CHECK_FALSE(f.software.rocm.smi->version);
    CHECK(f.software.rocm.smi->device_count == 1);
    const auto* n = find_note(f, "ROCm SMI entry points");
    REQUIRE(n);
    CHECK_THAT(n->problem.detail, Catch::Contains("rsmi_version_get, rsmi_status_string"));
  }
  SECTION("a hung call, a crash, a load failure, garbage, nothing recorded") {
    struct Case {
      json call;
      Reason reason;
      const char* says;
    };
    const Case cases[] = {
        {{{"error", {{"reason", "timed_out"}, {"where", "rocm-smi"}, {"detail", "no answer within 10000 ms; the call was killed"}}}}, Reason::timed_out, "rsmi_init hung"},
        {{{"error", {{"reason", "failed"}, {"where", "rocm-smi"}, {"detail", "the isolated call died by SIGSEGV"}}}}, Reason::failed, "SIGSEGV"},
        {{{"output", json{{"load_error", "librocm_smi64.so.6: cannot open shared object file"}}.dump()}}, Reason::failed, "dlopen failed"},
        {{{"output", "{not json"}}, Reason::malformed, "unreadable answer"},
        {{{"output", "[1,2]"}}, Reason::malformed, "not a JSON object"},
    };
    for (auto& c : cases) {
      INFO(c.call.dump());
      manifest(t, json::object(), {{"rocm-smi", c.call}});
      const Facts f = probe_root(t.str());
      CHECK_FALSE(f.software.rocm.smi);
      const auto* n = find_note(f, "ROCm SMI");
      REQUIRE(n);
      CHECK(n->problem.reason == c.reason);
      CHECK_THAT(n->problem.detail, Catch::Contains(c.says));
    }
    manifest(t, json::object());
    const Facts unrecorded = probe_root(t.str());
    const auto* n = find_note(unrecorded, "ROCm SMI");
    REQUIRE(n);
    CHECK(n->problem.reason == Reason::not_recorded);
  }
}

// What really happens on the CI host (checked by hand first): Debian 12's
// librocm_smi64.so.1 (5.2.3) loads, rsmi_version_get answers 1.0.0 (Debian
// builds it without ROCm's version tags), rsmi_init(0) returns 8
// (RSMI_STATUS_INIT_ERROR) and prints "Failed to open drm root directory
// /sys/class/drm." on stderr, which the probe catches in the child.
TEST_CASE("rocm probe: without amdgpu the real librocm_smi64 is not asked", "[rocm][smi][live]") {
  if (!fs::exists("/usr/lib/librocm_smi64.so.1") || fs::exists("/sys/module/amdgpu") || fs::exists("/sys/class/kfd")) {
    WARN("not the CI host's setup (Debian's librocm-smi64-1, no amdgpu): nothing to check");
    return;
  }
  LiveHost host;
  ProbeContext ctx(host, {});
  probe_rocm(ctx);
  CHECK_FALSE(ctx.take_call("rocm-smi"));  // no child was started
  finish_rocm(ctx);
  const Facts& f = ctx.facts();
  CHECK_FALSE(f.software.rocm.smi);
  const auto* n = find_note(f, "ROCm SMI");
  REQUIRE(n);
  CHECK(n->problem.reason == Reason::absent);
  CHECK_THAT(n->problem.where, Catch::EndsWith("librocm_smi64.so.1"));
  CHECK_THAT(n->problem.detail, Catch::Contains("not asked") && Catch::Contains("--deep"));
}

TEST_CASE("rocm probe: the CI host's real librocm_smi64 fails cleanly in a child", "[rocm][smi][live]") {
  if (!fs::exists("/usr/lib/librocm_smi64.so.1") || fs::exists("/sys/module/amdgpu")) {
    WARN("not the CI host's setup (Debian's librocm-smi64-1, no amdgpu): nothing to check");
    return;
  }
  LiveHost host;
  ProbeOptions deep;
  deep.deep = true;  // asked although it has no GPU to report
  ProbeContext ctx(host, deep);
  const auto start = std::chrono::steady_clock::now();
  probe_rocm(ctx);
  finish_rocm(ctx);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));
  const Facts& f = ctx.facts();
  REQUIRE(f.software.rocm.smi);
  const auto& s = *f.software.rocm.smi;
  REQUIRE(s.library);
  CHECK_THAT(*s.library, Catch::EndsWith("librocm_smi64.so.1"));
  CHECK(s.init_status == 8);  // RSMI_STATUS_INIT_ERROR
  REQUIRE(s.init_message);
  CHECK_THAT(*s.init_message, Catch::Contains("initialization"));
  CHECK(s.version == std::optional<std::string>("1.0.0"));
  CHECK_FALSE(s.device_count);  // never asked after a failed init
  CHECK(f.software.rocm.gpu_nodes.empty());
  const auto* n = find_note(f, "rsmi_init");
  REQUIRE(n);
  CHECK(n->problem.reason == Reason::failed);
  CHECK_THAT(n->problem.detail, Catch::Contains("rsmi_init returned 8") && Catch::Contains("drm"));
  CHECK_FALSE(find_note(f, "ROCm SMI entry points"));  // all five are there
}

// The acceptance fixture, checked against its raw KFD files read here with
// plain string search, not the product's parser.
TEST_CASE("rocm6-mi300x fixture: 8 x gfx942, 192 GB each, ROCm 6.0.2 active", "[rocm][fixtures]") {
  const std::string root = gpucheck::test::source_path("tests/fixtures/hosts/rocm6-mi300x");
  const Facts f = probe_root(root);
  const auto& r = f.software.rocm;
  REQUIRE(r.installs.size() == 1);
  CHECK(r.installs[0].root == "/opt/rocm-6.0.2");
  CHECK(r.installs[0].active);
  CHECK(r.installs[0].version == std::optional<std::string>("6.0.2"));
  CHECK(r.hip_version == std::optional<std::string>("6.0.32831-204d35d16"));
  REQUIRE(r.gpu_nodes.size() == 8);
  int expected_node = 2;
  for (auto& n : r.gpu_nodes) {
    INFO("node " << n.node);
    const auto raw = gpucheck::test::read_file(root + "/sys/class/kfd/kfd/topology/nodes/" + std::to_string(n.node) + "/properties");
    CHECK(raw.find("\ngfx_target_version 90402\n") != std::string::npos);
    CHECK(n.node == expected_node++);
    CHECK(n.gfx_target == std::optional<std::string>("gfx942"));
    CHECK(n.device_id == std::optional<std::string>("74a1"));
    REQUIRE(n.vram_bytes);
    CHECK(*n.vram_bytes > 190'000'000'000ull);  // "192 GB HBM3" (AMD's datasheet), less what the driver keeps
    CHECK(*n.vram_bytes <= 192ull << 30);
  }
  REQUIRE(r.smi);
  CHECK(r.smi->device_count == 8);
  CHECK(r.smi->init_status == 0);
  CHECK(r.env.at("HIP_VISIBLE_DEVICES") == "0,1,2,3,4,5,6,7");
  CHECK(rocm_notes(f).empty());
}
