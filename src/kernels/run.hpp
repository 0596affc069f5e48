// `gpucheck kernels`: the kernel checks on every visible GPU, each GPU in a
// watched child process, and the facts they produce. The CUDA driver honours
// CUDA_VISIBLE_DEVICES (MIG instances included) in the child as in any
// process, so the devices checked are the ones a job would see.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "facts/facts.hpp"
#include "facts/kernel_facts.hpp"
#include "host/process.hpp"
#include "kernels/peer_links.hpp"
#include "kernels/session.hpp"
#include "matrix/matrix.hpp"

namespace gpucheck::kernels {

struct PcieLinkInfo {
  std::optional<int> current_gen, current_width, max_gen, max_width;
};

// What a kernel run is doing now, for a progress line on a terminal.
struct KernelProgress {
  std::size_t gpu = 0, gpus = 0;       // the device, from 1, of how many
  std::string name;                    // "NVIDIA H100 80GB HBM3"
  std::string step;                    // "fp16", "bandwidth", "sustained"
  std::optional<double> seconds_left;  // the sustained step's
};

struct KernelRequest {
  const Matrix* matrix = nullptr;                 // may be null: expectations then come from the PTX targets
  std::vector<std::string> libcuda;               // dlopen candidates, in order
  std::map<std::string, PcieLinkInfo> pcie;       // by bus id "0000:18:00.0"
  std::map<std::string, std::string> pci_ids;     // bus id -> "10de:2330", for the matrix lookup
  std::vector<std::pair<std::string, std::string>> amd_gpus;  // bus id, name: waived
  std::map<std::pair<std::string, std::string>, PeerLink> peer_links;  // what each pair's copy should reach
  std::optional<std::string> cuda_visible_devices;
  std::vector<std::string> precisions;            // only these; empty: all
  bool portable = false;                          // --portable: no architecture- or family-specific kernels (sm_90a, sm_120f)
  Millis step_timeout{10000};                     // per step (JIT, correctness and timing of one precision)
  Millis first_line{30000};                       // cuInit and the context, before the first step
  Millis overall{300000};
  SessionOptions session;                         // session.sustained_s > 0: the sustained step (--duration)
  std::function<void(const KernelProgress&)> progress;  // at each step's start and each sustained sample; may be empty
};

KernelFacts run_kernel_checks(const KernelRequest& req);

// The request for this host's facts: the libcuda the probe found, the PCIe
// links and PCI ids of the NVIDIA GPUs, the links between them, the AMD GPUs (waived), NVML beside
// that libcuda, and this process's CUDA_VISIBLE_DEVICES. Precisions and timeouts are the caller's.
KernelRequest request_for(const Facts& facts, const Matrix* matrix);

// The peer copies between every ordered pair of `gpus` that ran as whole
// GPUs (not MIG instances: CUDA has no peer access for them), each in a
// watched child as the steps of one device are (peer_run.cpp).
std::vector<PeerCopy> run_peer_copies(const KernelRequest& req, const std::vector<GpuKernelFacts>& gpus,
                                      std::chrono::steady_clock::time_point end);

// The precisions the checks know, in report order.
const std::vector<std::string>& all_precisions();

// Exit code of `gpucheck kernels` (docs/exit-codes.md): 0 every expected
// check passed (or every GPU was waived), 1 an expected check did not pass,
// 2 the checks could not run at all.
int kernels_exit_code(const KernelFacts& f);

// PCIe bandwidth per direction a link allows, GB/s: generation rate x lanes x
// encoding efficiency / 8. nullopt for an unknown generation.
std::optional<double> pcie_gbs(int gen, int width);

}  // namespace gpucheck::kernels
