// Parsers of Python metadata: core metadata (real torch 2.1.0 METADATA from
// its PyPI wheel), requires.txt (Debian's python3-torch), PEP 508
// requirements and markers, pyvenv.cfg, local tags and metadata directory
// names; each with broken input.
#include <catch2/catch.hpp>

#include "parse/local_tag.hpp"
#include "parse/python_core_metadata.hpp"
#include "parse/python_marker.hpp"
#include "parse/python_requirement.hpp"
#include "parse/pyvenv_cfg.hpp"
#include "test_support.hpp"

using namespace gpucheck;

TEST_CASE("core metadata: torch 2.1.0's METADATA from its PyPI wheel", "[python][metadata]") {
  auto m = parse_core_metadata(gpucheck::test::data("python/torch-2.1.0.METADATA"));
  REQUIRE(m);
  CHECK(m->name == "torch");
  CHECK(m->version == "2.1.0");
  REQUIRE(m->requires_dist.size() == 20);
  auto r = parse_requirement(m->requires_dist[9]);
  REQUIRE(r);
  CHECK(r->name == "nvidia-cudnn-cu12");
  CHECK(r->specifier == "==8.9.2.26");
  CHECK(r->marker == "platform_system == \"Linux\" and platform_machine == \"x86_64\"");
}

TEST_CASE("core metadata: broken input gives a reason", "[python][metadata][bad-input]") {
  const std::string full = gpucheck::test::data("python/torch-2.1.0.METADATA");
  auto truncated = parse_core_metadata(full.substr(0, 20));  // "Metadata-Version: 2."
  REQUIRE_FALSE(truncated);
  CHECK_THAT(truncated.problem().detail, Catch::Contains("no Name"));
  auto no_version = parse_core_metadata("Metadata-Version: 2.1\nName: torch\n");
  REQUIRE_FALSE(no_version);
  CHECK_THAT(no_version.problem().detail, Catch::Contains("no Version"));
  std::string junk;
  for (int i = 0; i < 300; ++i) junk += static_cast<char>((i * 91) & 0xff);
  auto bin = parse_core_metadata(junk);
  REQUIRE_FALSE(bin);
  CHECK_THAT(bin.problem().detail, Catch::Contains("binary"));
  CHECK_FALSE(parse_core_metadata(""));
}

TEST_CASE("core metadata: continuation lines, CRLF, body after the headers", "[python][metadata]") {
  auto m = parse_core_metadata("Name: x\r\nVersion: 1.0\r\nRequires-Dist: a\r\n  >=1\r\n\r\nRequires-Dist: not-a-header\r\n");
  REQUIRE(m);
  REQUIRE(m->requires_dist.size() == 1);
  CHECK(m->requires_dist[0] == "a >=1");
}

TEST_CASE("core metadata: where the header block ends, blank lines with spaces and CRLF too", "[python][metadata]") {
  CHECK(core_metadata_headers_end("Name: x\nVersion: 1\n\nbody") == 19);
  CHECK(core_metadata_headers_end("Name: x\r\n\r\nbody") == 9);
  CHECK(core_metadata_headers_end("Name: x\n   \nbody") == 8);
  CHECK(core_metadata_headers_end("\nbody") == 0);
  // A head read short of the blank line, or a file with no body: not yet known.
  CHECK(core_metadata_headers_end("Name: x\nVersion: 1\nClassifier: Progr") == std::string_view::npos);
  CHECK(core_metadata_headers_end("") == std::string_view::npos);
}

TEST_CASE("requires.txt: sections become markers", "[python][metadata]") {
  auto debian = parse_requires_txt(gpucheck::test::data("python/torch-1.13-debian.requires.txt"));
  REQUIRE(debian.size() == 1);
  CHECK(debian[0] == "opt-einsum>=3.3; extra == \"opt-einsum\"");
  auto r = parse_requires_txt("numpy\n\n[:platform_system == \"Linux\"]\nfoo>=1\n[cuda:python_version < \"3.9\"]\nbar; os_name == \"posix\"\n");
  REQUIRE(r.size() == 3);
  CHECK(r[0] == "numpy");
  CHECK(r[1] == "foo>=1; (platform_system == \"Linux\")");
  CHECK(r[2] == "bar; (os_name == \"posix\") and (python_version < \"3.9\") and extra == \"cuda\"");
}

