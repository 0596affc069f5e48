// collect_env reports read into facts. The corpus (tests/data/reports/
// collect_env, real outputs from public issue threads, SOURCES.md) is checked
// against values read from each file with plain regexes, not the importer;
// each field mapping has its own case on small synthetic snippets.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>

#include "importers/collect_env.hpp"
#include "importers/import_report.hpp"
#include "test_support.hpp"

using namespace gpucheck;
namespace fs = std::filesystem;

namespace {

const std::string kCorpus = gpucheck::test::source_path("tests/data/reports/collect_env");

bool unknown(const std::string& v) {
  static const std::set<std::string> u{"", "Could not collect", "N/A", "None", "No CUDA"};
  return u.count(v) > 0;
}

std::optional<std::string> first(const std::string& text, const char* pattern) {
  std::smatch m;
  if (!std::regex_search(text, m, std::regex(pattern))) return std::nullopt;
  return m[1].str();
}

int line_of(const std::string& text, const std::string& needle) {
  const auto at = text.find(needle);
  return at == std::string::npos ? 0 : 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
}

const FrameworkBuild* torch_of(const Facts& f) {
  for (auto& e : f.software.python)
    for (auto& fw : e.frameworks)
      if (fw.name == "torch") return &fw;
  return nullptr;
}

Facts import_snippet(const std::string& text) {
  auto r = import_report(text, "snippet.txt");
  if (!r) FAIL(r.problem().detail);
  return r.value().facts;
}

}  // namespace

