// Pastes read as blocks (src/importers/paste*.cpp, block_*.cpp): the shared
// corpus of real outputs (tests/data/corpus, values in expected.json read
// from each file with plain regexes, not the importer), the defects issue 17
// names, and each block reader on a small synthetic snippet (named so).
#include <catch2/catch.hpp>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "gpucheck_run.hpp"
#include "importers/error_facts.hpp"
#include "importers/import_report.hpp"
#include "rules/report_conflicts.hpp"
#include "paste_support.hpp"
#include "test_support.hpp"

using namespace gpucheck;
using gpucheck::test::paste;
using nlohmann::json;

namespace {

std::vector<std::string> kinds(const Facts& f) {
  std::vector<std::string> out;
  if (f.report)
    for (auto& b : f.report->blocks) out.push_back(b.kind);
  return out;
}

const FrameworkBuild* framework(const Facts& f, const std::string& name) {
  for (auto& e : f.software.python)
    for (auto& fw : e.frameworks)
      if (fw.name == name) return &fw;
  return nullptr;
}

const DeepFramework* deep(const Facts& f, const std::string& name) {
  for (auto& e : f.software.python)
    if (e.deep)
      for (auto& d : e.deep->frameworks)
        if (d.name == name) return &d;
  return nullptr;
}

const Distribution* dist(const Facts& f, const std::string& name) {
  for (auto& e : f.software.python)
    for (auto& d : e.distributions)
      if (d.name == name) return &d;
  return nullptr;
}

std::vector<std::string> smi_names(const Facts& f) {
  std::vector<std::string> out;
  if (f.nvidia_smi)
    for (auto& g : f.nvidia_smi->gpus) out.push_back(g.product_name.value_or("?"));
  return out;
}

std::vector<std::string> strings(const json& j) {
  std::vector<std::string> out;
  for (auto& s : j) out.push_back(s.get<std::string>());
  return out;
}

}  // namespace

TEST_CASE("the shared corpus: every file is read, with the values it states", "[importers][paste][corpus]") {
  const auto expected = json::parse(test::data("corpus/expected.json"));
  int files = 0;
  for (auto& [file, want] : expected.items()) {
    INFO(file);
    ++files;
    const auto path = test::source_path("tests/data/corpus/" + file);
    auto r = import_report(test::read_file(path), file);
    if (!r) FAIL(r.problem().detail);
    const Facts& f = r->facts;
    REQUIRE(f.report);
    CHECK(!f.report->blocks.empty());
    if (want.contains("driver_version") && !want["driver_version"].is_null()) {
      REQUIRE(f.nvidia_smi);
      CHECK(f.nvidia_smi->driver_version == want["driver_version"].get<std::string>());
    }
    if (want.contains("cuda_version")) {
      REQUIRE(f.nvidia_smi);
      CHECK(f.nvidia_smi->cuda_version == want["cuda_version"].get<std::string>());
    } else if (f.nvidia_smi) {
      CHECK(!f.nvidia_smi->cuda_version);  // "CUDA Version : Not Found" and "N/A" are no version
    }
    if (want.contains("gpu_names") && !want["gpu_names"].empty()) CHECK(smi_names(f) == strings(want["gpu_names"]));
    if (want.contains("gpu_names") && want["gpu_names"].empty() && !want.contains("gpu_count")) CHECK(smi_names(f).empty());
    if (want.contains("gpu_count")) {
      REQUIRE(f.nvidia_smi);
      CHECK(f.nvidia_smi->gpus.size() == want["gpu_count"].get<std::size_t>());
    }
    if (want.contains("nvidia_gpus")) CHECK(smi_names(f).size() == want["nvidia_gpus"].get<std::size_t>());
    if (want.contains("power_limit_w_first")) {
      REQUIRE(!smi_names(f).empty());
      CHECK(f.nvidia_smi->gpus[0].power_limit_w == want["power_limit_w_first"].get<double>());
    }
    if (want.contains("compute_mode_first")) {
      REQUIRE(!smi_names(f).empty());
      CHECK(f.nvidia_smi->gpus[0].compute_mode == want["compute_mode_first"].get<std::string>());
    }
    if (want.contains("torch_version")) {
      const auto* torch = framework(f, "torch");
      REQUIRE(torch);
      CHECK(torch->version == want["torch_version"].get<std::string>());
    }
    if (want.contains("python_version")) {
      REQUIRE(!f.software.python.empty());
      CHECK(f.software.python[0].version == want["python_version"].get<std::string>());
    }
    const auto& nodes = f.software.rocm.gpu_nodes;
    if (want.contains("amd_names")) {
      std::vector<std::string> names;
      for (auto& n : nodes) names.push_back(n.name.value_or("?"));
      CHECK(names == strings(want["amd_names"]));
    }
    if (want.contains("gfx_targets") && !want["gfx_targets"].empty()) {
      std::vector<std::string> targets;
      for (auto& n : nodes) targets.push_back(n.gfx_target.value_or("?"));
      CHECK(targets == strings(want["gfx_targets"]));
    }
    if (want.contains("device_ids")) {
      std::vector<std::string> ids;
      for (auto& n : nodes) ids.push_back(n.device_id.value_or("?"));
      CHECK(ids == strings(want["device_ids"]));
    }
    if (want.contains("amdgpu_version")) CHECK(f.software.rocm.amdgpu_module_version == want["amdgpu_version"].get<std::string>());
    if (want.contains("kinds")) CHECK(kinds(f) == strings(want["kinds"]));
    if (want.contains("note_contains")) {
      bool found = false;
      for (auto& b : f.report->blocks) found = found || (b.note && b.note->find(want["note_contains"].get<std::string>()) != std::string::npos);
      CHECK(found);
    }
  }
  CHECK(files == 55);
}

