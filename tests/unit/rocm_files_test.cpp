// The ROCm file parsers (probes/parse/rocm_files.*) against real and broken
// input: KFD properties, .info/version, rocm_version.h, hip_version.h.
#include <catch2/catch.hpp>

#include "parse/rocm_files.hpp"
#include "test_support.hpp"

using namespace gpucheck;
using gpucheck::test::data;

TEST_CASE("kfd properties: an MI300X GPU node", "[rocm][parse]") {
  auto p = parse_kfd_properties(data("rocm/kfd-mi300x-gpu-node.properties"));
  REQUIRE(p);
  CHECK(p->bad_lines.empty());
  CHECK(p->values.size() == 38);
  CHECK(p->get("simd_count") == std::uint64_t{1216});
  CHECK(p->get("gfx_target_version") == std::uint64_t{90402});
  CHECK(p->get("device_id") == std::uint64_t{29857});  // 0x74a1
  CHECK(p->get("hive_id") == std::uint64_t{10631624818852212319ull});  // above INT64_MAX
  CHECK_FALSE(p->get("no_such_key"));
}

TEST_CASE("kfd properties: the CPU node has no SIMDs and target 0", "[rocm][parse]") {
  auto p = parse_kfd_properties(data("rocm/kfd-mi300x-cpu-node.properties"));
  REQUIRE(p);
  CHECK(p->get("simd_count") == std::uint64_t{0});
  CHECK(p->get("gfx_target_version") == std::uint64_t{0});
  CHECK(p->get("cpu_cores_count") == std::uint64_t{96});
}

TEST_CASE("kfd properties: garbage lines are listed, good ones kept", "[rocm][parse][bad_input]") {
  auto p = parse_kfd_properties("simd_count 304\nthis is not it\ngfx_target_version -1\nname\n\x01\x02 3\n"
                                "size_in_bytes 99999999999999999999999\ndevice_id 29857");
  REQUIRE(p);
  CHECK(p->values.size() == 2);
  CHECK(p->get("simd_count") == std::uint64_t{304});
  CHECK(p->get("device_id") == std::uint64_t{29857});  // the last line has no newline
  CHECK(p->bad_lines.size() == 5);  // text, negative, no value, control bytes, overflow
  for (auto& l : p->bad_lines) CHECK(l.find('\x01') == std::string::npos);  // quoted safely
}

TEST_CASE("kfd properties: nothing readable is malformed", "[rocm][parse][bad_input]") {
  for (const char* text : {"", "\n\n", "garbage\nmore garbage\n", "\xff\xfe\x00\x01"}) {
    INFO(text);
    auto p = parse_kfd_properties(text);
    REQUIRE_FALSE(p);
    CHECK(p.problem().reason == Reason::malformed);
  }
  // A truncated file keeps what came before the cut.
  auto t = parse_kfd_properties("cpu_cores_count 0\nsimd_count 1216\ngfx_target_ver");
  REQUIRE(t);
  CHECK(t->get("simd_count") == std::uint64_t{1216});
  CHECK(t->bad_lines.size() == 1);
}

TEST_CASE("gfx target names: ROCm's encoding (decimal major, hex minor and stepping)", "[rocm][parse]") {
  CHECK(gfx_target_name(90402) == std::optional<std::string>("gfx942"));   // MI300X
  CHECK(gfx_target_name(90400) == std::optional<std::string>("gfx940"));
  CHECK(gfx_target_name(90010) == std::optional<std::string>("gfx90a"));   // MI200: stepping 10 is 'a'
  CHECK(gfx_target_name(90008) == std::optional<std::string>("gfx908"));   // MI100
  CHECK(gfx_target_name(90012) == std::optional<std::string>("gfx90c"));
  CHECK(gfx_target_name(100302) == std::optional<std::string>("gfx1032"));
  CHECK(gfx_target_name(110000) == std::optional<std::string>("gfx1100"));
  CHECK(gfx_target_name(110501) == std::optional<std::string>("gfx1151"));
  CHECK(gfx_target_name(120001) == std::optional<std::string>("gfx1201"));
  CHECK(gfx_target_name(80003) == std::optional<std::string>("gfx803"));
  CHECK_FALSE(gfx_target_name(0));        // a CPU node
  CHECK_FALSE(gfx_target_name(402));      // no major
  CHECK_FALSE(gfx_target_name(1000000));  // more than six digits
}

TEST_CASE("rocm .info/version: both rocm-core spellings", "[rocm][parse]") {
  CHECK(*parse_rocm_version_file(data("rocm/info-version-6.0.2")) == "6.0.2");  // "6.0.2-115"
  CHECK(*parse_rocm_version_file("6.4.1\n") == "6.4.1");
  CHECK(*parse_rocm_version_file("7.0.0.70000\n") == "7.0.0.70000");
  CHECK(*parse_rocm_version_file("  5.7.1-98  \r\nsecond line ignored\n") == "5.7.1");
}

TEST_CASE("rocm .info/version: truncated or garbage is malformed", "[rocm][parse][bad_input]") {
  for (const char* text : {"", "\n", "6", "6.", "6.0.", "6.0.2-", "6.0.2-abc", "rocm-6.0.2", "v6.0.2", "6.0.2.1.5",
                           "\x7f" "ELF", "6..2"}) {
    INFO("'" << text << "'");
    auto v = parse_rocm_version_file(text);
    REQUIRE_FALSE(v);
    CHECK(v.problem().reason == Reason::malformed);
    CHECK_FALSE(v.problem().detail.empty());
  }
}

TEST_CASE("rocm_version.h and hip_version.h", "[rocm][parse]") {
  CHECK(*parse_rocm_version_header(data("rocm/rocm_version-6.0.2.h")) == "6.0.2");
  CHECK(*parse_hip_version_header(data("rocm/hip_version-6.0.2.h")) == "6.0.32831-204d35d16");
  // No git hash: the plain version.
  CHECK(*parse_hip_version_header("#define HIP_VERSION_MAJOR 6\n#define HIP_VERSION_MINOR 2\n"
                                  "#define HIP_VERSION_PATCH 41134\n#define HIP_VERSION_GITHASH \"\"\n") == "6.2.41134");
  // "# define" with spaces and trailing comments are still defines.
  CHECK(*parse_rocm_version_header("# define ROCM_VERSION_MAJOR 5 // major\n#define\tROCM_VERSION_MINOR\t7\n"
                                   "#define ROCM_VERSION_PATCH 1 /* patch */\n") == "5.7.1");
}

TEST_CASE("version headers: truncated or garbage is malformed with the missing name", "[rocm][parse][bad_input]") {
  auto full = data("rocm/hip_version-6.0.2.h");
  auto cut = parse_hip_version_header(full.substr(0, full.find("HIP_VERSION_PATCH")));
  REQUIRE_FALSE(cut);
  CHECK(cut.problem().reason == Reason::malformed);
  CHECK_THAT(cut.problem().detail, Catch::Contains("HIP_VERSION_PATCH"));

  auto bad = parse_rocm_version_header("#define ROCM_VERSION_MAJOR 6\n#define ROCM_VERSION_MINOR x\n#define ROCM_VERSION_PATCH 2\n");
  REQUIRE_FALSE(bad);
  CHECK_THAT(bad.problem().detail, Catch::Contains("ROCM_VERSION_MINOR"));
  CHECK_FALSE(parse_rocm_version_header(""));
  CHECK_FALSE(parse_hip_version_header("\x00\x01\x02garbage"));
  CHECK_FALSE(parse_rocm_version_header("#defineROCM_VERSION_MAJOR 6\n"));
}
