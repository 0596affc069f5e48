// What GPU frameworks' build files say, read as Python assignments (real
// torch 2.1.0 torch/version.py, TensorFlow's build_info.py).
#include <catch2/catch.hpp>

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