TEST_CASE("the shared corpus: check --from accepts every file", "[importers][paste][corpus][cli]") {
  const auto expected = json::parse(test::data("corpus/expected.json"));
  for (auto& [file, want] : expected.items()) {
    INFO(file);
    auto r = test::run_gpucheck({"--from", test::source_path("tests/data/corpus/" + file), "check", "--json"});
    CHECK(test::is_verdict(r.exit_code));
    CHECK_THAT(r.out, Catch::Contains("\"report\""));
  }
}

// pytorch/pytorch#139298 as stored: three lines glued to the one before.
TEST_CASE("collect_env: lines glued together are read apart", "[importers][paste][defects]") {
  const Facts f = paste(test::data("reports/collect_env/pt139298-h100x8-torch2.5.0rc10-partial.txt"));
  CHECK(smi_names(f) == std::vector<std::string>(8, "NVIDIA H100 80GB HBM3"));
  REQUIRE(f.nvidia_smi);
  CHECK(f.nvidia_smi->driver_version == "535.216.01");
  CHECK(f.system.os.pretty_name == "Ubuntu 22.04.5 LTS");
  CHECK(f.system.arch == "x86_64");
  REQUIRE(!f.software.python.empty());
  CHECK(f.software.python[0].version == "3.10.12");
  // One model, so each GPU finding is said once.
  auto r = test::run_gpucheck({"--from", test::source_path("tests/data/reports/collect_env/pt139298-h100x8-torch2.5.0rc10-partial.txt"),
                               "check", "--json"});
  REQUIRE(test::is_verdict(r.exit_code));
  std::set<std::string> seen;
  const auto report = json::parse(r.out);  // kept: a loop over a temporary's member would dangle
  for (auto& finding : report.at("findings")) {
    const auto key = finding["rule"].get<std::string>() + "|" + finding["message"].get<std::string>();
    CHECK(seen.insert(key).second);
  }
}

TEST_CASE("collect_env: a GPU line cut at the end of the paste is not another model (synthetic)", "[importers][paste][defects]") {
  const Facts f = paste(
      "PyTorch version: 2.5.0\nGPU models and configuration:\nGPU 0: NVIDIA H100 80GB HBM3\nGPU 1: NVIDIA H100 80GB HBM3\n"
      "GPU 2: NVIDIA H1");
  CHECK(smi_names(f) == std::vector<std::string>(3, "NVIDIA H100 80GB HBM3"));
  bool noted = false;
  for (auto& n : f.notes) noted = noted || n.problem.detail.find("ends inside this line") != std::string::npos;
  CHECK(noted);
  // The same line with more after it is a GPU of its own name.
  const Facts g = paste(
      "PyTorch version: 2.5.0\nGPU models and configuration:\nGPU 0: NVIDIA GeForce RTX 4090 D\nGPU 1: NVIDIA GeForce RTX 4090\n"
      "Nvidia driver version: 550.54.14\n");
  CHECK(smi_names(g) == std::vector<std::string>{"NVIDIA GeForce RTX 4090 D", "NVIDIA GeForce RTX 4090"});
}