TEST_CASE("the collect_env corpus: every file imports with the values it states", "[importers][collect_env]") {
  int files = 0;
  for (auto& e : fs::directory_iterator(kCorpus)) {
    if (e.path().extension() != ".txt") continue;
    const auto raw = gpucheck::test::read_file(e.path().string());
    INFO(e.path().filename().string());
    auto r = import_report(raw, e.path().string());
    // One report has lines glued to the one before (pt139298, as stored): the
    // values are read after a line break is put back before each glued key.
    const auto text = std::regex_replace(raw, std::regex(R"(([^\s])(OS: |Python version: |Nvidia driver version: ))"), "$1\n$2");
    if (!r) FAIL(r.problem().detail);
    CHECK((r->format == ReportFormat::torch_collect_env || r->format == ReportFormat::vllm_collect_env));
    const Facts& f = r->facts;

    // At a line's start (or right after the banner, as one report has it): a
    // warning above the report may say "a PyTorch version that…".
    const auto version = first(text, R"((?:^|\n|information\.\.\.)[ \t]*PyTorch version:? ([^\s]+))");
    REQUIRE(version);
    const FrameworkBuild* torch = torch_of(f);
    if (unknown(*version)) {
      CHECK(torch == nullptr);
    } else {
      REQUIRE(torch != nullptr);
      CHECK(torch->version == *version);
      CHECK(torch->source == e.path().string() + ":" + std::to_string(line_of(raw, *version)));
      const auto cuda = first(text, R"(CUDA used to build PyTorch: ([^\n]*))");
      if (cuda && !unknown(*cuda)) CHECK(torch->cuda == *cuda);
      const auto rocm_line = first(text, R"(ROCM used to build PyTorch: ([^\n]*))");
      if (cuda && (*cuda == "None" || (*cuda == "Could not collect" && (!rocm_line || *rocm_line == "N/A"))))
        CHECK(torch->cpu_only);
      const auto rocm = first(text, R"(ROCM used to build PyTorch: ([^\n]*))");
      if (rocm && !unknown(*rocm)) CHECK(torch->hip == *rocm);
      if ((cuda && !unknown(*cuda)) || (rocm && !unknown(*rocm))) CHECK_FALSE(torch->cpu_only);
    }

    // GPUs: "GPU n: name" lines (either colon), else the bare name older releases print.
    std::vector<std::string> names;
    const std::regex gpu_re("\nGPU \\d+(?::|\xEF\xBC\x9A) ?([^\n]+)");
    const std::string padded = "\n" + text;
    for (std::sregex_iterator it(padded.begin(), padded.end(), gpu_re), end; it != end; ++it) names.push_back((*it)[1]);
    if (auto one = first(text, R"(GPU models and configuration: GPU \d+: ([^\n]+))")) names.insert(names.begin(), *one);
    if (names.empty())
      if (auto bare = first(text, R"(GPU models and configuration: ([^\n]+))"); bare && !unknown(*bare)) names.push_back(*bare);
    // At a line's start: one stored copy lost the line break before it, which
    // leaves it inside the last GPU's name, where no reader can tell it apart.
    const auto driver = first(text, R"((?:^|\n)[ \t]*Nvidia driver version: ([^\n]*))");
    const bool driver_known = driver && !unknown(*driver);
    // A ROCm build names its GPUs with the gfx target appended: KFD node stand-ins.
    std::vector<std::string> amd;
    const std::regex amd_re(R"((.*) \((gfx[^)]*)\)$)");
    for (auto it = names.begin(); it != names.end();) {
      std::smatch m;
      if (std::regex_match(*it, m, amd_re)) {
        amd.push_back(m[1].str() + "|" + m[2].str());
        it = names.erase(it);
      } else {
        ++it;
      }
    }
    REQUIRE(f.software.rocm.gpu_nodes.size() == amd.size());
    for (std::size_t i = 0; i < amd.size(); ++i) {
      const auto& n = f.software.rocm.gpu_nodes[i];
      CHECK(n.name.value_or("") + "|" + n.gfx_target.value_or("") == amd[i]);
    }
    if (names.empty() && !driver_known) {
      CHECK_FALSE(f.nvidia_smi);
    } else {
      REQUIRE(f.nvidia_smi);
      REQUIRE(f.nvidia_smi->gpus.size() == names.size());
      for (std::size_t i = 0; i < names.size(); ++i) {
        CHECK(f.nvidia_smi->gpus[i].product_name == names[i]);
        CHECK(f.nvidia_smi->gpus[i].pci_bus_id == "report:GPU" + std::to_string(i));
      }
      if (driver_known) CHECK(f.nvidia_smi->driver_version == *driver);
      else CHECK_FALSE(f.nvidia_smi->driver_version);
    }

    const auto runtime = first(text, R"(CUDA runtime version: ([^\n]*))");
    if (runtime && !unknown(*runtime)) {
      REQUIRE(f.software.toolkits.size() == 1);
      CHECK(f.software.toolkits[0].version == *runtime);
      CHECK(f.software.toolkits[0].kind == "report");
    } else {
      CHECK(f.software.toolkits.empty());
    }
    // What a collect_env report never holds is a note, not an empty finding.
    bool pci_note = false;
    for (auto& n : f.notes) pci_note |= n.subject == "pci" && n.problem.reason == Reason::not_recorded;
    CHECK(pci_note);
    CHECK(f.pci.empty());
    ++files;
  }
  CHECK(files >= 12);
}

TEST_CASE("the corpus index lists every file with a URL", "[importers][collect_env]") {
  const auto j = nlohmann::json::parse(gpucheck::test::read_file(kCorpus + "/expected.json"));
  const auto sources = gpucheck::test::data("reports/SOURCES.md");
  int listed = 0;
  for (auto& e : fs::directory_iterator(kCorpus)) {
    if (e.path().extension() != ".txt") continue;
    const auto name = e.path().filename().string();
    INFO(name);
    REQUIRE(j.contains(name));
    CHECK(j[name]["url"].get<std::string>().rfind("https://github.com/", 0) == 0);
    CHECK(j[name]["categories"].is_array());
    CHECK(sources.find(name) != std::string::npos);
    ++listed;
  }
  CHECK(static_cast<int>(j.size()) == listed);
}

