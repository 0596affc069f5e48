#include "host/cuda_devices.hpp"

#include <optional>

namespace gpucheck::cuda {

using nlohmann::json;

std::string QueryApi::error_name(CUresult r) const {
  const char* s = nullptr;
  if (cuGetErrorName && cuGetErrorName(r, &s) == 0 && s) return s;
  return "CUresult " + std::to_string(r);
}

std::string uuid_text(const CUuuid& uuid) {
  static const char* hex = "0123456789abcdef";
  std::string s = "GPU-";
  for (int b = 0; b < 16; ++b) {
    if (b == 4 || b == 6 || b == 8 || b == 10) s += '-';
    const auto byte = static_cast<unsigned char>(uuid.bytes[b]);
    s += hex[byte >> 4];
    s += hex[byte & 15];
  }
  return s;
}

namespace {

json describe(const QueryApi& api, int ordinal, CUdevice dev) {
  json d{{"ordinal", ordinal}};
  char buf[256] = {};
  if (api.cuDeviceGetName && api.cuDeviceGetName(buf, sizeof buf - 1, dev) == 0) d["name"] = std::string(buf);
  CUuuid uuid{};
  if (api.cuDeviceGetUuid && api.cuDeviceGetUuid(&uuid, dev) == 0) d["uuid"] = uuid_text(uuid);
  auto attr = [&](int which) -> std::optional<int> {
    int v = 0;
    if (api.cuDeviceGetAttribute && api.cuDeviceGetAttribute(&v, which, dev) == 0) return v;
    return std::nullopt;
  };
  const auto major = attr(kAttrComputeCapabilityMajor), minor = attr(kAttrComputeCapabilityMinor);
  if (major && minor) d["compute_capability"] = std::to_string(*major) + "." + std::to_string(*minor);
  if (auto sm = attr(kAttrMultiprocessorCount)) d["sm_count"] = *sm;
  std::size_t mem = 0;
  if (api.cuDeviceTotalMem_v2 && api.cuDeviceTotalMem_v2(&mem, dev) == 0) d["memory_bytes"] = mem;
  if (api.cuDeviceGetPCIBusId && api.cuDeviceGetPCIBusId(buf, sizeof buf - 1, dev) == 0) d["pci_bus_id"] = std::string(buf);
  return d;
}

}  // namespace

json list_devices(const QueryApi& api) {
  json out{{"devices", json::array()}};
  if (!api.cuDeviceGetCount || !api.cuDeviceGet) return out;
  int count = 0;
  if (const CUresult r = api.cuDeviceGetCount(&count); r != 0) {
    out["count_error"] = api.error_name(r);
    return out;
  }
  for (int i = 0; i < count; ++i) {
    CUdevice dev = 0;
    if (const CUresult r = api.cuDeviceGet(&dev, i); r != 0) {
      out["devices"].push_back(json{{"ordinal", i}, {"error", api.error_name(r)}});
      continue;
    }
    out["devices"].push_back(describe(api, i, dev));
  }
  return out;
}

}  // namespace gpucheck::cuda