TEST_CASE("collect_env: an AMD GPU of an older ROCm build is never an NVIDIA one", "[importers][paste][defects]") {
  for (const char* file : {"collect_env/pt44106-rocm3.7-device66a1-torch1.7a0.txt", "collect_env/pt103973-rx6750xt-rocm5.7-torch2.2dev-partial.txt"}) {
    INFO(file);
    const Facts f = paste(test::data(std::string("corpus/") + file));
    CHECK(smi_names(f).empty());
    REQUIRE(f.software.rocm.gpu_nodes.size() == 1);
    CHECK(!f.software.rocm.gpu_nodes[0].gfx_target);
    // No NVIDIA GPU: nothing is judged for NGC containers or CUDA.
    auto r = test::run_gpucheck({"--from", test::source_path(std::string("tests/data/corpus/") + file), "check", "--json"});
    REQUIRE(test::is_verdict(r.exit_code));
    const auto report = json::parse(r.out);
    for (auto& finding : report.at("findings")) CHECK(finding["message"].get<std::string>().find("NGC") == std::string::npos);
  }
}

TEST_CASE("nvidia-smi: Not Found, N/A beside a power limit or a compute mode (real tables)", "[importers][paste][defects]") {
  const Facts q = paste(test::data("corpus/nvsmi_q/cubecos312-rtxpro6000-x4_580.105.06-dMEMPERF-partial.txt"));
  REQUIRE(q.nvidia_smi);
  CHECK(!q.nvidia_smi->cuda_version);  // "CUDA Version : Not Found"
  const Facts t = paste(test::data("corpus/nvsmi_table/gls-gtx1050ti_535.161.07.txt"));
  REQUIRE(smi_names(t).size() == 1);
  CHECK(t.nvidia_smi->gpus[0].power_limit_w == 75.0);  // "N/A /  75W"
  const Facts k = paste(test::data("corpus/nvsmi_table/gls-gtx680_470.256.02.txt"));
  REQUIRE(smi_names(k).size() == 1);
  CHECK(k.nvidia_smi->gpus[0].compute_mode == "Default");  // "N/A      Default"
}

TEST_CASE("a collect_env cut before its library list is still read", "[importers][paste]") {
  const Facts f = paste("Versions of relevant libraries:\n[pip3] numpy==1.26.4\n[pip3] torch==2.3.1+cu121\n[conda] Could not collect\n");
  CHECK(kinds(f) == std::vector<std::string>{"collect_env"});
  REQUIRE(dist(f, "torch"));
  CHECK(dist(f, "torch")->version == "2.3.1+cu121");
  CHECK(dist(f, "torch")->source == "paste.txt:3");
}

