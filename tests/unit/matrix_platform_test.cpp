// The platform tables (matrix/libraries.json, pcie.json, cuda_errors.json):
// the strict loader rejects a broken entry of each with its file and JSON
// path, and each embedded document parses alone, as the probes read it.
#include <catch2/catch.hpp>

#include <algorithm>

#include "matrix/matrix_load.hpp"
#include "matrix/platform_knowledge.hpp"

using namespace gpucheck;

namespace {

constexpr const char* kName = "platform-broken.json";

struct BrokenEntry {
  const char* section;  // the one section of the document
  std::string entry;    // its one (or more) entries, as JSON
  const char* where;    // after "platform-broken.json: "
  const char* phrase;   // in the detail
};

MatrixCheck check(const BrokenEntry& c) {
  const std::string text =
      std::string(R"({"schema": "gpucheck.matrix/1", ")") + c.section + "\": [" + c.entry + "]}";
  return check_matrix({MatrixDocument{kName, text}}, MatrixRole::layer);
}

constexpr const char* kSource = R"("sources": ["https://example.com/page"])";

std::string with_source(const std::string& fields) { return "{" + fields + ", " + kSource + "}"; }

}  // namespace

TEST_CASE("matrix: a broken entry of each platform table is rejected with its place and reason", "[matrix][platform]") {
  const std::string prefixes = with_source(R"("family": "cuda-toolkit", "prefixes": ["libcublas"])");
  const std::string shim = with_source(R"("library": "cudnn", "shim": "libcudnn.so.9", "sonames": ["libcudnn_ops.so.9"])");
  const std::string wheels = with_source(R"("library": "cudnn", "wheels": ["nvidia-cudnn-cu12"])");
  const std::string pcie = with_source(R"("generation": 4, "transfer_rate_gts": 16.0, "encoding": "128b/130b")");
  const std::string error = with_source(R"("code": 34, "name": "CUDA_ERROR_STUB_LIBRARY")");
  const BrokenEntry cases[] = {
      // soname_prefixes
      {"soname_prefixes", R"({"family": "cuda-toolkit", "prefixes": ["libcublas"]})", "/soname_prefixes/0/sources",
       "required field \"sources\" is missing"},
      {"soname_prefixes", R"({"family": "cuda-toolkit", "prefixes": "libcublas", "sources": ["https://example.com/page"]})",
       "/soname_prefixes/0/prefixes", "expected an array of strings, found a string \"libcublas\""},
      {"soname_prefixes", R"({"family": "cuda-toolkit", "prefix": ["libcublas"], "prefixes": ["libcufft"], "sources": ["https://example.com/page"]})",
       "/soname_prefixes/0/prefix", "unknown key \"prefix\" (did you mean \"prefixes\"?); allowed keys: family, prefixes, sources"},
      {"soname_prefixes", R"({"family": "cuda-toolkit", "prefixes": ["cublas"], "sources": ["https://example.com/page"]})",
       "/soname_prefixes/0/prefixes/0", "expected the start of a soname"},
      {"soname_prefixes", (prefixes + ", " + with_source(R"("family": "other", "prefixes": ["libcublas"])")),
       "/soname_prefixes/1/prefixes/0", "duplicate soname prefix \"libcublas\": also at platform-broken.json: /soname_prefixes/0"},
      // sub_libraries
      {"sub_libraries", R"({"library": "cudnn", "shim": "libcudnn.so.9", "sonames": ["libcudnn_ops.so.9"], "sources": []})",
       "/sub_libraries/0/sources", "expected a non-empty array of https:// URLs, found []"},
      {"sub_libraries", R"({"library": "cudnn", "shim": 9, "sonames": ["libcudnn_ops.so.9"], "sources": ["https://example.com/page"]})",
       "/sub_libraries/0/shim", "expected a string, found a number 9"},
      {"sub_libraries", R"({"library": "cudnn", "shim": "libcudnn.so.9", "soname": ["libcudnn_ops.so.9"], "sonames": ["libcudnn_cnn.so.9"], "sources": ["https://example.com/page"]})",
       "/sub_libraries/0/soname", "unknown key \"soname\" (did you mean \"sonames\"?)"},
      {"sub_libraries", R"({"library": "cudnn", "shim": "libcudnn.so.9", "sonames": ["libcudnn_ops.so"], "sources": ["https://example.com/page"]})",
       "/sub_libraries/0/sonames/0", "expected a soname with its version"},
      {"sub_libraries", (shim + ", " + shim), "/sub_libraries/1/shim",
       "duplicate sub-library shim \"libcudnn.so.9\": also at platform-broken.json: /sub_libraries/0"},
      // library_wheels
      {"library_wheels", R"({"library": "cudnn", "wheels": ["nvidia-cudnn-cu12"], "sources": ["http://pypi.org/project/nvidia-cudnn-cu12/"]})",
       "/library_wheels/0/sources/0", "expected an https:// URL"},
      {"library_wheels", R"({"library": "cudnn", "wheels": {"cu12": "nvidia-cudnn-cu12"}, "sources": ["https://example.com/page"]})",
       "/library_wheels/0/wheels", "expected an array of strings, found"},
      {"library_wheels", R"({"library": "cudnn", "wheel": ["nvidia-cudnn-cu12"], "wheels": ["nvidia-cudnn-cu11"], "sources": ["https://example.com/page"]})",
       "/library_wheels/0/wheel", "unknown key \"wheel\" (did you mean \"wheels\"?); allowed keys: library, wheels, metapackages, sources"},
      {"library_wheels", R"({"library": "cudnn", "wheels": ["nvidia_cudnn_cu12"], "sources": ["https://example.com/page"]})",
       "/library_wheels/0/wheels/0", "PEP 503 normal form"},
      {"library_wheels", R"({"library": "tensorrt", "wheels": ["tensorrt"], "metapackages": ["tensorrt"], "sources": ["https://example.com/page"]})",
       "/library_wheels/0/metapackages", "\"tensorrt\" is also in wheels"},
      {"library_wheels", (wheels + ", " + with_source(R"("library": "other", "wheels": ["nvidia-cudnn-cu12"])")),
       "/library_wheels/1/wheels/0", "duplicate wheel \"nvidia-cudnn-cu12\": also at platform-broken.json: /library_wheels/0"},
      // pcie_generations
      {"pcie_generations", R"({"generation": 4, "transfer_rate_gts": 16.0, "encoding": "128b/130b"})",
       "/pcie_generations/0/sources", "required field \"sources\" is missing"},
      {"pcie_generations", R"({"generation": 4, "transfer_rate_gts": "16", "encoding": "128b/130b", "sources": ["https://example.com/page"]})",
       "/pcie_generations/0/transfer_rate_gts", "expected a positive number, found a string \"16\""},
      {"pcie_generations", R"({"generation": 4, "transfer_rate_gts": 16.0, "sources": ["https://example.com/page"]})",
       "/pcie_generations/0/encoding", "required field \"encoding\" is missing (or give \"note\""},
      {"pcie_generations", R"({"generation": 4, "transfer_rate_gts": 16.0, "encoding": "128b/130b", "lanes": 16, "sources": ["https://example.com/page"]})",
       "/pcie_generations/0/lanes", "unknown key \"lanes\"; allowed keys: generation, transfer_rate_gts, encoding, note, sources"},
      {"pcie_generations", R"({"generation": 4, "transfer_rate_gts": 16.0, "encoding": "130b/128b", "note": "n", "sources": ["https://example.com/page"]})",
       "/pcie_generations/0/encoding", "expected a line encoding of payload bits per line bits"},
      {"pcie_generations", R"({"generation": 4.5, "transfer_rate_gts": 16.0, "encoding": "128b/130b", "sources": ["https://example.com/page"]})",
       "/pcie_generations/0/generation", "expected an integer from 1 to 99, found a number 4.5"},
      {"pcie_generations", (pcie + ", " + pcie), "/pcie_generations/1/generation",
       "duplicate PCIe generation \"4\": also at platform-broken.json: /pcie_generations/0"},
      // cuda_errors
      {"cuda_errors", R"({"code": 34, "name": "CUDA_ERROR_STUB_LIBRARY"})", "/cuda_errors/0/sources",
       "required field \"sources\" is missing"},
      {"cuda_errors", R"({"code": "34", "name": "CUDA_ERROR_STUB_LIBRARY", "sources": ["https://example.com/page"]})",
       "/cuda_errors/0/code", "expected an integer from 1 to 999, found a string \"34\""},
      {"cuda_errors", R"({"code": 34, "name": "CUDA_ERROR_STUB_LIBRARY", "nmae": "x", "sources": ["https://example.com/page"]})",
       "/cuda_errors/0/nmae", "unknown key \"nmae\" (did you mean \"name\"?); allowed keys: code, name, sources"},
      {"cuda_errors", R"({"code": 34, "name": "cudaErrorStubLibrary", "sources": ["https://example.com/page"]})",
       "/cuda_errors/0/name", "expected a CUresult name from cuda.h"},
      {"cuda_errors", (error + ", " + error), "/cuda_errors/1/code",
       "duplicate CUDA error code \"34\": also at platform-broken.json: /cuda_errors/0"},
  };
  for (const auto& c : cases) {
    SECTION(std::string(c.section) + " " + c.where + ": " + c.phrase) {
      const auto result = check(c);
      CHECK_FALSE(result.matrix.has_value());
      for (const auto& p : result.problems) UNSCOPED_INFO(p.where << ": " << p.detail);
      REQUIRE(result.problems.size() == 1);
      const auto& p = result.problems[0];
      CHECK(p.reason == Reason::malformed);
      CHECK(p.where == std::string(kName) + ": " + c.where);
      CHECK_THAT(p.detail, Catch::Contains(c.phrase));
    }
  }
}

