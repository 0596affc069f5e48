// A test double for NVML (libnvidia-ml.so.1), for the sustained mode's
// samples (src/kernels/nvml_api.hpp) and the driver-health probe
// (probes/nvml_probe.cpp). It measures nothing: every reading is a fixed,
// made-up value or one the description file names (see README.md), so tests
// can tell an answer that went through NVML from one that did not. C
// linkage, signatures of nvml.h.
// Codes and enum values as nvml.h defines them (NVIDIA's copy in
// github.com/NVIDIA/go-nvml, gen/nvml/nvml.h, commit 2f9e261f; listed in
// https://docs.nvidia.com/deploy/nvml-api/group__nvmlDeviceEnumvs.html).
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

struct nvmlDevice_st {
  int unused;
};
using nvmlDevice_t = nvmlDevice_st*;

namespace {
nvmlDevice_st the_device{0};
bool initialised = false;
unsigned temperature = 60;
// nvmlReturn_t: NVML_SUCCESS, NVML_ERROR_UNINITIALIZED, NVML_ERROR_INVALID_ARGUMENT, NVML_ERROR_NOT_FOUND.
constexpr int kSuccess = 0, kUninitialized = 1, kInvalidArgument = 2, kNotSupported = 3, kNotFound = 6, kGpuIsLost = 15;

// The devices the health probe lists, from $GPUCHECK_FAKE_NVML (README.md):
// none when it is unset.
struct FakeGpu {
  nvmlDevice_st handle{1};
  std::string bus, name = "NVIDIA H100 80GB HBM3", uuid = "GPU-00000000-0000-0000-0000-000000000000";
  unsigned long long mem_mib = 81559, ecc_uncorrected = 0;
  unsigned remap_pending = 0, remap_failure = 0, fabric_state = 0, fabric_status = 0;
  unsigned long long reasons = 0;
  bool lost = false;
  unsigned nvlinks = 0;                 // links 0..nvlinks-1 exist; the rest answer NOT_SUPPORTED
  std::set<unsigned> nvlinks_down;      // of them, inactive
  unsigned long long nvlink_replay = 0;  // link 0's replay counter
};

struct Description {
  std::string driver = "535.104.05";
  int cuda = 12020, init = kSuccess;
  std::set<std::string> hang;
  std::vector<FakeGpu> gpus;
};

std::string field(const std::string& rest, const std::string& key) {
  const auto at = rest.find(key + "=");
  if (at == std::string::npos) return {};
  auto start = at + key.size() + 1;
  if (start < rest.size() && rest[start] == '"') return rest.substr(start + 1, rest.find('"', start + 1) - start - 1);
  return rest.substr(start, rest.find(' ', start) - start);
}

unsigned long long number(const std::string& text, unsigned long long otherwise) {
  return text.empty() ? otherwise : std::strtoull(text.c_str(), nullptr, 0);
}

const Description& description() {
  static const Description d = [] {
    Description out;
    const char* path = std::getenv("GPUCHECK_FAKE_NVML");
    if (!path) return out;
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty() || line[0] == '#') continue;
      std::istringstream words(line);
      std::string word;
      words >> word;
      const std::string rest = line.substr(word.size());
      if (word == "driver") words >> out.driver;
      else if (word == "cuda") words >> out.cuda;
      else if (word == "init") words >> out.init;
      else if (word == "hang") {
        std::string fn;
        words >> fn;
        out.hang.insert(fn);
      } else if (word == "device") {
        FakeGpu g;
        g.bus = field(rest, "bus");
        if (auto v = field(rest, "name"); !v.empty()) g.name = v;
        if (auto v = field(rest, "uuid"); !v.empty()) g.uuid = v;
        g.mem_mib = number(field(rest, "mem_mib"), g.mem_mib);
        g.ecc_uncorrected = number(field(rest, "ecc_uncorrected"), 0);
        g.remap_pending = static_cast<unsigned>(number(field(rest, "remap_pending"), 0));
        g.remap_failure = static_cast<unsigned>(number(field(rest, "remap_failure"), 0));
        g.fabric_state = static_cast<unsigned>(number(field(rest, "fabric_state"), 0));
        g.fabric_status = static_cast<unsigned>(number(field(rest, "fabric_status"), 0));
        g.reasons = number(field(rest, "reasons"), 0);
        g.lost = field(rest, "lost") == "1";
        g.nvlinks = static_cast<unsigned>(number(field(rest, "nvlinks"), 0));
        std::istringstream down(field(rest, "nvlink_down"));
        for (std::string l; std::getline(down, l, ',');)
          if (!l.empty()) g.nvlinks_down.insert(static_cast<unsigned>(std::strtoul(l.c_str(), nullptr, 10)));
        g.nvlink_replay = number(field(rest, "nvlink_replay"), 0);
        out.gpus.push_back(std::move(g));
      }
    }
    return out;
  }();
  return d;
}