TEST_CASE("collect_env: the PyTorch build", "[importers][collect_env]") {
  SECTION("a CUDA wheel (synthetic snippet)") {
    auto f = import_snippet("PyTorch version: 2.1.0+cu121\nIs debug build: False\nCUDA used to build PyTorch: 12.1\n"
                            "ROCM used to build PyTorch: N/A\n");
    auto t = torch_of(f);
    REQUIRE(t);
    CHECK(t->version == "2.1.0+cu121");
    CHECK(t->local_tag == "cu121");
    CHECK(t->cuda == "12.1");
    CHECK_FALSE(t->hip);
    CHECK_FALSE(t->cpu_only);
    CHECK(t->source == "snippet.txt:1");
  }
  SECTION("a CPU-only build: CUDA None, ROCm N/A (synthetic snippet)") {
    const auto f = import_snippet("PyTorch version: 2.1.0+cpu\nCUDA used to build PyTorch: None\nROCM used to build PyTorch: N/A\n");
    auto t = torch_of(f);
    REQUIRE(t);
    CHECK(t->cpu_only);
    CHECK_FALSE(t->cuda);
  }
  SECTION("a ROCm build") {
    auto f = import_snippet(gpucheck::test::data("reports/collect_env/pt145670-rx5700xt-rocm6.3-partial.txt"));
    auto t = torch_of(f);
    REQUIRE(t);
    CHECK(t->hip == "6.3.42131-fa1d09cbd");
    CHECK_FALSE(t->cuda);
    CHECK_FALSE(t->cpu_only);
    CHECK(f.software.rocm.hip_version == "6.3.42131");
    bool miopen = false;
    for (auto& l : f.software.libraries) miopen |= l.name == "miopen" && l.version == "3.3.0";
    CHECK(miopen);
    CHECK(f.system.os.pretty_name == "Gentoo Linux");
    CHECK(f.system.arch == "x86_64");
    // The AMD GPU: a KFD node stand-in with its gfx target, not an NVIDIA GPU.
    CHECK_FALSE(f.nvidia_smi);
    REQUIRE(f.software.rocm.gpu_nodes.size() == 1);
    CHECK(f.software.rocm.gpu_nodes[0].name == "AMD Radeon RX 5700 XT");
    CHECK(f.software.rocm.gpu_nodes[0].gfx_target == "gfx1010:xnack-");
    CHECK(f.software.rocm.gpu_nodes[0].source == "snippet.txt:17");
  }
  SECTION("conda's build string gives the cuDNN PyTorch was built with") {
    const auto f = import_snippet(gpucheck::test::data("reports/collect_env/pt33469-titanxp-torch1.4.0-conda.txt"));
    auto t = torch_of(f);
    REQUIRE(t);
    CHECK(t->cuda == "10.0");  // stated on its own line, kept as written
    CHECK(t->cudnn == "7.6.3");
  }
  SECTION("\"Could not collect\" as the build's CUDA: torch.version.cuda was None, a build without CUDA") {
    const auto f = import_snippet(gpucheck::test::data("reports/collect_env/pt44303-rtx2080ti-torch1.3.1-indented.txt"));
    auto t = torch_of(f);
    REQUIRE(t);
    CHECK_FALSE(t->cuda);
    CHECK(t->cpu_only);
  }
  SECTION("\"Could not collect\" beside a ROCm build's HIP version is not CPU-only") {
    const auto f = import_snippet(
        "PyTorch version: 2.3.0\nCUDA used to build PyTorch: Could not collect\nROCM used to build PyTorch: 6.0.32830\n");  // synthetic
    auto t = torch_of(f);
    REQUIRE(t);
    CHECK(t->hip == "6.0.32830");
    CHECK_FALSE(t->cpu_only);
  }
}

