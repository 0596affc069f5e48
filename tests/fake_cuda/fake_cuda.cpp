// A fake libcuda.so.1 for tests: the CUDA Driver API entry points gpucheck
// calls, with the real C signatures and CUresult codes, answering from a
// description file named by $GPUCHECK_FAKE_CUDA (format: README.md beside it).
//
// Codes and signatures: NVIDIA's CUDA Driver API reference and cuda.h
// (https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__TYPES.html,
//  https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__ERROR.html).
// Messages: the strings cuGetErrorString/cudaGetErrorString return, as found in
// the CUDA 13.0 runtime library (`strings libcudart.so.13`), which shares the
// driver's table. The stub behaviour (every entry point returns 34, even
// cuGetErrorName) was measured on the toolkit's lib64/stubs/libcuda.so.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "host/cuda_entry_points.hpp"

// The C ABI as cuda.h spells it.
typedef int CUresult;
typedef int CUdevice;
typedef struct CUuuid_st {
  char bytes[16];
} CUuuid;

namespace {

constexpr CUresult kSuccess = 0;
constexpr CUresult kInvalidValue = 1;
constexpr CUresult kNotInitialized = 3;
constexpr CUresult kStubLibrary = 34;
constexpr CUresult kInvalidDevice = 101;
constexpr CUresult kUnknown = 999;

struct ErrorText {
  CUresult code;
  const char* name;
  const char* message;
};

// The codes a test may ask cuInit to return, plus those the fake returns itself.
constexpr ErrorText kErrors[] = {
    {0, "CUDA_SUCCESS", "no error"},
    {1, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {2, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {3, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
    {34, "CUDA_ERROR_STUB_LIBRARY", "CUDA driver is a stub library"},
    {100, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
    {101, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
    {200, "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid"},
    {201, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context"},
    {217, "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED", "peer access is not supported between these two devices"},
    {218, "CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed"},
    {222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION", "the provided PTX was compiled with an unsupported toolchain."},
    {500, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {700, "CUDA_ERROR_ILLEGAL_ADDRESS", "an illegal memory access was encountered"},
    {701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", "too many resources requested for launch"},
    {702, "CUDA_ERROR_LAUNCH_TIMEOUT", "the launch timed out and was terminated"},
    {704, "CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED", "peer access is already enabled"},
    {705, "CUDA_ERROR_PEER_ACCESS_NOT_ENABLED", "peer access has not been enabled"},
    {719, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"},
    {801, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported"},
    {803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH", "system has unsupported display driver / cuda driver combination"},
    {804, "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE", "forward compatibility was attempted on non supported HW"},
    {999, "CUDA_ERROR_UNKNOWN", "unknown error"},
};

const ErrorText* find_error(CUresult code) {
  for (const auto& e : kErrors)
    if (e.code == code) return &e;
  return nullptr;
}

// CUdevice_attribute values the fake answers.
constexpr int kAttrMultiprocessorCount = 16;
constexpr int kAttrPciBusId = 33;
constexpr int kAttrPciDeviceId = 34;
constexpr int kAttrPciDomainId = 50;
constexpr int kAttrComputeCapabilityMajor = 75;
constexpr int kAttrComputeCapabilityMinor = 76;

struct Device {
  std::string name;
  CUuuid uuid{};
  int cc_major = 0, cc_minor = 0, sms = 0;
  std::size_t mem = 0;
  std::string bus;  // returned as written
  int pci_domain = 0, pci_bus = 0, pci_device = 0;
};

// What a launch of one kernel does: nothing is computed. `output` is a file
// whose bytes are copied into the buffer of parameter `param`, only when the
// description names one; otherwise the output stays as it was (poisoned).
struct Kernel {
  std::string output;
  int param = 3;
  double time_ms = 1;       // virtual time a launch takes (events read it)
  CUresult launch_error = 0;
  CUresult sync_error = 0;  // what the next synchronisation after a launch returns
  bool hang = false;        // the next synchronisation after a launch never returns
  long hang_after = -1;     // >= 0: hang at the synchronisation after launch number hang_after + 1
  double wall_ms = 0;       // real time a launch sleeps, so a wall-clock loop sees time pass
  bool crash = false;       // cuLaunchKernel raises SIGSEGV
};

// Peer access from one device to another, and what a copy between them does.
struct Peer {
  double time_ms = -1;      // virtual time of one copy with peer access enabled (< 0: memcpy_ms)
  long corrupt = 0;         // words of each copy that arrive with a bit flipped
  CUresult enable_error = 0;  // what cuCtxEnablePeerAccess answers
  bool hang = false;        // the synchronisation after a copy never returns
};

struct JitFailure {
  CUresult code = 218;
  std::string log;
};

struct Description {
  bool loaded = false;  // false: cuInit answers 999 (the reason went to stderr)
  bool stub = false;
  CUresult init = kSuccess;
  CUresult count = kSuccess;  // what cuDeviceGetCount answers after a successful cuInit
  int driver_version = 0;
  std::vector<Device> devices;
  std::set<std::string> hang, crash, print, daemon;
  std::map<std::string, struct Kernel> kernels;  // by .entry name
  std::map<std::string, struct JitFailure> jit_failures;
  double memcpy_ms = 1;
  std::map<std::pair<int, int>, Peer> peers;  // (device, peer); (-1, -1): `peer all`
};

void complain(const std::string& what) { std::fprintf(stderr, "fake libcuda: %s\n", what.c_str()); }

bool fail(std::string& why, std::string what) {
  why = std::move(what);
  return false;
}

bool parse_uuid(const std::string& text, CUuuid& out) {
  // GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx, as nvidia-smi prints it.
  if (text.rfind("GPU-", 0) != 0) return false;
  std::string hex;
  for (std::size_t i = 4; i < text.size(); ++i)
    if (text[i] != '-') hex += text[i];
  if (hex.size() != 32) return false;
  for (std::size_t b = 0; b < 16; ++b) {
    char* end = nullptr;
    const std::string pair = hex.substr(2 * b, 2);
    const long v = std::strtol(pair.c_str(), &end, 16);
    if (end != pair.c_str() + 2) return false;
    out.bytes[b] = static_cast<char>(v);
  }
  return true;
}

bool parse_bus(const std::string& text, Device& d) {
  // domain:bus:device.function, all hexadecimal.
  unsigned dom = 0, bus = 0, dev = 0, fn = 0;
  char tail = 0;
  if (std::sscanf(text.c_str(), "%x:%x:%x.%x%c", &dom, &bus, &dev, &fn, &tail) != 4) return false;
  d.pci_domain = static_cast<int>(dom);
  d.pci_bus = static_cast<int>(bus);
  d.pci_device = static_cast<int>(dev);
  d.bus = text;
  return true;
}

// Splits `key=value key="quoted value"` into pairs.
bool split_fields(const std::string& rest, std::vector<std::pair<std::string, std::string>>& out) {
  std::size_t i = 0;
  while (i < rest.size()) {
    while (i < rest.size() && rest[i] == ' ') ++i;
    if (i >= rest.size()) break;
    const auto eq = rest.find('=', i);
    if (eq == std::string::npos) return false;
    std::string key = rest.substr(i, eq - i), value;
    i = eq + 1;
    if (i < rest.size() && rest[i] == '"') {
      const auto close = rest.find('"', i + 1);
      if (close == std::string::npos) return false;
      value = rest.substr(i + 1, close - i - 1);
      i = close + 1;
    } else {
      const auto sp = rest.find(' ', i);
      value = rest.substr(i, sp == std::string::npos ? std::string::npos : sp - i);
      i = sp == std::string::npos ? rest.size() : sp;
    }
    out.emplace_back(std::move(key), std::move(value));
  }
  return true;
}

bool parse_device(const std::string& rest, Device& d, std::string& why) {
  std::vector<std::pair<std::string, std::string>> fields;
  if (!split_fields(rest, fields)) return fail(why, "unbalanced quote or missing '='");
  std::set<std::string> seen;
  for (auto& [k, v] : fields) {
    seen.insert(k);
    char* end = nullptr;
    if (k == "name") {
      d.name = v;
    } else if (k == "uuid") {
      if (!parse_uuid(v, d.uuid)) return fail(why, "bad uuid " + v);
    } else if (k == "cc") {
      if (std::sscanf(v.c_str(), "%d.%d", &d.cc_major, &d.cc_minor) != 2) return fail(why, "bad cc " + v);
    } else if (k == "sms") {
      d.sms = static_cast<int>(std::strtol(v.c_str(), &end, 10));
      if (*end || v.empty()) return fail(why, "bad sms " + v);
    } else if (k == "mem") {
      d.mem = static_cast<std::size_t>(std::strtoull(v.c_str(), &end, 10));
      if (*end || v.empty()) return fail(why, "bad mem " + v);
    } else if (k == "bus") {
      if (!parse_bus(v, d)) return fail(why, "bad bus " + v);
    } else {
      return fail(why, "unknown field " + k);
    }
  }
  for (const char* k : {"name", "uuid", "cc", "sms", "mem", "bus"})
    if (!seen.count(k)) return fail(why, std::string("missing field ") + k);
  return true;
}

Description load() {
  Description desc;
  const char* path = std::getenv("GPUCHECK_FAKE_CUDA");
  if (!path || !*path) {
    complain("GPUCHECK_FAKE_CUDA is not set; cuInit answers CUDA_ERROR_UNKNOWN");
    return desc;
  }
  std::ifstream in(path);
  if (!in) {
    complain(std::string("cannot read ") + path + ": " + std::strerror(errno) + "; cuInit answers CUDA_ERROR_UNKNOWN");
    return desc;
  }
  bool have_version = false;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.empty() || line[0] == '#') continue;
    const auto sp = line.find(' ');
    const std::string word = line.substr(0, sp);
    const std::string rest = sp == std::string::npos ? "" : line.substr(sp + 1);
    std::string why;
    char* end = nullptr;
    if (word == "init") {
      desc.init = static_cast<CUresult>(std::strtol(rest.c_str(), &end, 10));
      if (*end || rest.empty()) why = "init wants a number";
    } else if (word == "count") {
      desc.count = static_cast<CUresult>(std::strtol(rest.c_str(), &end, 10));
      if (*end || rest.empty()) why = "count wants a number";
    } else if (word == "driver_version") {
      desc.driver_version = static_cast<int>(std::strtol(rest.c_str(), &end, 10));
      if (*end || rest.empty()) why = "driver_version wants a number such as 12020";
      have_version = true;
    } else if (word == "device") {
      Device d;
      if (parse_device(rest, d, why)) desc.devices.push_back(std::move(d));
    } else if (word == "hang") {
      desc.hang.insert(rest);
    } else if (word == "crash") {
      desc.crash.insert(rest);
    } else if (word == "print") {
      desc.print.insert(rest);
    } else if (word == "daemon") {
      desc.daemon.insert(rest);
    } else if (word == "kernel" || word == "jit_fail") {
      const auto sp2 = rest.find(' ');
      const std::string entry = rest.substr(0, sp2);
      std::vector<std::pair<std::string, std::string>> fields;
      if (entry.empty()) why = word + " wants an entry name";
      else if (!split_fields(sp2 == std::string::npos ? "" : rest.substr(sp2 + 1), fields)) why = "unbalanced quote or missing '='";
      for (auto& [k, v] : fields) {
        if (!why.empty()) break;
        char* e = nullptr;
        const long num = std::strtol(v.c_str(), &e, 10);
        const bool is_num = !v.empty() && *e == 0;
        if (word == "jit_fail") {
          auto& j = desc.jit_failures[entry];
          if (k == "code" && is_num) j.code = static_cast<CUresult>(num);
          else if (k == "log") j.log = v;
          else why = "jit_fail: unknown or bad field " + k;
          continue;
        }
        auto& kd = desc.kernels[entry];
        if (k == "output") kd.output = v;
        else if (k == "param" && is_num) kd.param = static_cast<int>(num);
        else if (k == "time_ms") kd.time_ms = std::strtod(v.c_str(), nullptr);
        else if (k == "launch_error" && is_num) kd.launch_error = static_cast<CUresult>(num);
        else if (k == "sync_error" && is_num) kd.sync_error = static_cast<CUresult>(num);
        else if (k == "hang" && v == "1") kd.hang = true;
        else if (k == "hang_after" && is_num && num >= 0) kd.hang_after = static_cast<long>(num);
        else if (k == "wall_ms" && is_num && num >= 0) kd.wall_ms = static_cast<double>(num);
        else if (k == "crash" && v == "1") kd.crash = true;
        else why = "kernel: unknown or bad field " + k;
      }
      if (word == "jit_fail" && why.empty()) desc.jit_failures[entry];
      if (word == "kernel" && why.empty()) desc.kernels[entry];
    } else if (word == "peer") {
      // peer SRC DST [time_ms=T] [corrupt=N] [enable_error=C] [hang=1], or peer all [...]
      std::vector<std::pair<std::string, std::string>> fields;
      int src = -1, dst = -1, used = 0;
      const bool all = rest.rfind("all", 0) == 0 && (rest.size() == 3 || rest[3] == ' ');
      if (all) used = 3;
      else if (std::sscanf(rest.c_str(), "%d %d%n", &src, &dst, &used) < 2 || src < 0 || dst < 0 || src == dst) why = "peer wants two device ordinals or all";
      if (why.empty() && !split_fields(rest.substr(static_cast<std::size_t>(used)), fields)) why = "unbalanced quote or missing '='";
      Peer pd;
      for (auto& [k, v] : fields) {
        if (!why.empty()) break;
        char* e = nullptr;
        const double num = std::strtod(v.c_str(), &e);
        if (v.empty() || *e) why = "peer: bad value for " + k;
        else if (k == "time_ms" && num >= 0) pd.time_ms = num;
        else if (k == "corrupt" && num >= 0) pd.corrupt = static_cast<long>(num);
        else if (k == "enable_error") pd.enable_error = static_cast<CUresult>(num);
        else if (k == "hang" && num == 1) pd.hang = true;
        else why = "peer: unknown or bad field " + k;
      }
      if (why.empty()) desc.peers[{src, dst}] = pd;
    } else if (word == "memcpy_ms") {
      desc.memcpy_ms = std::strtod(rest.c_str(), &end);
      if (*end || rest.empty()) why = "memcpy_ms wants a number";
    } else if (word == "stub") {
      desc.stub = true;
    } else {
      why = "unknown directive '" + word + "'";
    }
    if (!why.empty()) {
      complain(std::string(path) + ":" + std::to_string(n) + ": " + why + "; cuInit answers CUDA_ERROR_UNKNOWN");
      return Description{};
    }
  }
  if (!have_version && !desc.stub) {
    complain(std::string(path) + ": no driver_version line; cuInit answers CUDA_ERROR_UNKNOWN");
    return Description{};
  }
  desc.loaded = true;
  return desc;
}

const Description& description() {
  static const Description d = load();
  return d;
}

bool g_initialized = false;

// Every entry point starts here: a scripted hang or crash, or the stub's answer.
bool enter(const char* fn, CUresult& stub_answer) {
  const auto& d = description();
  if (d.crash.count(fn)) {
    // Die as an uninstrumented process would: a sanitizer's SIGSEGV handler
    // would otherwise turn the crash into an ordinary exit.
    std::signal(SIGSEGV, SIG_DFL);
    std::raise(SIGSEGV);
  }
  if (d.hang.count(fn))
    for (;;) ::pause();  // until the caller's watchdog kills us
  if (d.print.count(fn)) {
    // Some drivers and shims log to standard output.
    std::printf("fake libcuda: %s was called\n", fn);
    std::fflush(stdout);
  }
  if (d.daemon.count(fn)) {
    // A helper daemon, as a driver may start one: its own session, the
    // caller's descriptors (pipes included) still open, alive for a long
    // time. The entry point answers once the daemon has written its pid.
    const pid_t middle = ::fork();
    if (middle == 0) {
      ::setsid();
      if (::fork() == 0) {
        if (const char* desc = std::getenv("GPUCHECK_FAKE_CUDA")) std::ofstream(std::string(desc) + ".daemon-pid") << ::getpid() << "\n";
        ::kill(::getppid(), SIGKILL);  // the middle process: the daemon is an orphan now
        for (int i = 0; i < 600; ++i) ::sleep(1);
        ::_exit(0);
      }
      for (;;) ::pause();
    }
    if (middle > 0) ::waitpid(middle, nullptr, 0);
  }
  stub_answer = kStubLibrary;
  return d.stub;
}

// The device behind a handle, once cuInit succeeded.
CUresult device(CUdevice dev, const Device*& out) {
  if (!g_initialized) return kNotInitialized;
  const auto& devs = description().devices;
  if (dev < 0 || static_cast<std::size_t>(dev) >= devs.size()) return kInvalidDevice;
  out = &devs[static_cast<std::size_t>(dev)];
  return kSuccess;
}

CUresult copy_string(const std::string& s, char* buf, int len) {
  if (!buf || len <= 0) return kInvalidValue;
  std::snprintf(buf, static_cast<std::size_t>(len), "%s", s.c_str());
  return kSuccess;
}

}  // namespace

// Opens every entry point: the scripted hang or crash, or the stub's answer.
#define FAKE_CUDA_ENTRY(name)       \
  CUresult stub_answer_ = kSuccess; \
  if (enter(name, stub_answer_)) return stub_answer_

extern "C" {
// Declared from gpucheck's own list, so a definition below with another
// signature than the callers' does not compile.
#define FAKE_CUDA_PROTOTYPE(name, ret, params) __attribute__((visibility("default"))) ret name params;
GPUCHECK_CUDA_QUERY_ENTRY_POINTS(FAKE_CUDA_PROTOTYPE)
#undef FAKE_CUDA_PROTOTYPE


__attribute__((visibility("default"))) CUresult cuInit(unsigned int flags) {
  FAKE_CUDA_ENTRY("cuInit");
  const auto& d = description();
  if (!d.loaded) return kUnknown;
  if (flags != 0) return kInvalidValue;
  g_initialized = d.init == kSuccess;
  return d.init;
}

// Works before cuInit, as the real driver's does.
__attribute__((visibility("default"))) CUresult cuDriverGetVersion(int* version) {
  FAKE_CUDA_ENTRY("cuDriverGetVersion");
  if (!version) return kInvalidValue;
  if (!description().loaded) return kUnknown;
  *version = description().driver_version;
  return kSuccess;
}

__attribute__((visibility("default"))) CUresult cuGetErrorName(CUresult error, const char** str) {
  FAKE_CUDA_ENTRY("cuGetErrorName");
  if (!str) return kInvalidValue;
  const auto* e = find_error(error);
  *str = e ? e->name : nullptr;
  return e ? kSuccess : kInvalidValue;
}

__attribute__((visibility("default"))) CUresult cuGetErrorString(CUresult error, const char** str) {
  FAKE_CUDA_ENTRY("cuGetErrorString");
  if (!str) return kInvalidValue;
  const auto* e = find_error(error);
  *str = e ? e->message : nullptr;
  return e ? kSuccess : kInvalidValue;
}

__attribute__((visibility("default"))) CUresult cuDeviceGetCount(int* count) {
  FAKE_CUDA_ENTRY("cuDeviceGetCount");
  if (!g_initialized) return kNotInitialized;
  if (!count) return kInvalidValue;
  if (description().count != kSuccess) return description().count;
  *count = static_cast<int>(description().devices.size());
  return kSuccess;
}

__attribute__((visibility("default"))) CUresult cuDeviceGet(CUdevice* dev, int ordinal) {
  FAKE_CUDA_ENTRY("cuDeviceGet");
  const Device* d = nullptr;
  if (const CUresult r = device(ordinal, d); r != kSuccess) return r;
  if (!dev) return kInvalidValue;
  *dev = ordinal;  // a handle is its ordinal, as on the real driver
  return kSuccess;
}

__attribute__((visibility("default"))) CUresult cuDeviceGetName(char* name, int len, CUdevice dev) {
  FAKE_CUDA_ENTRY("cuDeviceGetName");
  const Device* d = nullptr;
  if (const CUresult r = device(dev, d); r != kSuccess) return r;
  return copy_string(d->name, name, len);
}

__attribute__((visibility("default"))) CUresult cuDeviceGetUuid(CUuuid* uuid, CUdevice dev) {
  FAKE_CUDA_ENTRY("cuDeviceGetUuid");
  const Device* d = nullptr;
  if (const CUresult r = device(dev, d); r != kSuccess) return r;
  if (!uuid) return kInvalidValue;
  *uuid = d->uuid;
  return kSuccess;
}

__attribute__((visibility("default"))) CUresult cuDeviceGetAttribute(int* value, int attrib, CUdevice dev) {
  FAKE_CUDA_ENTRY("cuDeviceGetAttribute");
  const Device* d = nullptr;
  if (const CUresult r = device(dev, d); r != kSuccess) return r;
  if (!value) return kInvalidValue;
  switch (attrib) {
    case kAttrMultiprocessorCount: *value = d->sms; return kSuccess;
    case kAttrPciBusId: *value = d->pci_bus; return kSuccess;
    case kAttrPciDeviceId: *value = d->pci_device; return kSuccess;
    case kAttrPciDomainId: *value = d->pci_domain; return kSuccess;
    case kAttrComputeCapabilityMajor: *value = d->cc_major; return kSuccess;
    case kAttrComputeCapabilityMinor: *value = d->cc_minor; return kSuccess;
    default: return kInvalidValue;  // an attribute this fake does not describe
  }
}

__attribute__((visibility("default"))) CUresult cuDeviceTotalMem_v2(std::size_t* bytes, CUdevice dev) {
  FAKE_CUDA_ENTRY("cuDeviceTotalMem_v2");
  const Device* d = nullptr;
  if (const CUresult r = device(dev, d); r != kSuccess) return r;
  if (!bytes) return kInvalidValue;
  *bytes = d->mem;
  return kSuccess;
}

__attribute__((visibility("default"))) CUresult cuDeviceGetPCIBusId(char* bus, int len, CUdevice dev) {
  FAKE_CUDA_ENTRY("cuDeviceGetPCIBusId");
  const Device* d = nullptr;
  if (const CUresult r = device(dev, d); r != kSuccess) return r;
  return copy_string(d->bus, bus, len);
}

}  // extern "C"

// --- The entry points of the kernel checks (GPUCHECK_CUDA_COMPUTE_ENTRY_POINTS) ---
// Memory is host memory; a CUdeviceptr is its address. Nothing is computed:
// a launch copies a file into an output buffer only when the description says
// so, and takes virtual time that events report.

typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st* CUcontext;
typedef struct CUmod_st* CUmodule;
typedef struct CUfunc_st* CUfunction;
typedef struct CUevent_st* CUevent;
typedef struct CUstream_st* CUstream;
typedef int CUjit_option;

struct CUmod_st {
  std::string ptx;
};
struct CUfunc_st {
  std::string entry;
};
struct CUevent_st {
  double t = 0;
};

namespace {

constexpr CUresult kNotFound = 500;
constexpr CUresult kInvalidContext = 201;

// Each device's primary context: a distinct handle per device.
struct CUctx_st* context_of(int dev) { return reinterpret_cast<struct CUctx_st*>(0x1000 + 0x10 * static_cast<std::uintptr_t>(dev)); }
int device_of(CUcontext ctx) {
  const auto v = reinterpret_cast<std::uintptr_t>(ctx);
  if (v < 0x1000 || (v - 0x1000) % 0x10) return -1;
  const auto dev = (v - 0x1000) / 0x10;
  return dev < description().devices.size() ? static_cast<int>(dev) : -1;
}
int g_current = -1;  // the device whose context is current
double g_clock_ms = 0;                      // the virtual clock events read
const Kernel* g_pending = nullptr;          // the last launch, until a synchronisation
std::map<const Kernel*, long> g_launches;   // launches per kernel in this process
std::map<CUdeviceptr, std::size_t> g_allocs;
std::map<CUdeviceptr, int> g_alloc_device;  // the device whose context allocated it
std::set<std::pair<int, int>> g_peer_enabled;  // (current device, peer) after cuCtxEnablePeerAccess

// The allocation holding [p, p + n), or false.
bool in_alloc(CUdeviceptr p, std::size_t n) {
  auto it = g_allocs.upper_bound(p);
  if (it == g_allocs.begin()) return false;
  --it;
  return p >= it->first && p + n <= it->first + it->second;
}

// Synchronising after a launch: the scripted hang or error happens here.
CUresult settle() {
  const Kernel* k = g_pending;
  g_pending = nullptr;
  if (!k) return kSuccess;
  if (k->hang || (k->hang_after >= 0 && g_launches[k] > k->hang_after))
    for (;;) ::pause();
  return k->sync_error;
}

CUresult need_context() { return !g_initialized ? kNotInitialized : (g_current >= 0 ? kSuccess : kInvalidContext); }

// The description of peer access from `dev` to `peer`; null: none.
const Peer* peer_of(int dev, int peer) {
  const auto& p = description().peers;
  if (dev == peer) return nullptr;
  if (auto it = p.find({dev, peer}); it != p.end()) return &it->second;
  if (auto it = p.find({-1, -1}); it != p.end()) return &it->second;
  return nullptr;
}

// The allocation that holds [p, p + n) and was made on `dev`.
bool on_device(CUdeviceptr p, std::size_t n, int dev) {
  if (!in_alloc(p, n)) return false;
  auto it = g_alloc_device.upper_bound(p);
  return it != g_alloc_device.begin() && (--it)->second == dev;
}

}  // namespace

#define FAKE_CUDA_CONTEXT()                                \
  if (const CUresult r_ = need_context(); r_ != kSuccess) \
  return r_

extern "C" {
// Declared from gpucheck's own list, so a definition below with another
// signature than the callers' does not compile.
#define FAKE_CUDA_PROTOTYPE(name, ret, params) __attribute__((visibility("default"))) ret name params;
GPUCHECK_CUDA_COMPUTE_ENTRY_POINTS(FAKE_CUDA_PROTOTYPE)
#undef FAKE_CUDA_PROTOTYPE


__attribute__((visibility("default"))) CUresult cuDevicePrimaryCtxRetain(CUcontext* ctx, CUdevice dev) {
  FAKE_CUDA_ENTRY("cuDevicePrimaryCtxRetain");
  const Device* d = nullptr;
  if (const CUresult r = device(dev, d); r != kSuccess) return r;
  if (!ctx) return kInvalidValue;
  *ctx = context_of(dev);
  return kSuccess;
}

__attribute__((visibility("default"))) CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev) {
  FAKE_CUDA_ENTRY("cuDevicePrimaryCtxRelease_v2");
  const Device* d = nullptr;
  return device(dev, d);
}

__attribute__((visibility("default"))) CUresult cuCtxSetCurrent(CUcontext ctx) {
  FAKE_CUDA_ENTRY("cuCtxSetCurrent");
  if (!g_initialized) return kNotInitialized;
  g_current = device_of(ctx);
  return g_current >= 0 ? kSuccess : kInvalidContext;
}

__attribute__((visibility("default"))) CUresult cuCtxSynchronize() {
  FAKE_CUDA_ENTRY("cuCtxSynchronize");
  FAKE_CUDA_CONTEXT();
  return settle();
}

__attribute__((visibility("default"))) CUresult cuModuleLoadDataEx(CUmodule* mod, const void* image, unsigned int n,
                                                                   CUjit_option* options, void** values) {
  FAKE_CUDA_ENTRY("cuModuleLoadDataEx");
  FAKE_CUDA_CONTEXT();
  if (!mod || !image) return kInvalidValue;
  const std::string ptx(static_cast<const char*>(image));
  for (const auto& [entry, failure] : description().jit_failures) {
    if (ptx.find(".entry " + entry + "(") == std::string::npos) continue;
    // The JIT writes its log into the buffer of option 5 (CU_JIT_ERROR_LOG_BUFFER),
    // at most option 6's size, as the real driver does.
    char* buf = nullptr;
    std::size_t size = 0;
    for (unsigned i = 0; i < n && options && values; ++i) {
      if (options[i] == 5) buf = static_cast<char*>(values[i]);
      if (options[i] == 6) size = reinterpret_cast<std::size_t>(values[i]);
    }
    if (buf && size) std::snprintf(buf, size, "%s", failure.log.c_str());
    return failure.code;
  }
  *mod = new CUmod_st{ptx};
  return kSuccess;
}

__attribute__((visibility("default"))) CUresult cuModuleGetFunction(CUfunction* fn, CUmodule mod, const char* name) {
  FAKE_CUDA_ENTRY("cuModuleGetFunction");
  FAKE_CUDA_CONTEXT();
  if (!fn || !mod || !name) return kInvalidValue;
  if (mod->ptx.find(std::string(".entry ") + name + "(") == std::string::npos) return kNotFound;
  *fn = new CUfunc_st{name};
  return kSuccess;
}

__attribute__((visibility("default"))) CUresult cuModuleUnload(CUmodule mod) {
  FAKE_CUDA_ENTRY("cuModuleUnload");
  delete mod;
  return kSuccess;
}

__attribute__((visibility("default"))) CUresult cuMemAlloc_v2(CUdeviceptr* p, std::size_t n) {
  FAKE_CUDA_ENTRY("cuMemAlloc_v2");
  FAKE_CUDA_CONTEXT();
  if (!p || n == 0) return kInvalidValue;
  void* m = std::malloc(n);
  if (!m) return 2;  // CUDA_ERROR_OUT_OF_MEMORY
  *p = reinterpret_cast<CUdeviceptr>(m);
  g_allocs[*p] = n;
  g_alloc_device[*p] = g_current;
  return kSuccess;
}

__attribute__((visibility("default"))) CUresult cuMemFree_v2(CUdeviceptr p) {
  FAKE_CUDA_ENTRY("cuMemFree_v2");
  if (!g_allocs.erase(p)) return kInvalidValue;
  g_alloc_device.erase(p);
  std::free(reinterpret_cast<void*>(p));
  return kSuccess;
}

__attribute__((visibility("default"))) CUresult cuMemAllocHost_v2(void** p, std::size_t n) {
  FAKE_CUDA_ENTRY("cuMemAllocHost_v2");
  FAKE_CUDA_CONTEXT();
  if (!p) return kInvalidValue;
  *p = std::malloc(n);
  return *p ? kSuccess : 2;
}

__attribute__((visibility("default"))) CUresult cuMemFreeHost(void* p) {
  FAKE_CUDA_ENTRY("cuMemFreeHost");
  std::free(p);
  return kSuccess;
}

__attribute__((visibility("default"))) CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void* src, std::size_t n) {
  FAKE_CUDA_ENTRY("cuMemcpyHtoD_v2");
  FAKE_CUDA_CONTEXT();
  if (!in_alloc(dst, n) || !src) return kInvalidValue;
  std::memcpy(reinterpret_cast<void*>(dst), src, n);
  g_clock_ms += description().memcpy_ms;
  return kSuccess;
}

// Synchronous, as the real one is: it waits for the launch before it.
__attribute__((visibility("default"))) CUresult cuMemcpyDtoH_v2(void* dst, CUdeviceptr src, std::size_t n) {
  FAKE_CUDA_ENTRY("cuMemcpyDtoH_v2");
  FAKE_CUDA_CONTEXT();
  if (const CUresult r = settle(); r != kSuccess) return r;
  if (!in_alloc(src, n) || !dst) return kInvalidValue;
  std::memcpy(dst, reinterpret_cast<const void*>(src), n);
  g_clock_ms += description().memcpy_ms;
  return kSuccess;
}

__attribute__((visibility("default"))) CUresult cuMemsetD32_v2(CUdeviceptr dst, unsigned int value, std::size_t n) {
  FAKE_CUDA_ENTRY("cuMemsetD32_v2");
  FAKE_CUDA_CONTEXT();
  if (!in_alloc(dst, n * 4)) return kInvalidValue;
  auto* w = reinterpret_cast<unsigned int*>(dst);
  for (std::size_t i = 0; i < n; ++i) w[i] = value;
  return kSuccess;
}

__attribute__((visibility("default"))) CUresult cuLaunchKernel(CUfunction fn, unsigned gx, unsigned gy, unsigned gz,
                                                               unsigned bx, unsigned by, unsigned bz, unsigned shared,
                                                               CUstream stream, void** params, void** extra) {
  FAKE_CUDA_ENTRY("cuLaunchKernel");
  FAKE_CUDA_CONTEXT();
  (void)shared;
  (void)stream;
  (void)extra;
  if (!fn || !params || gx * gy * gz == 0 || bx * by * bz == 0 || bx * by * bz > 1024) return kInvalidValue;
  static const Kernel kPlain{};
  auto it = description().kernels.find(fn->entry);
  const Kernel& k = it == description().kernels.end() ? kPlain : it->second;
  if (k.crash) {
    std::signal(SIGSEGV, SIG_DFL);
    std::raise(SIGSEGV);
  }
  if (k.launch_error) return k.launch_error;
  if (!k.output.empty()) {
    std::ifstream in(k.output, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const CUdeviceptr dst = *static_cast<CUdeviceptr*>(params[k.param]);
    if (!in_alloc(dst, bytes.size())) {
      complain("kernel " + fn->entry + ": output " + k.output + " is larger than the buffer of parameter " +
               std::to_string(k.param));
      return kInvalidValue;
    }
    std::memcpy(reinterpret_cast<void*>(dst), bytes.data(), bytes.size());
  }
  g_clock_ms += k.time_ms;
  ++g_launches[&k];
  if (k.wall_ms > 0) ::usleep(static_cast<useconds_t>(k.wall_ms * 1000));
  g_pending = &k;
  return kSuccess;
}

__attribute__((visibility("default"))) CUresult cuEventCreate(CUevent* ev, unsigned int flags) {
  FAKE_CUDA_ENTRY("cuEventCreate");
  FAKE_CUDA_CONTEXT();
  (void)flags;
  if (!ev) return kInvalidValue;
  *ev = new CUevent_st{};
  return kSuccess;
}

__attribute__((visibility("default"))) CUresult cuEventRecord(CUevent ev, CUstream stream) {
  FAKE_CUDA_ENTRY("cuEventRecord");
  FAKE_CUDA_CONTEXT();
  (void)stream;
  if (!ev) return kInvalidValue;
  ev->t = g_clock_ms;
  return kSuccess;
}

__attribute__((visibility("default"))) CUresult cuEventSynchronize(CUevent ev) {
  FAKE_CUDA_ENTRY("cuEventSynchronize");
  FAKE_CUDA_CONTEXT();
  if (!ev) return kInvalidValue;
  return settle();
}

__attribute__((visibility("default"))) CUresult cuEventElapsedTime(float* ms, CUevent a, CUevent b) {
  FAKE_CUDA_ENTRY("cuEventElapsedTime");
  if (!ms || !a || !b) return kInvalidValue;
  *ms = static_cast<float>(b->t - a->t);
  return kSuccess;
}

__attribute__((visibility("default"))) CUresult cuEventDestroy_v2(CUevent ev) {
  FAKE_CUDA_ENTRY("cuEventDestroy_v2");
  delete ev;
  return kSuccess;
}

__attribute__((visibility("default"))) CUresult cuDeviceCanAccessPeer(int* can, CUdevice dev, CUdevice peer) {
  FAKE_CUDA_ENTRY("cuDeviceCanAccessPeer");
  const Device* a = nullptr;
  const Device* b = nullptr;
  if (const CUresult r = device(dev, a); r != kSuccess) return r;
  if (const CUresult r = device(peer, b); r != kSuccess) return r;
  if (!can) return kInvalidValue;
  *can = peer_of(dev, peer) ? 1 : 0;
  return kSuccess;
}

// As cuda.h documents it: 201 without a current context or for the current
// one itself, 217 where cuDeviceCanAccessPeer says no, 704 the second time.
__attribute__((visibility("default"))) CUresult cuCtxEnablePeerAccess(CUcontext peer_ctx, unsigned int flags) {
  FAKE_CUDA_ENTRY("cuCtxEnablePeerAccess");
  FAKE_CUDA_CONTEXT();
  const int peer = device_of(peer_ctx);
  if (peer < 0 || peer == g_current) return kInvalidContext;
  if (flags != 0) return kInvalidValue;
  const Peer* p = peer_of(g_current, peer);
  if (!p) return 217;  // CUDA_ERROR_PEER_ACCESS_UNSUPPORTED
  if (p->enable_error) return p->enable_error;
  if (!g_peer_enabled.insert({g_current, peer}).second) return 704;  // CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED
  return kSuccess;
}

__attribute__((visibility("default"))) CUresult cuCtxDisablePeerAccess(CUcontext peer_ctx) {
  FAKE_CUDA_ENTRY("cuCtxDisablePeerAccess");
  FAKE_CUDA_CONTEXT();
  const int peer = device_of(peer_ctx);
  if (peer < 0) return kInvalidContext;
  return g_peer_enabled.erase({g_current, peer}) ? kSuccess : 705;  // CUDA_ERROR_PEER_ACCESS_NOT_ENABLED
}

// Copies at once (the stream is ignored) and advances the virtual clock: a
// pair's time_ms (default memcpy_ms) with peer access enabled either way, else twice memcpy_ms,
// as a copy staged through host memory. `corrupt` flips bit 0 of that many
// words spread over the copy, the silent corruption of
// github.com/NVIDIA/open-gpu-kernel-modules/issues/1257.
__attribute__((visibility("default"))) CUresult cuMemcpyPeerAsync(CUdeviceptr dst, CUcontext dst_ctx, CUdeviceptr src,
                                                                  CUcontext src_ctx, std::size_t n, CUstream stream) {
  FAKE_CUDA_ENTRY("cuMemcpyPeerAsync");
  FAKE_CUDA_CONTEXT();
  (void)stream;
  const int from = device_of(src_ctx), to = device_of(dst_ctx);
  if (from < 0 || to < 0) return kInvalidContext;
  if (!on_device(src, n, from) || !on_device(dst, n, to)) return kInvalidValue;
  if (const CUresult r = settle(); r != kSuccess) return r;
  std::memmove(reinterpret_cast<void*>(dst), reinterpret_cast<const void*>(src), n);
  const Peer* p = peer_of(from, to);
  const bool direct = p && (g_peer_enabled.count({from, to}) || g_peer_enabled.count({to, from}));
  if (p && p->corrupt > 0 && n >= 4) {
    auto* words = reinterpret_cast<unsigned int*>(dst);
    const std::size_t count = n / 4, flips = std::min<std::size_t>(count, static_cast<std::size_t>(p->corrupt));
    for (std::size_t i = 0; i < flips; ++i) words[i * (count / flips)] ^= 1u;
  }
  g_clock_ms += !direct ? 2 * description().memcpy_ms : p->time_ms >= 0 ? p->time_ms : description().memcpy_ms;
  if (p && p->hang) {
    static const Kernel kHangingCopy = [] {
      Kernel k;
      k.hang = true;
      return k;
    }();
    g_pending = &kHangingCopy;
  }
  return kSuccess;
}

}  // extern "C"
