// Parsers of what an interpreter answers: the sys.path question's
// NUL-separated fields and the deep probe's JSON, each with broken input.
#include <catch2/catch.hpp>

#include "parse/deep_probe_answer.hpp"
#include "parse/sys_path_answer.hpp"

using namespace gpucheck;

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