// Synthetic: a mixed paste as issues hold them.
TEST_CASE("a paste of several outputs: blocks, lines, unread lines and conflicts", "[importers][paste]") {
  const std::string text =
      "I get an error when I run my training script, can you help me please?\n"
      "```\n"
      "$ nvidia-smi\n"
      "+---------------------------------------------------------------------------------------+\n"
      "| NVIDIA-SMI 550.54.14              Driver Version: 550.54.14    CUDA Version: 12.4     |\n"
      "|-----------------------------------------+----------------------+----------------------+\n"
      "| GPU  Name                 Persistence-M | Bus-Id        Disp.A | Volatile Uncorr. ECC |\n"
      "| Fan  Temp   Perf          Pwr:Usage/Cap |         Memory-Usage | GPU-Util  Compute M. |\n"
      "|=========================================+======================+======================|\n"
      "|   0  NVIDIA A100-SXM4-80GB          On  | 00000000:07:00.0 Off |                    0 |\n"
      "| N/A   33C    P0              62W / 400W |      4MiB / 81920MiB |      0%      Default |\n"
      "+-----------------------------------------+----------------------+----------------------+\n"
      "```\n"
      "Collecting environment information...\n"
      "PyTorch version: 2.3.1+cu121\n"
      "GPU models and configuration: GPU 0: NVIDIA A100-SXM4-80GB\n"
      "Nvidia driver version: 550.90.07\n"
      "\n"
      "nvcc: NVIDIA (R) Cuda compiler driver\n"
      "Cuda compilation tools, release 12.1, V12.1.105\n"
      "export CUDA_VISIBLE_DEVICES=0\n";
  const Facts f = paste(text);
  CHECK(kinds(f) == std::vector<std::string>{"nvidia-smi", "collect_env", "nvcc --version", "environment variables"});
  REQUIRE(f.report);
  CHECK(f.report->blocks[0].first_line == 4);
  CHECK(f.report->blocks[0].last_line == 12);
  CHECK(f.report->blocks[1].first_line == 14);
  CHECK(f.report->blocks[1].last_line == 17);
  REQUIRE(f.report->unread_total == 1);
  CHECK(f.report->unread[0].line == 1);
  // One GPU: the table's bus id joined with collect_env's GPU 0.
  CHECK(smi_names(f) == std::vector<std::string>{"NVIDIA A100-SXM4-80GB"});
  CHECK(f.nvidia_smi->gpus[0].pci_bus_id == "0000:07:00.0");
  CHECK(f.nvidia_smi->driver_version == "550.54.14");
  REQUIRE(f.report->conflicts.size() == 1);
  const auto& c = f.report->conflicts[0];
  CHECK(c.fact == "nvidia_smi.driver_version");
  REQUIRE(c.values.size() == 2);
  CHECK(c.values[0].value == "550.54.14");
  CHECK(c.values[0].source == "paste.txt:5");
  CHECK(c.values[1].value == "550.90.07");
  CHECK(c.values[1].source == "paste.txt:17");
  const auto findings = report_conflict_findings(f);
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].rule == "report-values-disagree");
  CHECK(findings[0].category == "driver-mismatch");
  CHECK(findings[0].evidence.size() == 2);
  REQUIRE(!f.software.toolkits.empty());
  CHECK(f.software.toolkits[0].version == "12.1.105");
  CHECK(f.software.gpu_env.at("CUDA_VISIBLE_DEVICES") == "0");
  // The text report says what it read, and what it did not understand.
  test::TempDir dir;
  const auto path = dir.str() + "/mixed.txt";
  {
    std::ofstream out(path);
    out << text;
  }
  auto r = test::run_gpucheck({"--from", path, "check"});
  CHECK_THAT(r.out, Catch::Contains("Read from"));
  CHECK_THAT(r.out, Catch::Contains("collect_env  lines 14-17"));
  CHECK_THAT(r.out, Catch::Contains("not understood (1 line)"));
  CHECK_THAT(r.out, Catch::Contains("report-values-disagree"));
}

TEST_CASE("block readers: nvidia-smi -L, --query-gpu, topo -m, /proc version (synthetic)", "[importers][paste]") {
  const Facts l = paste("GPU 0: NVIDIA A100-SXM4-40GB (UUID: GPU-5d5ba0d6-d33d-2b2c-524d-9e3d8d2b8a77)\n"
                        "  MIG 3g.20gb     Device  0: (UUID: MIG-1a2b)\n"
                        "GPU 1: NVIDIA A100-SXM4-40GB (UUID: GPU-6e6ba0d6-d33d-2b2c-524d-9e3d8d2b8a78)\n");
  CHECK(kinds(l) == std::vector<std::string>{"nvidia-smi -L"});
  REQUIRE(smi_names(l).size() == 2);
  CHECK(l.nvidia_smi->gpus[0].uuid == "GPU-5d5ba0d6-d33d-2b2c-524d-9e3d8d2b8a77");
  CHECK(l.nvidia_smi->gpus[0].mig_mode_current == "Enabled");
  CHECK(!l.nvidia_smi->gpus[1].mig_mode_current);

  const Facts c = paste("name, driver_version, memory.total [MiB], compute_cap\nNVIDIA H100 80GB HBM3, 550.54.15, 81559 MiB, 9.0\n");
  CHECK(kinds(c) == std::vector<std::string>{"nvidia-smi --query-gpu"});
  REQUIRE(smi_names(c) == std::vector<std::string>{"NVIDIA H100 80GB HBM3"});
  CHECK(c.nvidia_smi->driver_version == "550.54.15");
  CHECK(c.nvidia_smi->gpus[0].memory_total_mib == 81559);
  REQUIRE(c.cuda);
  CHECK(c.cuda->devices.at(0).compute_capability == "9.0");

  const Facts t = paste("\tGPU0\tGPU1\tCPU Affinity\tNUMA Affinity\nGPU0\t X \tPXB\t0-31\t0\nGPU1\tPXB\t X \t0-31\t0\n\nLegend:\n\n  X    = Self\n  PXB  = Connection traversing multiple PCIe bridges\n");
  CHECK(kinds(t) == std::vector<std::string>{"nvidia-smi topo -m"});
  REQUIRE(t.report->blocks[0].note);
  CHECK(*t.report->blocks[0].note == "links seen: PXB");
  CHECK(t.report->unread_total == 0);

  const Facts v = paste("NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 01:15:15 UTC 2023\nGCC version:  gcc version 11.4.0 (Ubuntu 11.4.0-1ubuntu1~22.04)\n");
  CHECK(v.nvidia_driver.kernel_module.version == "535.104.05");
  CHECK(v.nvidia_driver.kernel_module.source == "paste.txt:1-2 (/proc/driver/nvidia/version)");
}

