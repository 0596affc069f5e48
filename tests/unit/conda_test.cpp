// Parsers of conda's records: conda-meta JSON (a real record of the
// conda-pytorch-cu118 fixture), match specs, and PyTorch's build strings as
// conda-meta file names and collect_env's "[conda]" lines carry them.
#include <catch2/catch.hpp>

#include "parse/conda_build.hpp"
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

TEST_CASE("conda build strings: PyTorch's CUDA, cuDNN and CPU builds", "[python][conda]") {
  // The pytorch channel's builds, as conda-meta names them and collect_env prints them.
  const auto cu118 = parse_conda_build("py3.10_cuda11.8_cudnn8.7.0_0");
  CHECK(cu118.cuda == "11.8");
  CHECK(cu118.cudnn == "8.7.0");
  CHECK_FALSE(cu118.cpu_only);
  const auto old = parse_conda_build("py3.7_cuda10.1.243_cudnn7.6.3_0");
  CHECK(old.cuda == "10.1.243");
  CHECK(old.cudnn == "7.6.3");
  const auto cpu = parse_conda_build("py3.10_cpu_0");
  CHECK_FALSE(cpu.cuda);
  CHECK_FALSE(cpu.cudnn);
  CHECK(cpu.cpu_only);
  // pytorch-mutex's build is the bare word "cuda": a variant, no version.
  const auto mutex = parse_conda_build("cuda");
  CHECK_FALSE(mutex.cuda);
  CHECK_FALSE(mutex.cpu_only);
  // Other packages' builds (cudatoolkit's hash, torchtriton's python tag) say nothing.
  CHECK_FALSE(parse_conda_build("h6a678d5_0").cuda);
  CHECK_FALSE(parse_conda_build("py310").cudnn);
}

TEST_CASE("conda build strings: only versions count, any bytes without a crash", "[python][conda][bad-input]") {
  const auto b = parse_conda_build("py3.10_cudaX_cuda12.1_cudnn_cudnn8.9.2_0");
  CHECK(b.cuda == "12.1");
  CHECK(b.cudnn == "8.9.2");
  for (const std::string& bad : {std::string(""), std::string("_"), std::string("__cuda__"), std::string("cuda1234567890"),
                                std::string("\xff\xfe_cuda\x00_cpu", 12)}) {
    INFO(bad);
    const auto j = parse_conda_build(bad);
    CHECK_FALSE(j.cuda);
    CHECK_FALSE(j.cudnn);
    (void)conda_build_of_record_file(bad);
  }
  CHECK(parse_conda_build(std::string("\xff\xfe_cuda\x00_cpu", 12)).cpu_only);
}

TEST_CASE("conda build strings: the build in a conda-meta file name", "[python][conda]") {
  // The conda-pytorch-cu118 fixture's conda-meta directory.
  CHECK(conda_build_of_record_file("pytorch-2.1.0-py3.10_cuda11.8_cudnn8.7.0_0.json") == "py3.10_cuda11.8_cudnn8.7.0_0");
  CHECK(conda_build_of_record_file("pytorch-cuda-11.8-h7e8668a_5.json") == "h7e8668a_5");
  CHECK(conda_build_of_record_file("pytorch-mutex-1.0-cuda.json") == "cuda");
  CHECK(conda_build_of_record_file("nodash.json") == "nodash");
  CHECK(conda_build_of_record_file("") == "");
}

TEST_CASE("conda build strings: a framework's own files come first", "[python][conda]") {
  const auto with_build = [](FrameworkBuild f, std::string_view build) {
    add_conda_build_facts(f, parse_conda_build(build));
    return f;
  };
  FrameworkBuild cuda_118;  // as torch/version.py said
  cuda_118.cuda = "11.8";
  const auto a = with_build(cuda_118, "py3.10_cuda12.1_cudnn8.9.2_0");
  CHECK(a.cuda == "11.8");
  CHECK(a.cudnn == "8.9.2");
  CHECK_FALSE(a.cpu_only);
  CHECK_FALSE(with_build(cuda_118, "py3.10_cpu_0").cpu_only);
  FrameworkBuild rocm;
  rocm.hip = "6.0";
  CHECK_FALSE(with_build(rocm, "py3.10_cpu_0").cpu_only);
  CHECK(with_build(FrameworkBuild{}, "py3.10_cpu_0").cpu_only);
}
