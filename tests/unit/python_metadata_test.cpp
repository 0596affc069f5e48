// Parsers of Python metadata: core metadata (real torch 2.1.0 METADATA from
// its PyPI wheel), requires.txt (Debian's python3-torch), PEP 508
// requirements and markers, conda-meta, build files, the interpreter's and
// the deep probe's answers; each with broken input.
#include <catch2/catch.hpp>

#include "parse/python_metadata.hpp"
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

TEST_CASE("conda-meta records", "[python][conda]") {
  auto r = parse_conda_meta(gpucheck::test::read_file(gpucheck::test::source_path(
      "tests/fixtures/hosts/conda-pytorch-cu118/opt/conda/envs/pt/conda-meta/pytorch-2.1.0-py3.10_cuda11.8_cudnn8.7.0_0.json")));
  REQUIRE(r);
  CHECK(r->name == "pytorch");
  CHECK(r->version == "2.1.0");
  CHECK(r->build == "py3.10_cuda11.8_cudnn8.7.0_0");
  CHECK(r->depends.size() == 12);
  CHECK_FALSE(parse_conda_meta("{\"name\": \"x\", \"version\": "));
  CHECK_THAT(parse_conda_meta("not json at all").problem().detail, Catch::Contains("not JSON"));
  CHECK_FALSE(parse_conda_meta("[1, 2]"));
  CHECK_THAT(parse_conda_meta("{\"name\": \"x\"}").problem().detail, Catch::Contains("version"));
  CHECK_FALSE(parse_conda_meta(std::string("\x00\xff\xfe", 3)));
}

TEST_CASE("conda match specs in PEP 440 terms", "[python][conda]") {
  auto a = parse_conda_depend("pytorch-cuda >=11.8,<11.9");
  CHECK(a.name == "pytorch-cuda");
  CHECK(a.specifier == ">=11.8,<11.9");
  CHECK(parse_conda_depend("torchtriton 2.1.0").specifier == "==2.1.0.*");
  CHECK(parse_conda_depend("cudatoolkit 11.8.*").specifier == "==11.8.*");
  CHECK(parse_conda_depend("pytorch-mutex 1.0 cuda").specifier == "==1.0.*");
  CHECK(parse_conda_depend("filelock").specifier == "");
  CHECK_FALSE(parse_conda_depend("libblas 3.9.0|3.9.1").specifier);
  CHECK_FALSE(parse_conda_depend("python >=3.10,<3.11.0a0 *_cpython").specifier == std::nullopt);
}

TEST_CASE("framework build files", "[python][build-files]") {
  // torch 2.1.0's own torch/version.py, from its PyPI wheel.
  auto t = parse_python_assignments(gpucheck::test::read_file(gpucheck::test::source_path(
      "tests/fixtures/hosts/venv-torch-cu121/home/user/venv/lib/python3.10/site-packages/torch/version.py")));
  CHECK(t["cuda"] == "12.1");
  CHECK(t["hip"] == "None");
  CHECK(t["git_version"] == "7bcf7da3a268b435777fe87c7794c382f444e86d");
  // torch >= 2.2 annotates: `cuda: Optional[str] = '12.1'`.
  auto t22 = parse_python_assignments("from typing import Optional\n__version__ = '2.2.0+cu121'\ncuda: Optional[str] = '12.1'\nhip: Optional[str] = None\n");
  CHECK(t22["cuda"] == "12.1");
  CHECK(t22["hip"] == "None");
  // TensorFlow's build_info.py, both layouts.
  auto tf = parse_python_assignments("import collections\nbuild_info = collections.OrderedDict()\nbuild_info['cuda_version'] = '12.2'\nbuild_info['cudnn_version'] = '8'\nbuild_info['is_cuda_build'] = True\nbuild_info['is_rocm_build'] = False\n");
  CHECK(tf["cuda_version"] == "12.2");
  CHECK(tf["is_cuda_build"] == "True");
  auto tf_old = parse_python_assignments("build_info = {'cuda_version': '11.2', 'cudnn_version': '8', 'is_cuda_build': True, 'cuda_compute_capabilities': ['sm_35', 'compute_80']}\n");
  CHECK(tf_old["cuda_version"] == "11.2");
  CHECK(tf_old["is_cuda_build"] == "True");
  CHECK(tf_old["cuda_compute_capabilities"] == "['sm_35', 'compute_80']");
  // Garbage: nothing, no crash.
  CHECK(parse_python_assignments("'unterminated = \"x").empty());
  CHECK(parse_python_assignments("x = ").empty());
}