TEST_CASE("block readers: packages, prints, torch config, env, Xid, ldd (synthetic)", "[importers][paste]") {
  const Facts pl = paste("Package                  Version\n------------------------ ------------\ntorch                    2.4.0+cu121\nnvidia-cudnn-cu12        9.1.0.70\n");
  CHECK(kinds(pl) == std::vector<std::string>{"pip list"});
  REQUIRE(framework(pl, "torch"));
  CHECK(framework(pl, "torch")->cuda == "12.1");
  bool cudnn = false;
  for (auto& lib : pl.software.libraries) cudnn = cudnn || (lib.name == "cudnn" && lib.version == "9.1.0.70");
  CHECK(cudnn);

  const Facts fr = paste("jax==0.4.30\njaxlib==0.4.30+cuda12.cudnn89\nnumpy==1.26.4\n");
  CHECK(kinds(fr) == std::vector<std::string>{"pip freeze"});
  REQUIRE(framework(fr, "jaxlib"));
  CHECK(dist(fr, "numpy")->version == "1.26.4");

  const Facts cl = paste("# packages in environment at /opt/conda:\n#\n# Name                    Version                   Build  Channel\n"
                         "pytorch                   2.1.0           py3.10_cuda12.1_cudnn8.9.2_0    pytorch\n");
  CHECK(kinds(cl) == std::vector<std::string>{"conda list"});
  REQUIRE(framework(cl, "torch"));
  CHECK(framework(cl, "torch")->cuda == "12.1");
  CHECK(framework(cl, "torch")->cudnn == "8.9.2");

  const Facts py = paste(">>> import torch\n>>> torch.__version__\n'2.2.0+cu121'\n>>> torch.cuda.is_available()\nFalse\n>>> torch.backends.cudnn.version()\n8902\n");
  REQUIRE(framework(py, "torch"));
  CHECK(framework(py, "torch")->version == "2.2.0+cu121");
  REQUIRE(deep(py, "torch"));
  CHECK(deep(py, "torch")->cuda_available == false);
  CHECK(deep(py, "torch")->cudnn_version == "8.9.2");

  const Facts arch = paste("$ python -c \"import torch; print(torch.__version__, torch.cuda.is_available())\"\n2.6.0+cu124 True\n['sm_50', 'sm_60', 'sm_70', 'sm_75', 'sm_80', 'sm_86', 'sm_90']\n");
  REQUIRE(deep(arch, "torch"));
  CHECK(deep(arch, "torch")->cuda_available == true);
  CHECK(deep(arch, "torch")->arch_list.size() == 7);
  CHECK(framework(arch, "torch")->version == "2.6.0+cu124");

  // A ROCm build's torch.cuda answers HIP's: (10, 3) is no compute capability.
  const Facts rocm = paste("torch version = 2.2.1+rocm5.7\ncuda available = True\ncudart = <module 'torch._C._cudart'>\ncapability = (10, 3)\n");
  CHECK(framework(rocm, "torch")->hip == "5.7");
  CHECK(!rocm.cuda);
  REQUIRE(rocm.report);
  CHECK(rocm.report->blocks.size() == 1);
  CHECK(rocm.report->unread_total == 1);  // the cudart line

  const Facts cfg = paste("PyTorch built with:\n  - GCC 9.3\n  - CUDA Runtime 12.1\n  - CuDNN 8.9.2\n"
                          "  - NVCC architecture flags: -gencode;arch=compute_80,code=sm_80;-gencode;arch=compute_90,code=sm_90\n"
                          "  - Build settings: BLAS_INFO=mkl, CUDA_VERSION=12.1, TORCH_VERSION=2.1.0, USE_CUDA=ON\n");
  REQUIRE(framework(cfg, "torch"));
  CHECK(framework(cfg, "torch")->version == "2.1.0");
  CHECK(framework(cfg, "torch")->cudnn == "8.9.2");
  CHECK(deep(cfg, "torch")->arch_list == std::vector<std::string>{"sm_80", "sm_90"});

  const Facts env = paste("HOME=/root\nLD_LIBRARY_PATH=/usr/local/cuda/lib64\nHSA_OVERRIDE_GFX_VERSION=10.3.0\nNCCL_P2P_DISABLE=1\nCUDA_HOME=/usr/local/cuda\n");
  CHECK(env.software.gpu_env.at("LD_LIBRARY_PATH") == "/usr/local/cuda/lib64");
  CHECK(env.software.gpu_env.at("NCCL_P2P_DISABLE") == "1");
  CHECK(env.software.gpu_env.at("CUDA_HOME") == "/usr/local/cuda");
  CHECK(env.software.rocm.env.at("HSA_OVERRIDE_GFX_VERSION") == "10.3.0");
  CHECK(env.software.gpu_env.count("HOME") == 0);

  const Facts xid = paste("[Mon Jan  1 10:00:00 2024] NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, GPU has fallen off the bus.\n");
  REQUIRE(xid.kernel_log.xid_events.size() == 1);
  CHECK(xid.kernel_log.xid_events[0].xid == 79);

  const Facts ldd = paste("\tlibcudart.so.12 => /usr/local/cuda/lib64/libcudart.so.12 (0x00007f)\n"
                          "\tlibcudnn.so.8 => not found\n\tlibcuda.so.1 => /usr/lib/x86_64-linux-gnu/libcuda.so.1 (0x00007f)\n");
  CHECK(kinds(ldd) == std::vector<std::string>{"ldd"});
  CHECK(ldd.nvidia_driver.libcuda.path == "/usr/lib/x86_64-linux-gnu/libcuda.so.1");
  REQUIRE(ldd.report->blocks[0].note);
  CHECK(*ldd.report->blocks[0].note == "not found by the loader: libcudnn.so.8");
}

