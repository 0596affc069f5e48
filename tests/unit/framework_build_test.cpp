// GPU frameworks and what they say of their build: their build files (real
// torch 2.1.0 torch/version.py, TensorFlow's build_info.py), their names (real
// wheel names from PyPI) and their versions' local tags.
#include <catch2/catch.hpp>

#include "parse/framework_build.hpp"
#include "parse/local_tag.hpp"
#include "parse/python_assignments.hpp"
#include "test_support.hpp"

using namespace gpucheck;

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

TEST_CASE("frameworks by their distribution names", "[python][frameworks]") {
  for (const char* yes : {"torch", "tensorflow-cpu", "tf-nightly", "jaxlib", "jax-cuda12-plugin", "jax-cuda12-pjrt",
                          "jax-rocm60-plugin", "cupy-cuda12x", "cupy-rocm-5-0", "transformer-engine-cu12", "tensorrt-cu12",
                          "flash-attn", "paddlepaddle-gpu", "onnxruntime-gpu", "vllm"}) {
    INFO(yes);
    CHECK(is_framework(yes));
  }
  // NVIDIA's library wheels and TensorRT's split packages are libraries, not frameworks.
  for (const char* no : {"tensorrt-cu12-libs", "tensorrt-cu12-bindings", "nvidia-cudnn-cu12", "torchvision", "numpy",
                         "onnxruntime", "Torch", ""}) {
    INFO(no);
    CHECK_FALSE(is_framework(no));
  }
  CHECK(matches_family("tensorflow", "tensorflow"));
  CHECK(matches_family("tensorflow-rocm", "tensorflow"));
  CHECK(matches_family("paddlepaddle-gpu", "paddlepaddle"));
  CHECK_FALSE(matches_family("tensorflowx", "tensorflow"));
  CHECK_FALSE(matches_family("tensor", "tensorflow"));
}

TEST_CASE("frameworks: the CUDA or ROCm that a variant's name states", "[python][frameworks]") {
  CHECK(cuda_from_name_part("cuda12x") == "12");
  CHECK(cuda_from_name_part("cuda118") == "11.8");
  CHECK(cuda_from_name_part("cu12") == "12");
  CHECK_FALSE(cuda_from_name_part("cuda"));
  CHECK_FALSE(cuda_from_name_part("rocm5"));
  CHECK_FALSE(cuda_from_name_part("cudax"));
  CHECK_FALSE(cuda_from_name_part(""));
  // Wheel names from PyPI.
  CHECK(framework_from_name("jax-cuda12-plugin", "0.4.30").cuda == "12");
  CHECK(framework_from_name("cupy-cuda12x", "13.2.0").cuda == "12");
  CHECK(framework_from_name("cupy-cuda118", "11.6.0").cuda == "11.8");
  CHECK(framework_from_name("cupy-rocm-5-0", "13.2.0").hip == "5.0");
  CHECK(framework_from_name("transformer-engine-cu12", "1.11.0").cuda == "12");
  CHECK(framework_from_name("tensorrt-cu12", "10.0.1").cuda == "12");
  const auto torch = framework_from_name("torch", "2.1.0+cu121");
  CHECK(torch.name == "torch");
  CHECK(torch.version == "2.1.0+cu121");
  CHECK(torch.local_tag == "cu121");
  CHECK_FALSE(torch.cuda);  // the tag fills in only after the build files: add_local_tag_facts
  CHECK_FALSE(framework_from_name("jaxlib", "0.4.30").local_tag);
}

TEST_CASE("frameworks: local tags fill what the build files left unknown", "[python][frameworks]") {
  auto torch = framework_from_name("torch", "2.1.0+cu121");
  add_local_tag_facts(torch);
  CHECK(torch.cuda == "12.1");
  CHECK_FALSE(torch.hip);
  CHECK_FALSE(torch.cpu_only);
  auto jaxlib = framework_from_name("jaxlib", "0.4.30+cuda12.cudnn89");
  add_local_tag_facts(jaxlib);
  CHECK(jaxlib.cuda == "12");
  CHECK(jaxlib.cudnn == "8.9");
  auto rocm = framework_from_name("torch", "2.3.0+rocm6.0");
  add_local_tag_facts(rocm);
  CHECK(rocm.hip == "6.0");
  CHECK_FALSE(rocm.cuda);
  auto cpu = framework_from_name("torch", "2.1.0+cpu");
  add_local_tag_facts(cpu);
  CHECK(cpu.cpu_only);
  CHECK_FALSE(cpu.cuda);
  // torch/version.py said 11.8: a tag that disagrees does not overwrite it.
  auto read = framework_from_name("torch", "2.1.0+cu121");
  read.cuda = "11.8";
  add_local_tag_facts(read);
  CHECK(read.cuda == "11.8");
  CHECK(cudnn_from_local_tag("cuda12.cudnn89") == "8.9");
  CHECK_FALSE(cudnn_from_local_tag("cu121"));
  CHECK_FALSE(cudnn_from_local_tag("cudnn8"));
  CHECK_FALSE(cudnn_from_local_tag("cudnnxy"));
}