TEST_CASE("collect_env: Python, distributions and torch's own CUDA answer", "[importers][collect_env]") {
  const auto text = gpucheck::test::data("reports/collect_env/pt124996-v100-bf16-torch2.2.2-partial.txt");
  auto f = import_snippet(text);
  REQUIRE(f.software.python.size() == 1);
  const auto& env = f.software.python[0];
  CHECK(env.interpreter == "(from report)");
  CHECK(env.version == "3.12.2");
  REQUIRE(env.deep);
  REQUIRE(env.deep->frameworks.size() == 1);
  CHECK(env.deep->frameworks[0].cuda_available == true);
  CHECK(f.system.os.pretty_name == "Ubuntu 22.04.4 LTS");
  CHECK(f.system.os.source == "snippet.txt:6");

  auto conda = import_snippet(gpucheck::test::data("reports/collect_env/pt28321-t4-torch1.3.0-driver410.txt"));
  const auto& d = conda.software.python.at(0).distributions;
  REQUIRE(d.size() == 11);
  CHECK(d[2].name == "torch");
  CHECK(d[2].version == "1.2.0");
  CHECK(d[2].installer == "pip");
  CHECK(d[9].name == "pytorch");
  CHECK(d[9].version == "1.3.0");
  CHECK(d[9].installer == "conda");
  CHECK(d[9].source == "snippet.txt:27");
  CHECK(conda.software.python.at(0).deep->frameworks[0].cuda_available == false);
}

TEST_CASE("collect_env: cuDNN as a path, a list of candidates, and NVIDIA wheels", "[importers][collect_env]") {
  auto one = import_snippet(gpucheck::test::data("reports/collect_env/pt37212-p100x4-torch1.5.0-driver410.txt"));
  REQUIRE(one.software.libraries.size() == 1);
  CHECK(one.software.libraries[0].name == "cudnn");
  CHECK(one.software.libraries[0].version == "7.6.5");
  CHECK(one.software.libraries[0].found_in == "/usr/lib/x86_64-linux-gnu");

  auto list = import_snippet(gpucheck::test::data("reports/collect_env/pt82382-t4-torch-na-cudnn-list-partial.txt"));
  std::vector<std::string> found;
  for (auto& l : list.software.libraries) found.push_back(l.found_in + " " + l.version.value_or("?"));
  // Only libcudnn.so.* counts: the sub-libraries repeat the same install.
  CHECK(found == std::vector<std::string>{"/usr/local/cuda-11.0/targets/x86_64-linux/lib 8.0.5",
                                          "/usr/local/cuda-11.1/targets/x86_64-linux/lib 8.0.5"});

  auto wheels = import_snippet(  // synthetic snippet
      "PyTorch version: 2.3.0+cu121\nVersions of relevant libraries:\n[pip3] nvidia-cudnn-cu12==8.9.2.26\n"
      "[pip3] nvidia-nccl-cu12==2.20.5\n[pip3] torch==2.3.0\n");
  REQUIRE(wheels.software.libraries.size() == 2);
  CHECK(wheels.software.libraries[0].name == "cudnn");
  CHECK(wheels.software.libraries[0].version == "8.9.2.26");
  CHECK(wheels.software.libraries[0].version_source == "snippet.txt:3");
  CHECK(wheels.software.libraries[1].name == "nccl");
}