TEST_CASE("pyvenv.cfg", "[python]") {
  auto c = parse_pyvenv_cfg("home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.10.12\n");
  CHECK(c["home"] == "/usr/bin");
  CHECK(c["version"] == "3.10.12");
}

TEST_CASE("the interpreter's sys.path answer", "[python][bad-input]") {
  using namespace std::string_literals;
  auto a = parse_interpreter_answer("3.11.2\0/usr\0/usr\0/usr/bin/python3\0/usr/lib/python311.zip\0/usr/lib/python3.11\0/usr/lib/python3/dist-packages"s);
  REQUIRE(a);
  CHECK(a->version == "3.11.2");
  CHECK(a->executable == "/usr/bin/python3");
  CHECK(a->path == std::vector<std::string>{"/usr/lib/python311.zip", "/usr/lib/python3.11", "/usr/lib/python3/dist-packages"});
  // "" and "." (PYTHONPATH's empty entries) are the job's working directory, not ours.
  auto cwd = parse_interpreter_answer("3.12.1\0/p\0/p\0/p/bin/python\0\0.\0/p/lib"s);
  REQUIRE(cwd);
  CHECK(cwd->path == std::vector<std::string>{"/p/lib"});
  auto none = parse_interpreter_answer("3.12.1\0/p\0/p\0/p/bin/python"s);
  REQUIRE(none);
  CHECK(none->path.empty());
  auto old = parse_interpreter_answer("Python 2.7.18\nSyntaxError: invalid syntax\n");
  REQUIRE_FALSE(old);
  CHECK_THAT(old.problem().detail, Catch::Contains("separated by NUL") && Catch::Contains("Python 2.7.18"));
  auto no_version = parse_interpreter_answer("warning: x\0/usr\0/usr\0/usr/bin/python3\0/usr/lib"s);
  REQUIRE_FALSE(no_version);
  CHECK_THAT(no_version.problem().detail, Catch::Contains("does not start with a Python version") && Catch::Contains("warning: x"));
  CHECK_FALSE(parse_interpreter_answer("3.11.2\0/usr"s));
  CHECK_FALSE(parse_interpreter_answer(""));
}

TEST_CASE("the deep probe's answer", "[python][deep][bad-input]") {
  auto d = parse_deep_answer("some warning\n{\"frameworks\": [{\"name\": \"torch\", \"version\": \"2.1.0\", \"cuda_available\": true, \"device_count\": 8, \"arch_list\": [\"sm_80\", \"sm_90\"], \"fp32_matmul_rel_error\": 0.0011, \"fp32_matmul_looks_tf32\": true}]}\n");
  REQUIRE(d);
  REQUIRE(d->frameworks.size() == 1);
  CHECK(d->frameworks[0].device_count == 8);
  CHECK(d->frameworks[0].arch_list.size() == 2);
  CHECK(d->frameworks[0].fp32_matmul_looks_tf32 == true);
  CHECK_FALSE(d->frameworks[0].tf32_matmul);
  CHECK_FALSE(parse_deep_answer("Segmentation fault"));
  CHECK_FALSE(parse_deep_answer(""));
  auto odd = parse_deep_answer("{\"frameworks\": [{\"name\": 3}, \"x\", {\"name\": \"jax\", \"device_count\": \"two\"}]}");
  REQUIRE(odd);
  REQUIRE(odd->frameworks.size() == 1);
  CHECK_FALSE(odd->frameworks[0].device_count);
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