TEST_CASE("frameworks: what their build files say", "[python][frameworks][build-files]") {
  const auto* torch_file = framework_build_file("torch");
  REQUIRE(torch_file);
  CHECK(torch_file->path == "/torch/version.py");
  CHECK(torch_file->always_there);
  FrameworkBuild torch;
  torch_file->read(gpucheck::test::read_file(gpucheck::test::source_path(
                       "tests/fixtures/hosts/venv-torch-cu121/home/user/venv/lib/python3.10/site-packages/torch/version.py")),
                   torch);
  CHECK(torch.cuda == "12.1");
  CHECK_FALSE(torch.hip);  // None
  CHECK(torch.git_version == "7bcf7da3a268b435777fe87c7794c382f444e86d");
  CHECK_FALSE(torch.cpu_only);

  const auto* tf_file = framework_build_file("tensorflow-cpu");
  REQUIRE(tf_file);
  CHECK(tf_file == framework_build_file("tf-nightly"));
  FrameworkBuild tf;
  tf_file->read("build_info = {'cuda_version': '11.2', 'cudnn_version': '8', 'is_cuda_build': True, 'is_rocm_build': False}\n", tf);
  CHECK(tf.cuda == "11.2");
  CHECK(tf.cudnn == "8");
  CHECK_FALSE(tf.cpu_only);
  FrameworkBuild tf_cpu;
  tf_file->read("build_info = {'cuda_version': '11.2', 'is_cuda_build': False, 'is_rocm_build': False}\n", tf_cpu);
  CHECK_FALSE(tf_cpu.cuda);  // is_cuda_build decides, not a cuda_version beside it
  CHECK(tf_cpu.cpu_only);

  FrameworkBuild paddle;
  framework_build_file("paddlepaddle")->read("full_version    = '2.5.2'\ncommit          = 'cd5a2ae'\ncuda_version    = 'False'\ncudnn_version   = 'False'\n", paddle);
  CHECK_FALSE(paddle.cuda);
  CHECK_FALSE(paddle.cudnn);
  CHECK(paddle.git_version == "cd5a2ae");
  CHECK(paddle.cpu_only);

  FrameworkBuild deepspeed;
  framework_build_file("deepspeed")->read("version='0.14.0'\ngit_hash='unknown'\ntorch_info={'version': '2.2', 'bf16_support': True, 'cuda_version': '12.1', 'nccl_version': '2.19', 'hip_version': '0.0'}\n", deepspeed);
  CHECK(deepspeed.cuda == "12.1");
  CHECK_FALSE(deepspeed.hip);  // "0.0": not a ROCm build
  CHECK(deepspeed.git_version == "unknown");

  const auto* ort = framework_build_file("onnxruntime-gpu");
  REQUIRE(ort);
  CHECK_FALSE(ort->always_there);
  FrameworkBuild onnx;
  ort->read("package_name = 'onnxruntime-gpu'\n__version__ = '1.16.3'\ncuda_version = '11.8'\ncudnn_version = '8.9'\n", onnx);
  CHECK(onnx.cuda == "11.8");
  CHECK(onnx.cudnn == "8.9");

  CHECK_FALSE(framework_build_file("jaxlib"));
  CHECK_FALSE(framework_build_file("cupy-cuda12x"));
}

TEST_CASE("frameworks: any bytes as a name, version or build file, without a crash", "[python][frameworks][bad-input]") {
  std::string junk;
  for (int i = 0; i < 300; ++i) junk += static_cast<char>((i * 91) & 0xff);
  for (const std::string& in : {junk, std::string("jax-cuda"), std::string("jax-rocm"), std::string("cupy-rocm-"),
                               std::string("tensorrt-cu"), std::string("+"), std::string("x+cudnn"), std::string("")}) {
    INFO(in);
    auto f = framework_from_name(in, in);
    for (const char* name : {"torch", "tensorflow", "onnxruntime-gpu", "paddlepaddle", "deepspeed"})
      framework_build_file(name)->read(in, f);
    add_local_tag_facts(f);
    (void)is_framework(in);
  }
  CHECK_FALSE(framework_from_name("jax-cuda", "").cuda);
  CHECK_FALSE(framework_from_name("tensorrt-cu", "").cuda);
}