TEST_CASE("matrix: valid platform entries load with every field", "[matrix][platform]") {
  const std::string text = R"({"schema": "gpucheck.matrix/1",
    "soname_prefixes": [{"family": "cuda-toolkit", "prefixes": ["libcublas", "libnvidia-"], "sources": ["https://example.com/a"]}],
    "sub_libraries": [{"library": "cudnn", "shim": "libcudnn.so.9", "sonames": ["libcudnn_graph.so.9", "libcudnn_ops.so.9"], "sources": ["https://example.com/b"]}],
    "library_wheels": [{"library": "tensorrt", "wheels": ["tensorrt-cu12-libs"], "metapackages": ["tensorrt"], "sources": ["https://example.com/c"]}],
    "pcie_generations": [{"generation": 6, "transfer_rate_gts": 64.0, "note": "Flit", "sources": ["https://example.com/d"]}],
    "cuda_errors": [{"code": 222, "name": "CUDA_ERROR_UNSUPPORTED_PTX_VERSION", "sources": ["https://example.com/e"]}]})";
  const auto result = check_matrix({MatrixDocument{kName, text}}, MatrixRole::layer);
  for (const auto& p : result.problems) UNSCOPED_INFO(p.where << ": " << p.detail);
  REQUIRE(result.matrix.has_value());
  const auto& m = *result.matrix;
  REQUIRE(m.soname_prefixes.size() == 1);
  CHECK(m.soname_prefixes[0].prefixes == std::vector<std::string>{"libcublas", "libnvidia-"});
  REQUIRE(m.sub_libraries.size() == 1);
  CHECK(m.sub_libraries[0].sonames == std::vector<std::string>{"libcudnn_graph.so.9", "libcudnn_ops.so.9"});
  REQUIRE(m.library_wheels.size() == 1);
  CHECK(m.library_wheels[0].metapackages == std::vector<std::string>{"tensorrt"});
  REQUIRE(m.pcie_generations.size() == 1);
  CHECK_FALSE(m.pcie_generations[0].encoding.has_value());
  CHECK(m.pcie_generations[0].transfer_rate_gts == 64.0);
  REQUIRE(m.cuda_errors.size() == 1);
  CHECK(m.cuda_errors[0].code == 222);
}