TEST_CASE("PEP 508 requirements", "[python][metadata]") {
  auto a = parse_requirement("Nvidia_CUDNN_cu12 (==8.9.2.26) ; platform_system == \"Linux\"");
  REQUIRE(a);
  CHECK(a->name == "nvidia-cudnn-cu12");
  CHECK(a->specifier == "==8.9.2.26");
  auto b = parse_requirement("requests[security,socks] >= 2.8.1, == 2.8.*");
  REQUIRE(b);
  CHECK(b->name == "requests");
  CHECK(b->specifier == ">=2.8.1,==2.8.*");
  CHECK_FALSE(b->marker);
  auto c = parse_requirement("pip @ https://github.com/pypa/pip/archive/1.3.1.zip ; python_version > '3.0'");
  REQUIRE(c);
  CHECK(c->url == "https://github.com/pypa/pip/archive/1.3.1.zip");
  CHECK(c->marker == "python_version > '3.0'");
  CHECK_FALSE(parse_requirement(">=1.0"));
  CHECK_FALSE(parse_requirement("foo[bar >=1"));
  CHECK_FALSE(parse_requirement("foo (>=1"));
}

TEST_CASE("markers: the common variables, three-valued", "[python][marker]") {
  MarkerEnv env;
  env.values = {{"platform_system", "Linux"}, {"sys_platform", "linux"}, {"platform_machine", "x86_64"},
                {"python_version", "3.10"}, {"os_name", "posix"}};
  CHECK(evaluate_marker("platform_system == \"Linux\" and platform_machine == \"x86_64\"", env) == true);
  CHECK(evaluate_marker("platform_machine == 'aarch64'", env) == false);
  CHECK(evaluate_marker("python_version < \"3.8\"", env) == false);
  CHECK(evaluate_marker("python_version >= '3.8'", env) == true);  // 3.10 > 3.8 as versions, not strings
  CHECK(evaluate_marker("sys_platform == 'win32' or sys_platform == 'linux'", env) == true);
  CHECK(evaluate_marker("'linux' in sys_platform", env) == true);
  CHECK(evaluate_marker("sys_platform not in 'win32 cygwin'", env) == true);
  CHECK(evaluate_marker("(python_version < '3.9' or os_name == 'posix') and platform_system != 'Darwin'", env) == true);
  // An extra is never asked for: not required.
  CHECK(evaluate_marker("extra == 'dynamo'", env) == false);
  CHECK(evaluate_marker("extra == \"opt_einsum\"", env) == false);
  CHECK(evaluate_marker("extra != 'x'", env) == true);
  // Unknown variables stay unknown, unless the rest decides.
  CHECK_FALSE(evaluate_marker("platform_release >= '5.0'", env).has_value());
  CHECK(evaluate_marker("platform_release >= '5.0' and extra == 'x'", env) == false);
  CHECK(evaluate_marker("platform_release >= '5.0' or os_name == 'posix'", env) == true);
  // Broken markers: unknown, never a crash.
  for (const char* bad : {"", "python_version", "python_version >=", "(os_name == 'posix'", "os_name == 'posix", "os_name === ", "a b c", "not os_name"}) {
    INFO(bad);
    CHECK_FALSE(evaluate_marker(bad, env).has_value());
  }
}

TEST_CASE("pyvenv.cfg", "[python]") {
  auto c = parse_pyvenv_cfg("home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.10.12\n");
  CHECK(c["home"] == "/usr/bin");
  CHECK(c["version"] == "3.10.12");
}

TEST_CASE("local tags and metadata directory names", "[python]") {
  CHECK(cuda_from_local_tag("cu121") == "12.1");
  CHECK(cuda_from_local_tag("cu118") == "11.8");
  CHECK(cuda_from_local_tag("cu92") == "9.2");
  CHECK(cuda_from_local_tag("cuda12.cudnn89") == "12");
  CHECK_FALSE(cuda_from_local_tag("cpu"));
  CHECK_FALSE(cuda_from_local_tag("gitunknown"));
  CHECK(hip_from_local_tag("rocm6.0") == "6.0");
  CHECK_FALSE(hip_from_local_tag("rocm"));
  auto nv = split_metadata_dir_name("torch-2.1.0+cu121.dist-info");
  REQUIRE(nv);
  CHECK(nv->name == "torch");
  CHECK(nv->version == "2.1.0+cu121");
  CHECK(split_metadata_dir_name("torch-1.13.0a0+gitunknown.egg-info")->version == "1.13.0a0+gitunknown");
  CHECK(split_metadata_dir_name("six-1.16.0-py3.10.egg-info")->version == "1.16.0");
  CHECK_FALSE(split_metadata_dir_name("torch"));
}