TEST_CASE("block readers: ds_report, env lists, jax, ROCm tools, templates (synthetic)", "[importers][paste]") {
  const Facts ds = paste("DeepSpeed general environment info:\ntorch install path ............... ['/usr/lib/python3/dist-packages/torch']\n"
                         "torch version .................... 2.1.0+cu121\ndeepspeed info ................... 0.12.3, unknown, unknown\n"
                         "torch cuda version ............... 12.1\nnvcc version ..................... 11.8\n");
  CHECK(kinds(ds) == std::vector<std::string>{"ds_report"});
  CHECK(framework(ds, "torch")->version == "2.1.0+cu121");
  CHECK(framework(ds, "deepspeed")->version == "0.12.3");
  REQUIRE(!ds.software.toolkits.empty());
  CHECK(ds.software.toolkits[0].version == "11.8");

  const Facts hf = paste("- `transformers` version: 4.36.2\n- Platform: Linux-5.15.0-91-generic-x86_64-with-glibc2.35\n"
                         "- Python version: 3.10.12\n- PyTorch version (GPU?): 2.1.2+cu121 (True)\n- GPU type: NVIDIA A100-SXM4-80GB\n- GPU number: 2\n");
  CHECK(kinds(hf) == std::vector<std::string>{"key: value list"});
  CHECK(dist(hf, "transformers")->version == "4.36.2");
  CHECK(hf.system.kernel_release == "5.15.0-91-generic");
  CHECK(framework(hf, "torch")->version == "2.1.2+cu121");
  CHECK(deep(hf, "torch")->cuda_available == true);
  CHECK(smi_names(hf) == std::vector<std::string>(2, "NVIDIA A100-SXM4-80GB"));

  const Facts jax = paste("jax:    0.4.30\njaxlib: 0.4.30\nnumpy:  1.26.4\npython: 3.11.9 (main, Apr 19 2024, 16:48:06) [GCC 11.2.0]\n"
                          "jax.devices (8 total, 8 local): [CudaDevice(id=0) CudaDevice(id=1)]\nprocess_count: 1\n"
                          "platform: uname_result(system='Linux', node='n1', release='5.15.0-1049-gcp', version='#57', machine='x86_64')\n");
  CHECK(kinds(jax) == std::vector<std::string>{"jax.print_environment_info()"});
  CHECK(framework(jax, "jaxlib")->version == "0.4.30");
  CHECK(deep(jax, "jax")->device_count == 8);
  CHECK(jax.system.kernel_release == "5.15.0-1049-gcp");

  const Facts ri = paste("ROCk module is loaded\n=====================\nHSA System Attributes\n=====================\n"
                         "*******\nAgent 1\n*******\n  Name:                    AMD EPYC 7763\n  Device Type:             CPU\n"
                         "*******\nAgent 2\n*******\n  Name:                    gfx90a\n  Marketing Name:          AMD Instinct MI250X\n"
                         "  Device Type:             GPU\n  Chip ID:                 29704(0x7408)\n  Compute Unit:            110\n"
                         "  SIMDs per CU:            4\n*** Done ***\n");
  REQUIRE(ri.software.rocm.gpu_nodes.size() == 1);
  CHECK(ri.software.rocm.gpu_nodes[0].gfx_target == "gfx90a");
  CHECK(ri.software.rocm.gpu_nodes[0].device_id == "7408");
  CHECK(ri.software.rocm.gpu_nodes[0].simd_count == 440);
  CHECK(ri.software.rocm.gpu_nodes[0].node == 1);

  const Facts tpl = paste("### Tensorflow Version\n\ntf 2.15\n\n### Python version\n\n3.11\n\n### CUDA/cuDNN version\n\nCUDA 12.2, cuDNN 8.9\n\n"
                          "### Current behavior?\n\nIt crashes.\n");
  CHECK(framework(tpl, "tensorflow")->version == "2.15");
  CHECK(tpl.software.python[0].version == "3.11");
  REQUIRE(!tpl.software.toolkits.empty());
  CHECK(tpl.software.toolkits[0].version == "12.2");
  REQUIRE(tpl.report);
  CHECK(tpl.report->unread_total == 1);  // "It crashes."
}

