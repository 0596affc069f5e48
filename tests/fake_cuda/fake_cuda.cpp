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
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <string>
#include <vector>

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

struct Description {
  bool loaded = false;  // false: cuInit answers 999 (the reason went to stderr)
  bool stub = false;
  CUresult init = kSuccess;
  int driver_version = 0;
  std::vector<Device> devices;
  std::set<std::string> hang, crash;
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
