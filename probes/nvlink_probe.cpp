// Each GPU's NVLinks through NVML (libnvidia-ml.so.1), in a child process
// with its own deadline as the other driver calls: whether each link is
// up, its generation, what it reaches, and its data-link error counters.
// nvidia-smi -q shows none of this. docs/topology.md.
#include <algorithm>
#include <cstring>
#include <nlohmann/json.hpp>

#include "child_answer.hpp"
#include "nvml_child.hpp"
#include "facts/fact_limits.hpp"
#include "facts/gpu_host.hpp"
#include "host/dynamic_library.hpp"
#include "host/nvml_types.hpp"
#include "host/symbol_table.hpp"
#include "probe.hpp"
#include "util/pci_address.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

using nlohmann::json;
using namespace nvml;
constexpr const char* kCallKey = "nvml-nvlink";

#define GPUCHECK_NVLINK_ENTRY_POINTS(X)                                                        \
  X(nvmlInit_v2, nvmlReturn_t, ())                                                             \
  X(nvmlShutdown, nvmlReturn_t, ())                                                            \
  X(nvmlErrorString, const char*, (nvmlReturn_t))                                              \
  X(nvmlDeviceGetCount_v2, nvmlReturn_t, (unsigned*))                                          \
  X(nvmlDeviceGetHandleByIndex_v2, nvmlReturn_t, (unsigned, nvmlDevice_t*))                    \
  X(nvmlDeviceGetPciInfo_v3, nvmlReturn_t, (nvmlDevice_t, PciInfo*))                           \
  X(nvmlDeviceGetNvLinkState, nvmlReturn_t, (nvmlDevice_t, unsigned, int*))                    \
  X(nvmlDeviceGetNvLinkVersion, nvmlReturn_t, (nvmlDevice_t, unsigned, unsigned*))             \
  X(nvmlDeviceGetNvLinkRemotePciInfo_v2, nvmlReturn_t, (nvmlDevice_t, unsigned, PciInfo*))     \
  X(nvmlDeviceGetNvLinkErrorCounter, nvmlReturn_t, (nvmlDevice_t, unsigned, int, unsigned long long*))

struct Api {
#define GPUCHECK_NVML_DECLARE(name, ret, params) ret(*name) params = nullptr;
  GPUCHECK_NVLINK_ENTRY_POINTS(GPUCHECK_NVML_DECLARE)
#undef GPUCHECK_NVML_DECLARE
  std::string error(nvmlReturn_t r) const {
    const char* s = nvmlErrorString ? nvmlErrorString(r) : nullptr;
    return std::to_string(r) + (s ? " (" + std::string(s) + ")" : "");
  }
};

constexpr const char* kRequired[] = {"nvmlInit_v2", "nvmlShutdown", "nvmlDeviceGetCount_v2", "nvmlDeviceGetHandleByIndex_v2",
                                     "nvmlDeviceGetPciInfo_v3", "nvmlDeviceGetNvLinkState"};

// A link NVML does not know (NOT_SUPPORTED, INVALID_ARGUMENT past the
// GPU's count) is left out: the GPU has no such link.
json links_of(const Api& api, nvmlDevice_t dev) {
  json links = json::array();
  for (unsigned l = 0; l < kNvLinkMaxLinks; ++l) {
    int active = 0;
    if (api.nvmlDeviceGetNvLinkState(dev, l, &active) != kSuccess) continue;
    json link{{"link", l}, {"active", active == kEnabled}};
    if (unsigned v = 0; api.nvmlDeviceGetNvLinkVersion && api.nvmlDeviceGetNvLinkVersion(dev, l, &v) == kSuccess) link["version"] = v;
    if (PciInfo remote{}; api.nvmlDeviceGetNvLinkRemotePciInfo_v2 && api.nvmlDeviceGetNvLinkRemotePciInfo_v2(dev, l, &remote) == kSuccess)
      link["remote_pci"] = nvml_bus_id(remote);
    const auto counter = [&](int which, const char* key) {
      unsigned long long n = 0;
      if (api.nvmlDeviceGetNvLinkErrorCounter && api.nvmlDeviceGetNvLinkErrorCounter(dev, l, which, &n) == kSuccess) link[key] = n;
    };
    counter(kNvLinkErrorReplay, "replay");
    counter(kNvLinkErrorRecovery, "recovery");
    counter(kNvLinkErrorCrcFlit, "crc_flit");
    counter(kNvLinkErrorCrcData, "crc_data");
    links.push_back(std::move(link));
  }
  return links;
}

