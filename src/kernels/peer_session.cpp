// The child side of the peer copies (session.hpp): for each ordered pair of
// devices, peer access as the driver grants it, a copy whose every word is
// checked, then timed copies. A copy that reports success and delivers other
// bytes is what github.com/NVIDIA/open-gpu-kernel-modules/issues/1257 saw.
#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "kernels/driver_calls.hpp"
#include "kernels/reference.hpp"
#include "kernels/session.hpp"
#include "matrix/platform_knowledge.hpp"
#include "util/json_text.hpp"

namespace gpucheck::kernels {
namespace {

using nlohmann::json;
using namespace cu;

struct Context {
  CUdevice dev = 0;
  CUcontext ctx = nullptr;
};

// cuCtxEnablePeerAccess from `from`'s context to `to`'s; a grant already
// made counts as made. Disabled again by the destructor: a device has a
// limited number of peers (CUDA_ERROR_TOO_MANY_PEERS), and a node may have more GPUs.
struct PeerGrant {
  const Api& api;
  const Context& from;
  const Context& to;
  bool made = false;
  PeerGrant(const Api& a, const Context& f, const Context& t) : api(a), from(f), to(t) {
    CU_TRY(api.cuCtxSetCurrent(from.ctx));
    const CUresult r = api.cuCtxEnablePeerAccess(to.ctx, 0);
    if (r != 0 && r != cuda_error_code("CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED")) throw Failure{"api.cuCtxEnablePeerAccess()", r};
    made = r == 0;
  }
  ~PeerGrant() {
    if (!made) return;
    api.cuCtxSetCurrent(from.ctx);
    api.cuCtxDisablePeerAccess(to.ctx);
  }
  PeerGrant(const PeerGrant&) = delete;
  PeerGrant& operator=(const PeerGrant&) = delete;
};

// The words of `buf` (on `ctx`) that are not the copy pattern, read back in
// chunks through `host`; the first one's index in `first`.
std::uint64_t words_wrong(const Api& api, CUcontext ctx, CUdeviceptr buf, std::uint64_t n, HostBuffer& host,
                          std::uint64_t chunk, std::uint64_t& first) {
  CU_TRY(api.cuCtxSetCurrent(ctx));
  auto* words = static_cast<std::uint32_t*>(host.ptr);
  std::uint64_t bad = 0;
  for (std::uint64_t off = 0; off < n; off += chunk) {
    const std::uint64_t len = std::min(chunk, n - off);
    CU_TRY(api.cuMemcpyDtoH_v2(host.ptr, buf + off, len));
    for (std::uint64_t i = 0; i < len / 4; ++i)
      if (words[i] != copy_pattern(off / 4 + i) && bad++ == 0) first = off / 4 + i;
  }
  return bad;
}

void copy_pair(const Api& api, const Context& src, const Context& dst, const SessionOptions& o, json& result) {
  int can = 0, back = 0;
  CU_TRY(api.cuDeviceCanAccessPeer(&can, src.dev, dst.dev));
  CU_TRY(api.cuDeviceCanAccessPeer(&back, dst.dev, src.dev));
  result["can_access"] = can != 0;
  if (!can) {
    result["status"] = word(StepStatus::skipped);
    result["reason"] = "the driver grants no peer access from this GPU to that one (cuDeviceCanAccessPeer)";
    return;
  }
  // Both ways, as nvbandwidth and NCCL do: the copy engine that moves the
  // data may sit on either side.
  const PeerGrant there(api, src, dst);
  std::optional<PeerGrant> here;
  if (back) here.emplace(api, dst, src);

  const std::uint64_t n = std::max<std::uint64_t>(16, o.peer_bytes / 16 * 16);
  const std::uint64_t chunk = std::min<std::uint64_t>(std::max<std::uint64_t>(16, o.host_chunk / 16 * 16), n);
  DeviceBuffer to{api, 0, dst.ctx};
  CU_TRY(api.cuCtxSetCurrent(dst.ctx));
  CU_TRY(api.cuMemAlloc_v2(&to.ptr, n));
  DeviceBuffer from{api, 0, src.ctx};
  HostBuffer host{api};
  CU_TRY(api.cuCtxSetCurrent(src.ctx));
  CU_TRY(api.cuMemAlloc_v2(&from.ptr, n));
  CU_TRY(api.cuMemAllocHost_v2(&host.ptr, chunk));
  auto* words = static_cast<std::uint32_t*>(host.ptr);
  for (std::uint64_t off = 0; off < n; off += chunk) {
    const std::uint64_t len = std::min(chunk, n - off);
    for (std::uint64_t i = 0; i < len / 4; ++i) words[i] = copy_pattern(off / 4 + i);
    CU_TRY(api.cuMemcpyHtoD_v2(from.ptr + off, host.ptr, len));
  }
  const auto copy = [&] { CU_TRY(api.cuMemcpyPeerAsync(to.ptr, dst.ctx, from.ptr, src.ctx, n, nullptr)); };

  // Checked: over a poisoned buffer, then again after the timed copies.
  CU_TRY(api.cuCtxSetCurrent(dst.ctx));
  CU_TRY(api.cuMemsetD32_v2(to.ptr, kPoison, n / 4));
  CU_TRY(api.cuCtxSetCurrent(src.ctx));
  copy();
  CU_TRY(api.cuCtxSynchronize());
  std::uint64_t first = 0;
  std::uint64_t bad = words_wrong(api, dst.ctx, to.ptr, n, host, chunk, first);

  CU_TRY(api.cuCtxSetCurrent(src.ctx));
  const int reps = std::max(1, o.peer_reps);
  const float ms = timed(api, [&] {
    for (int r = 0; r < reps; ++r) copy();
  });
  std::uint64_t first_after = 0;
  const std::uint64_t bad_after = words_wrong(api, dst.ctx, to.ptr, n, host, chunk, first_after);
  if (!bad) first = first_after;
  bad += bad_after;

  result["bytes"] = n;
  result["words_checked"] = 2 * (n / 4);
  result["words_wrong"] = bad;
  result["correct"] = bad == 0;
  if (ms > 0) result["gbs"] = static_cast<double>(n) * reps / (ms / 1000.0) / 1e9;
  result["status"] = word(bad == 0 ? StepStatus::passed : StepStatus::failed);
  if (bad)
    result["reason"] = std::to_string(bad) + " of " + std::to_string(2 * (n / 4)) +
                       " words did not arrive as written, every call succeeding (first at byte " +
                       std::to_string(first * 4) + ")";
}

}  // namespace

std::string peer_step(const PeerPair& p) { return "peer:" + std::to_string(p.src) + ":" + std::to_string(p.dst); }

void session_peer_copies(const std::vector<std::string>& candidates, const std::vector<PeerPair>& pairs,
                         const SessionOptions& opts, const LineSender& out) {
  json head;
  Api api;
  auto lib = load_driver(candidates, api, head);
  if (!lib) return out(dump_json(json{{"fatal", head}}));
  std::map<int, Context> contexts;
  for (const auto& p : pairs)
    for (int ordinal : {p.src, p.dst}) {
      if (contexts.count(ordinal)) continue;
      Context c;
      CUresult r = api.cuDeviceGet(&c.dev, ordinal);
      if (r == 0) r = api.cuDevicePrimaryCtxRetain(&c.ctx, c.dev);
      if (r != 0)
        return out(dump_json(json{{"fatal", json{{"context_error", api.error_name(r)}, {"ordinal", ordinal}}}}));
      contexts[ordinal] = c;
    }
  for (const auto& p : pairs) {
    const std::string step = peer_step(p);
    out(dump_json(json{{"start", step}}));
    json result = json::object();
    try {
      copy_pair(api, contexts.at(p.src), contexts.at(p.dst), opts, result);
    } catch (const Failure& f) {
      if (call_name(f.call) == "cuMemAlloc_v2" && f.code == cuda_error_code("CUDA_ERROR_OUT_OF_MEMORY")) {
        // Another process holds the memory: nothing is known of the link.
        result["status"] = word(StepStatus::skipped);
        result["reason"] = "no device memory for the copy's buffers (CUDA_ERROR_OUT_OF_MEMORY): another process holds it";
      } else {
        record_failure(api, f, result);
      }
    }
    out(dump_json(json{{"step", step}, {"result", result}}));
    if (result.value("context_error", false)) return;
  }
  for (auto& [ordinal, c] : contexts) api.cuDevicePrimaryCtxRelease_v2(c.dev);
}

}  // namespace gpucheck::kernels