TEST_CASE("matrix: each embedded platform document parses on its own", "[matrix][platform][embedded]") {
  for (const char* path : {"matrix/libraries.json", "matrix/pcie.json", "matrix/cuda_errors.json"}) {
    SECTION(path) {
      const auto result = check_platform_document(path);
      for (const auto& p : result.problems) UNSCOPED_INFO(p.where << ": " << p.detail);
      CHECK(result.problems.empty());
      CHECK(result.matrix.has_value());
    }
  }
  CHECK_FALSE(check_platform_document("matrix/nope.json").matrix.has_value());
}

TEST_CASE("matrix: a run's rules load leaves out the platform documents, which their readers parse alone", "[matrix][platform][embedded]") {
  const auto all = embedded_matrix_documents(), compatibility = embedded_compatibility_documents();
  std::vector<std::string> left_out;
  for (const auto& d : all) {
    const bool kept = std::any_of(compatibility.begin(), compatibility.end(), [&](const MatrixDocument& c) { return c.name == d.name; });
    if (!kept) left_out.push_back(d.name);
  }
  CHECK(left_out == std::vector<std::string>{"embedded:matrix/cuda_errors.json", "embedded:matrix/libraries.json",
                                             "embedded:matrix/pcie.json"});
  const auto without = check_matrix(compatibility);
  REQUIRE(without.matrix.has_value());
  CHECK(without.matrix->pcie_generations.empty());
  CHECK_FALSE(without.matrix->gpus.empty());
}