// Runs in the child. Prints one JSON object: the answers, or where it stopped.
std::string query_nvlinks(const std::vector<std::string>& candidates) {
  auto lib = DynamicLibrary::open(candidates);
  if (!lib) return dump_json(json{{"load_error", lib.problem().detail}});
  json out{{"library", lib->opened()}};
  Api api;
#define GPUCHECK_SLOT(name, ret, params) SymbolSlot{#name, &api.name},
  const auto missing = resolve_symbols(*lib, {GPUCHECK_NVLINK_ENTRY_POINTS(GPUCHECK_SLOT)});
#undef GPUCHECK_SLOT
  out["missing_symbols"] = missing;
  for (const char* needed : kRequired)
    if (std::find(missing.begin(), missing.end(), needed) != missing.end()) return dump_json(out);
  if (const nvmlReturn_t init = api.nvmlInit_v2(); init != kSuccess) {
    out["init_error"] = api.error(init);
    return dump_json(out);
  }
  list_nvml_devices({api.nvmlDeviceGetCount_v2, api.nvmlDeviceGetHandleByIndex_v2, api.nvmlDeviceGetPciInfo_v3,
                     [&](nvmlReturn_t r) { return api.error(r); }},
                    [&](nvmlDevice_t dev) { return json{{"links", links_of(api, dev)}}; }, out);
  api.nvmlShutdown();
  return dump_json(out);
}

NvLink link_of(const json& j) {
  NvLink l;
  l.link = json_field<int>(j, "link").value_or(-1);
  l.active = json_field<bool>(j, "active").value_or(false);
  l.version = json_field<int>(j, "version");
  if (auto r = json_field<std::string>(j, "remote_pci")) l.remote_pci = normalize_pci_bus_id(*r);
  l.replay = json_field<std::uint64_t>(j, "replay");
  l.recovery = json_field<std::uint64_t>(j, "recovery");
  l.crc_flit = json_field<std::uint64_t>(j, "crc_flit");
  l.crc_data = json_field<std::uint64_t>(j, "crc_data");
  return l;
}

}  // namespace

const IsolatedEntry kNvLinkCall{kCallKey, query_nvlinks};

void probe_nvlink(ProbeContext& ctx) {
  const auto& lib = ctx.facts().nvidia_driver.libnvidia_ml;
  // The health probe notes a missing NVML; here there is nothing to add.
  if (!gpu_host_evidence(ctx.facts()).nvidia_host() || !lib.path) return;
  ctx.start_call(IsolatedCall{kCallKey, {*lib.path, "libnvidia-ml.so.1"}}, ctx.deadline().cap(ctx.options().driver_timeout), *lib.path);
}

void finish_nvlink(ProbeContext& ctx) {
  auto call = ctx.take_call(kCallKey);
  if (!call) return;
  const auto parsed = child_answer(ctx, ChildCall{"nvlink", "NVLink", kCallKey, call->library,
                                                  "NVML did not answer within " + std::to_string(call->deadline.count()) + " ms"},
                                   call->answer);
  if (!parsed) return;
  const json& j = *parsed;
  const std::string library = json_field<std::string>(j, "library").value_or(call->library);
  const auto devs = nvml_answer_devices(ctx, "nvlink", j, library);
  if (!devs) return;
  NvLinkFacts f;
  f.source = "NVML (" + library + ")";
  for (const json* dp : *devs) {
    if (f.gpus.size() == kMaxGpusPerNode) break;
    const json& d = *dp;
    GpuNvLinks g;
    g.pci_bus_id = normalize_pci_bus_id(json_field<std::string>(d, "pci_bus_id").value_or(""));
    if (auto links = d.find("links"); links != d.end() && links->is_array())
      for (auto& l : *links)
        if (l.is_object() && g.links.size() < kNvLinkMaxLinks) g.links.push_back(link_of(l));
    f.gpus.push_back(std::move(g));
  }
  ctx.facts().nvlink = std::move(f);
}

}  // namespace gpucheck
