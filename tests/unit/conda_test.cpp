// Parsers of conda's records: conda-meta JSON (a real record of the
// conda-pytorch-cu118 fixture) and match specs.
#include <catch2/catch.hpp>

#include "parse/conda_meta.hpp"
#include "test_support.hpp"

using namespace gpucheck;

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
