// What runs inside the child: load libcuda, and either list the devices or
// run a list of steps on one device, writing one JSON line per event
// (protocol: docs/kernels.md, "Inside the child"). Never called in the parent.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "host/process.hpp"

namespace gpucheck::kernels {

struct SessionOptions {
  int tiles = 8;                         // warps (and distinct tiles) of the correctness run
  double target_ms = 40;                 // how long a timed throughput run should take
  int blocks_per_sm = 4;                 // throughput grid: SMs x this, 256 threads each
  std::uint64_t copy_bytes = 256ull << 20;  // each device buffer of the copy check
  std::uint64_t host_chunk = 32ull << 20;   // pinned host buffer (and transfer) size
  std::uint64_t peer_bytes = 64ull << 20;   // each peer copy (between two GPUs)
  int peer_reps = 5;                        // timed peer copies of a pair
  std::uint64_t seed = 20240601;
  // The "sustained" step (--duration): this kernel, relaunched for
  // sustained_s seconds, one {"sample":…} line every sample_s seconds, NVML
  // from these dlopen candidates.
  std::string sustained_kernel;
  double sustained_s = 0;
  double sample_s = 0.5;
  std::vector<std::string> nvml = {"libnvidia-ml.so.1"};
  // Kernel entry -> the variant to load instead when the driver's JIT refuses
  // the entry's PTX ISA version (CUDA_ERROR_UNSUPPORTED_PTX_VERSION).
  std::map<std::string, std::string> jit_fallback;
};

// {"library":…, "driver_version":12020, "init_code":0, "devices":[…]} or {"load_error":…}.
void session_enumerate(const std::vector<std::string>& candidates, const LineSender& out);

// For each step (a kernel entry name, "bandwidth" or "sustained"): {"start":step}
// then {"step":step, "result":{…}}; the sustained step writes {"telemetry":why}
// when NVML cannot be used and {"sample":{…}} lines in between. Stops after a
// result with "context_error":true.
void session_run(const std::vector<std::string>& candidates, int ordinal, const std::vector<std::string>& steps,
                 const SessionOptions& opts, const LineSender& out);

// One ordered pair of the peer copies: CUDA ordinals, data from src to dst.
struct PeerPair {
  int src = 0, dst = 0;
};

// The step name of a pair: "peer:0:1".
std::string peer_step(const PeerPair& p);

// For each pair: {"start":step} then {"step":step, "result":{…}} (fields:
// docs/kernels.md, "Peer copies"). Stops after a result with
// "context_error":true; a device whose context cannot be made is "fatal".
void session_peer_copies(const std::vector<std::string>& candidates, const std::vector<PeerPair>& pairs,
                         const SessionOptions& opts, const LineSender& out);

// The word of the copy check's data at 32-bit index i.
inline std::uint32_t copy_pattern(std::uint64_t i) {
  return static_cast<std::uint32_t>(i * 2654435761u) ^ 0x5A5A5A5Au;
}

}  // namespace gpucheck::kernels