bool known(nvmlDevice_t dev);

// "hang NAME": that entry point never returns (it waits until killed).
void maybe_hang(const char* fn) {
  if (description().hang.count(fn))
    for (;;) ::pause();
}

const FakeGpu* gpu_of(nvmlDevice_t dev) {
  for (const auto& g : description().gpus)
    if (&g.handle == dev) return &g;
  return nullptr;
}

bool known(nvmlDevice_t dev) { return dev == &the_device || gpu_of(dev); }

}  // namespace

extern "C" {

__attribute__((visibility("default"))) int nvmlInit_v2() {
  maybe_hang("nvmlInit_v2");
  if (description().init != kSuccess) return description().init;
  initialised = true;
  return kSuccess;
}

__attribute__((visibility("default"))) int nvmlShutdown() {
  if (!initialised) return kUninitialized;
  initialised = false;
  return kSuccess;
}

__attribute__((visibility("default"))) const char* nvmlErrorString(int r) {
  switch (r) {
    case kSuccess: return "Success";
    case kUninitialized: return "Uninitialized";
    case kInvalidArgument: return "Invalid Argument";
    case kNotFound: return "Not Found";
    case kNotSupported: return "Not Supported";
    case kGpuIsLost: return "GPU is lost";
    default: return "Unknown Error";
  }
}

__attribute__((visibility("default"))) int nvmlDeviceGetHandleByPciBusId_v2(const char* bus, nvmlDevice_t* dev) {
  if (!initialised) return kUninitialized;
  if (!bus || !dev) return kInvalidArgument;
  if (!*bus) return kNotFound;
  *dev = &the_device;
  return kSuccess;
}

__attribute__((visibility("default"))) int nvmlDeviceGetClockInfo(nvmlDevice_t dev, int type, unsigned* mhz) {
  if (!initialised) return kUninitialized;
  if (!known(dev) || !mhz) return kInvalidArgument;
  if (type == 1) *mhz = 1980;  // NVML_CLOCK_SM
  else if (type == 2) *mhz = 2619;  // NVML_CLOCK_MEM
  else return kInvalidArgument;
  return kSuccess;
}

// Rises one degree a reading, so a test can see the highest one reported.
__attribute__((visibility("default"))) int nvmlDeviceGetTemperature(nvmlDevice_t dev, int sensor, unsigned* c) {
  if (!initialised) return kUninitialized;
  if (!known(dev) || sensor != 0 || !c) return kInvalidArgument;  // 0: NVML_TEMPERATURE_GPU
  *c = temperature++;
  return kSuccess;
}

// nvmlTemperature_v1_t; its version is NVML_STRUCT_VERSION(Temperature, 1).
struct nvmlTemperature_v1_t {
  unsigned version;
  int sensorType;
  int temperature;
};

// The same readings 100 degrees up, so a test can tell which call gave them;
// NVML_ERROR_NOT_SUPPORTED (3) when FAKE_NVML_NO_TEMPERATURE_V is set, as a
// driver that exports the call but does not support it for the device.
__attribute__((visibility("default"))) int nvmlDeviceGetTemperatureV(nvmlDevice_t dev, nvmlTemperature_v1_t* t) {
  if (!initialised) return kUninitialized;
  if (std::getenv("FAKE_NVML_NO_TEMPERATURE_V")) return 3;
  if (!known(dev) || !t || t->version != (sizeof(nvmlTemperature_v1_t) | (1u << 24)) || t->sensorType != 0)
    return kInvalidArgument;
  t->temperature = static_cast<int>(temperature++) + 100;
  return kSuccess;
}

__attribute__((visibility("default"))) int nvmlDeviceGetPowerUsage(nvmlDevice_t dev, unsigned* mw) {
  if (!initialised) return kUninitialized;
  if (!known(dev) || !mw) return kInvalidArgument;
  *mw = 512250;
  return kSuccess;
}

// Both names, with different answers, so a test can tell which one was used.
// Bits: https://docs.nvidia.com/deploy/nvml-api/group__nvmlClocksEventReasons.html
// (0x1 GpuIdle, 0x4 SwPowerCap, 0x20 SwThermalSlowdown).
__attribute__((visibility("default"))) int nvmlDeviceGetCurrentClocksThrottleReasons(nvmlDevice_t dev,
                                                                                    unsigned long long* mask) {
  if (!initialised) return kUninitialized;
  if (!known(dev) || !mask) return kInvalidArgument;
  *mask = gpu_of(dev) ? gpu_of(dev)->reasons : 0x1;  // gpu_idle
  return kSuccess;
}

__attribute__((visibility("default"))) int nvmlDeviceGetCurrentClocksEventReasons(nvmlDevice_t dev,
                                                                                 unsigned long long* mask) {
  if (!initialised) return kUninitialized;
  if (!known(dev) || !mask) return kInvalidArgument;
  *mask = gpu_of(dev) ? gpu_of(dev)->reasons : 0x24;  // sw_power_cap | sw_thermal_slowdown
  return kSuccess;
}

// --- the driver-health probe's entry points (probes/nvml_probe.cpp) ---

struct PciInfo {
  char busIdLegacy[16];
  unsigned domain, bus, device, pciDeviceId, pciSubSystemId;
  char busId[32];
};
struct Memory {
  unsigned long long total, free, used;
};
struct GpuFabricInfo {
  unsigned char clusterUuid[16];
  int status;
  unsigned cliqueId;
  unsigned char state;
};

#define FAKE_NVML_DEVICE(dev)                  \
  if (!initialised) return kUninitialized;     \
  const FakeGpu* g = gpu_of(dev);              \
  if (!g) return kInvalidArgument;

__attribute__((visibility("default"))) int nvmlSystemGetDriverVersion(char* out, unsigned len) {
  if (!initialised) return kUninitialized;
  std::snprintf(out, len, "%s", description().driver.c_str());
  return kSuccess;
}

__attribute__((visibility("default"))) int nvmlSystemGetCudaDriverVersion(int* v) {
  *v = description().cuda;
  return kSuccess;
}

__attribute__((visibility("default"))) int nvmlDeviceGetCount_v2(unsigned* n) {
  maybe_hang("nvmlDeviceGetCount_v2");
  if (!initialised) return kUninitialized;
  *n = static_cast<unsigned>(description().gpus.size());
  return kSuccess;
}

__attribute__((visibility("default"))) int nvmlDeviceGetHandleByIndex_v2(unsigned i, nvmlDevice_t* dev) {
  if (!initialised) return kUninitialized;
  const auto& gpus = description().gpus;
  if (i >= gpus.size() || !dev) return kInvalidArgument;
  if (gpus[i].lost) return kGpuIsLost;
  *dev = const_cast<nvmlDevice_st*>(&gpus[i].handle);
  return kSuccess;
}

__attribute__((visibility("default"))) int nvmlDeviceGetPciInfo_v3(nvmlDevice_t dev, PciInfo* p) {
  FAKE_NVML_DEVICE(dev)
  *p = PciInfo{};
  std::snprintf(p->busId, sizeof p->busId, "0000%s", g->bus.c_str());  // the 8-digit domain NVML writes
  return kSuccess;
}

__attribute__((visibility("default"))) int nvmlDeviceGetName(nvmlDevice_t dev, char* out, unsigned len) {
  FAKE_NVML_DEVICE(dev)
  std::snprintf(out, len, "%s", g->name.c_str());
  return kSuccess;
}

__attribute__((visibility("default"))) int nvmlDeviceGetUUID(nvmlDevice_t dev, char* out, unsigned len) {
  FAKE_NVML_DEVICE(dev)
  std::snprintf(out, len, "%s", g->uuid.c_str());
  return kSuccess;
}

__attribute__((visibility("default"))) int nvmlDeviceGetMemoryInfo(nvmlDevice_t dev, Memory* m) {
  FAKE_NVML_DEVICE(dev)
  *m = Memory{g->mem_mib << 20, g->mem_mib << 19, g->mem_mib << 19};
  return kSuccess;
}

__attribute__((visibility("default"))) int nvmlDeviceGetEccMode(nvmlDevice_t dev, int* cur, int* pend) {
  FAKE_NVML_DEVICE(dev)
  *cur = *pend = 1;
  return kSuccess;
}

__attribute__((visibility("default"))) int nvmlDeviceGetTotalEccErrors(nvmlDevice_t dev, int type, int, unsigned long long* n) {
  FAKE_NVML_DEVICE(dev)
  *n = type == 1 ? g->ecc_uncorrected : 0;
  return kSuccess;
}

__attribute__((visibility("default"))) int nvmlDeviceGetRemappedRows(nvmlDevice_t dev, unsigned* corr, unsigned* unc,
                                                                    unsigned* pending, unsigned* failed) {
  FAKE_NVML_DEVICE(dev)
  *corr = *unc = 0;
  *pending = g->remap_pending;
  *failed = g->remap_failure;
  return kSuccess;
}

// Ampere and newer answer NOT_SUPPORTED here: row remapping replaced it.
__attribute__((visibility("default"))) int nvmlDeviceGetRetiredPagesPendingStatus(nvmlDevice_t dev, int*) {
  FAKE_NVML_DEVICE(dev)
  return kNotSupported;
}

__attribute__((visibility("default"))) int nvmlDeviceGetMaxClockInfo(nvmlDevice_t dev, int type, unsigned* mhz) {
  FAKE_NVML_DEVICE(dev)
  *mhz = type == 2 ? 2619 : 1980;
  return kSuccess;
}

__attribute__((visibility("default"))) int nvmlDeviceGetEnforcedPowerLimit(nvmlDevice_t dev, unsigned* mw) {
  FAKE_NVML_DEVICE(dev)
  *mw = 700000;
  return kSuccess;
}

__attribute__((visibility("default"))) int nvmlDeviceGetGpuFabricInfo(nvmlDevice_t dev, GpuFabricInfo* f) {
  FAKE_NVML_DEVICE(dev)
  *f = GpuFabricInfo{};
  f->state = static_cast<unsigned char>(g->fabric_state);
  f->status = static_cast<int>(g->fabric_status);
  return kSuccess;
}

// NVLink: NVML_NVLINK_MAX_LINKS (36) links; past it INVALID_ARGUMENT, past
// the device's own NOT_SUPPORTED, as a GPU with fewer links answers.
#define FAKE_NVML_LINK(dev, link)      \
  FAKE_NVML_DEVICE(dev)                \
  if (link >= 36) return kInvalidArgument; \
  if (link >= g->nvlinks) return kNotSupported;

__attribute__((visibility("default"))) int nvmlDeviceGetNvLinkState(nvmlDevice_t dev, unsigned link, int* active) {
  maybe_hang("nvmlDeviceGetNvLinkState");
  FAKE_NVML_LINK(dev, link)
  *active = g->nvlinks_down.count(link) ? 0 : 1;
  return kSuccess;
}

__attribute__((visibility("default"))) int nvmlDeviceGetNvLinkVersion(nvmlDevice_t dev, unsigned link, unsigned* version) {
  FAKE_NVML_LINK(dev, link)
  *version = 6;  // NVML_NVLINK_VERSION_4_0
  return kSuccess;
}

// The remote end is not described: NOT_SUPPORTED, which leaves it unknown.
__attribute__((visibility("default"))) int nvmlDeviceGetNvLinkRemotePciInfo_v2(nvmlDevice_t dev, unsigned link, PciInfo*) {
  FAKE_NVML_LINK(dev, link)
  return kNotSupported;
}

__attribute__((visibility("default"))) int nvmlDeviceGetNvLinkErrorCounter(nvmlDevice_t dev, unsigned link, int counter,
                                                                           unsigned long long* value) {
  FAKE_NVML_LINK(dev, link)
  if (counter < 0 || counter > 4) return kInvalidArgument;  // NVML_NVLINK_ERROR_DL_REPLAY … DL_ECC_DATA
  *value = counter == 0 && link == 0 ? g->nvlink_replay : 0;
  return kSuccess;
}

__attribute__((visibility("default"))) int nvmlDeviceGetPersistenceMode(nvmlDevice_t dev, int* mode) {
  FAKE_NVML_DEVICE(dev)
  *mode = 1;
  return kSuccess;
}

}  // extern "C"