TEST_CASE("error messages are evidence, in a paste and in explain's message (synthetic)", "[importers][paste][explain]") {
  const Facts f = paste("ValueError: Bfloat16 is only supported on GPUs with compute capability of at least 8.0. Your Tesla T4 GPU has compute capability 7.5.\n");
  CHECK(kinds(f) == std::vector<std::string>{"error message"});
  REQUIRE(f.cuda);
  REQUIRE(f.cuda->devices.size() == 1);
  CHECK(f.cuda->devices[0].name == "Tesla T4");
  CHECK(f.cuda->devices[0].compute_capability == "7.5");

  const Facts w = paste("UserWarning: NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current PyTorch installation.\n"
                        "The current PyTorch install supports CUDA capabilities sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90.\n");
  REQUIRE(w.cuda);
  CHECK(w.cuda->devices.at(0).name == "NVIDIA GeForce RTX 5090");
  CHECK(w.cuda->devices.at(0).compute_capability == "12.0");
  CHECK(deep(w, "torch")->arch_list.size() == 7);

  Facts host;
  CHECK(add_message_facts(host, "RuntimeError: The NVIDIA driver on your system is too old (found version 11040)."));
  REQUIRE(host.cuda);
  CHECK(host.cuda->driver_version == "11.4");
  CHECK(!add_message_facts(host, "CUDA error: out of memory"));

  const Facts k = paste("kernel version 535.104.5 does not match DSO version 545.23.6 -- cannot find working devices in this configuration\n");
  CHECK(k.nvidia_driver.kernel_module.version == "535.104.5");
  CHECK(k.nvidia_driver.libcuda.version == "545.23.6");
}

TEST_CASE("a paste without any block gpucheck reads is still read, its lines listed", "[importers][paste][bad-input]") {
  auto r = import_report("my GPU does not work, please help\nthanks\n", "issue.txt");
  REQUIRE(r);
  REQUIRE(r->facts.report);
  CHECK(r->facts.report->blocks.empty());
  CHECK(r->facts.report->unread_total == 2);
  CHECK(r->facts.report->unread.front().text == "my GPU does not work, please help");
}
