// The GPUs ggml reports at start-up, in llama.cpp's and ollama's logs:
//   ggml_cuda_init: found 1 CUDA devices:
//     Device 0: NVIDIA GeForce RTX 3090, compute capability 8.6, VMM: yes
// (ggml_init_cublas before 2024), wherever a log prefix puts them
// ("Jan  1 20:22:43 host ollama[911]:   Device 0: Tesla K80, …"). A log
// of ollama's server names ollama, which has a GPU floor of its own.
#include "importers/block_readers.hpp"
#include "importers/block_util.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

constexpr std::string_view kDevice = "Device ";
constexpr std::string_view kCc = ", compute capability ";

bool opens_list(std::string_view t) {
  return (t.find("ggml_cuda_init: found ") != std::string_view::npos || t.find("ggml_init_cublas: found ") != std::string_view::npos) &&
         t.find(" CUDA devices") != std::string_view::npos;
}

// "Device 0: Tesla K80, compute capability 3.7": the index, the name, the capability.
struct DeviceLine {
  int index;
  std::string_view name, cc;
};

std::optional<DeviceLine> device_line(std::string_view t) {
  const auto at = t.find(kDevice);
  const auto cc = t.find(kCc);
  if (at == std::string_view::npos || cc == std::string_view::npos || cc < at) return std::nullopt;
  const auto colon = t.find(": ", at);
  if (colon == std::string_view::npos || colon > cc) return std::nullopt;
  const auto index = parse_int_in(t.substr(at + kDevice.size(), colon - at - kDevice.size()), 0, 1023);
  auto rest = t.substr(cc + kCc.size());
  rest = rest.substr(0, rest.find(','));
  if (!index || !looks_like_version(trim(rest))) return std::nullopt;
  return DeviceLine{*index, trim(t.substr(colon + 2, cc - colon - 2)), trim(rest)};
}

Opens opens(const PasteText& p, std::size_t i) { return opens_list(p.trimmed(i)) ? Opens::surely : Opens::no; }

bool continues(const PasteText& p, std::size_t, std::size_t i) { return device_line(p.trimmed(i)).has_value(); }

void read(const PasteText& p, std::size_t first, std::size_t last, BlockFacts& out) {
  if (p.trimmed(first).find("ollama[") != std::string_view::npos) {
    auto& fw = report_framework(report_python(out.facts), "ollama");
    if (fw.source.empty()) fw.source = p.at(first);
  }
  for (std::size_t k = first + 1; k <= last; ++k) {
    const auto d = device_line(p.trimmed(k));
    if (!d) continue;
    if (!out.facts.cuda) out.facts.cuda = CudaDriverApiFacts{};
    CudaDevice dev;
    dev.ordinal = d->index;
    dev.pci_bus_id = report_gpu_key(d->index);
    dev.name = std::string(d->name);
    dev.compute_capability = std::string(d->cc);
    out.facts.cuda->devices.push_back(std::move(dev));
    out.where["cuda_driver_api.devices.compute_capability"] = p.at(k);
  }
}

}  // namespace

BlockReader ggml_reader() { return {"ggml device list", opens, continues, read}; }

}  // namespace gpucheck