TEST_CASE("collect_env: which listed wheels carry which library (the wheel table, matched by name stem)",
          "[importers][collect_env]") {
  // Each name's version is its index, so the libraries found say which names matched.
  const std::vector<std::pair<std::string, std::string>> names = {
      {"nvidia-cudnn-cu11", "cudnn"},      {"nvidia-cudnn-cu13", "cudnn"},       {"nvidia-cudnn", "cudnn"},
      {"nvidia_cudnn_cu12", "cudnn"},      {"nvidia-cublas-cu13", "cublas"},     {"nvidia-cuda-runtime", "cudart"},
      {"nvidia-cuda-nvrtc-cu12", "nvrtc"}, {"nvidia-nvjitlink", "nvjitlink"},    {"nvidia-cufft-cu11", "cufft"},
      {"nvidia-nccl-cu12", "nccl"},        {"tensorrt-libs", "tensorrt"},        {"tensorrt-cu12-libs", "tensorrt"},
      {"tensorrt", ""},                    {"tensorrt-cu12", ""},                {"nvidia-cudnn-frontend", ""},
      {"nvidia-cuda-runtime-cu12-x", ""},  {"nvidia-nvtx-cu12", ""},             {"nvidia-cusparse-cu12", ""},
      {"nvidia-cuda", ""},
  };
  std::string text = "PyTorch version: 2.3.0+cu121\nVersions of relevant libraries:\n";
  for (std::size_t i = 0; i < names.size(); ++i) text += "[pip3] " + names[i].first + "==" + std::to_string(i + 1) + "\n";
  const auto f = import_snippet(text);
  std::map<std::string, std::string> found;  // version -> library
  for (const auto& l : f.software.libraries) found[l.version.value_or("?")] = l.name;
  for (std::size_t i = 0; i < names.size(); ++i) {
    INFO(names[i].first);
    const auto it = found.find(std::to_string(i + 1));
    CHECK((it == found.end() ? std::string() : it->second) == names[i].second);
  }
}

TEST_CASE("collect_env: GPUs, driver, UUIDs and torch's driver-too-old warning", "[importers][collect_env]") {
  auto f = import_snippet(  // synthetic snippet in the format of collect_env 2.x
      "/usr/lib/python3/site-packages/torch/cuda/__init__.py:118: UserWarning: CUDA initialization: The NVIDIA "
      "driver on your system is too old (found version 11040). Please update your GPU driver\n"
      "PyTorch version: 2.1.0+cu121\n"
      "GPU models and configuration: \nGPU 0: NVIDIA A100-SXM4-80GB (UUID: GPU-0a1b)\nGPU 1: NVIDIA A100-SXM4-80GB\n\n"
      "Nvidia driver version: 470.82.01\n");
  REQUIRE(f.nvidia_smi);
  CHECK(f.nvidia_smi->driver_version == "470.82.01");
  REQUIRE(f.nvidia_smi->gpus.size() == 2);
  CHECK(f.nvidia_smi->gpus[0].uuid == "GPU-0a1b");
  CHECK(f.nvidia_smi->gpus[0].product_name == "NVIDIA A100-SXM4-80GB");
  CHECK(f.nvidia_smi->gpus[1].pci_bus_id == "report:GPU1");
  CHECK(f.nvidia_smi->source == "snippet.txt:3");
  REQUIRE(f.cuda);
  CHECK(f.cuda->driver_version == "11.4");

  auto none = import_snippet("PyTorch version: 2.2.2\nGPU models and configuration: No CUDA\nNvidia driver version: No CUDA\n");
  CHECK_FALSE(none.nvidia_smi);
  CHECK_FALSE(none.cuda);
  bool said = false;
  for (auto& n : none.notes) said |= n.item == "GPU models" && n.problem.detail.find("No CUDA") != std::string::npos;
  CHECK(said);
}

TEST_CASE("collect_env: vLLM's variant and its padded keys (synthetic snippet)", "[importers][collect_env]") {
  auto r = import_report(
      "==============================\n        PyTorch Info\n==============================\n"
      "PyTorch version              : 2.6.0+cu124\nCUDA used to build PyTorch   : 12.4\n"
      "==============================\n         vLLM Info\n==============================\n"
      "vLLM Version                 : 0.8.5.post1\nvLLM Build Flags:\n  CUDA Archs: Not Set; ROCm: Disabled; Neuron: Disabled\n",
      "vllm.txt");
  REQUIRE(r);
  CHECK(r->format == ReportFormat::vllm_collect_env);
  auto t = torch_of(r->facts);
  REQUIRE(t);
  CHECK(t->version == "2.6.0+cu124");
  CHECK(t->cuda == "12.4");
  CHECK(t->source == "vllm.txt:4");
  bool vllm = false;
  for (auto& fw : r->facts.software.python.at(0).frameworks) vllm |= fw.name == "vllm" && fw.version == "0.8.5.post1";
  CHECK(vllm);
}
