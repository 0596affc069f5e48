// `ldd` ("libcudnn.so.8 => /usr/lib/…/libcudnn.so.8 (0x…)", "=> not found")
// and `ldconfig -p` ("libcuda.so.1 (libc6,x86-64) => /usr/lib/…"): where
// the loader finds the GPU libraries. libcuda becomes the driver's
// userspace library; CUDA's libraries become LibraryInstalls; a GPU
// library "not found" is said in the block's note. When the `ldd PATH`
// command shows the object is a Python package's (site-packages), what it
// loads becomes that package's loader view, as the loader probe records a
// framework's (import_report.cpp then says which came via LD_LIBRARY_PATH).
#include <algorithm>
#include <array>
#include <filesystem>

#include "importers/block_readers.hpp"
#include "importers/block_util.hpp"
#include "parse/library_name.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

struct Link {
  std::string_view soname, path;  // path empty: not found
};

std::optional<Link> link(std::string_view t) {
  const auto arrow = t.find(" => ");
  if (arrow == std::string_view::npos) return std::nullopt;
  auto soname = trim(t.substr(0, arrow));
  soname = soname.substr(0, soname.find(" ("));  // ldconfig's "(libc6,x86-64)"
  if (!starts_with(soname, "lib") || soname.find(".so") == std::string_view::npos) return std::nullopt;
  auto target = trim(t.substr(arrow + 4));
  if (starts_with(target, "not found")) return Link{soname, {}};
  target = target.substr(0, target.find(" (0x"));
  if (!starts_with(target, "/")) return std::nullopt;
  return Link{soname, target};
}

bool loader_line(std::string_view t) {
  // "linux-vdso.so.1 (0x…)", "/lib64/ld-linux-x86-64.so.2 (0x…)", a path that ldd was given.
  return link(t).has_value() || (t.find(".so") != std::string_view::npos && t.find("(0x") != std::string_view::npos) ||
         (starts_with(t, "/") && ends_with(t, ":"));
}

bool ldconfig_header(std::string_view t) { return t.find(" libs found in cache") != std::string_view::npos; }

Opens opens(const PasteText& p, std::size_t i) {
  const auto t = p.trimmed(i);
  if (ldconfig_header(t)) return Opens::surely;
  return link(t) ? Opens::maybe : Opens::no;
}

bool continues(const PasteText& p, std::size_t, std::size_t i) { return loader_line(p.trimmed(i)); }

// The library gpucheck names ("cudnn") by the soname's stem.
std::optional<std::string_view> gpu_library(std::string_view soname) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 10> kStems{{
      {"libcudnn.so", "cudnn"}, {"libnccl.so", "nccl"}, {"libcublas.so", "cublas"}, {"libcudart.so", "cudart"},
      {"libcufft.so", "cufft"}, {"libnvrtc.so", "nvrtc"}, {"libnvJitLink.so", "nvjitlink"}, {"libnvinfer.so", "tensorrt"},
      {"libcusparse.so", "cusparse"}, {"libcurand.so", "curand"},
  }};
  for (auto& [stem, name] : kStems)
    if (starts_with(soname, stem)) return name;
  return std::nullopt;
}

// "ldd /…/site-packages/nvidia/cusparse/lib/libcusparse.so.12" on one of
// the two lines above the block (a prompt may precede the command).
std::optional<std::string_view> ldd_object(const PasteText& p, std::size_t first) {
  for (std::size_t back = 1; back <= 2 && back <= first; ++back) {
    const auto t = p.trimmed(first - back);
    const auto at = t.find("ldd /");
    if (at != std::string_view::npos && (at == 0 || t[at - 1] == ' ')) return trim(t.substr(at + 4));
  }
  return std::nullopt;
}

// ".../site-packages/torch/lib/../../nvidia/cusparse/lib/x.so" -> "nvidia-cusparse"
// (the wheel's directory, as its distribution is named); empty outside site-packages.
std::string package_of(std::string_view object) {
  const std::string normal = std::filesystem::path(object).lexically_normal().generic_string();
  const auto at = normal.find("/site-packages/");
  if (at == std::string::npos) return {};
  const auto rest = normal.substr(at + 15);
  const auto lib = rest.find("/lib/");
  std::string package = lib == std::string::npos ? rest.substr(0, rest.find('/')) : rest.substr(0, lib);
  std::replace(package.begin(), package.end(), '/', '-');
  return package;
}

void read(const PasteText& p, std::size_t first, std::size_t last, BlockFacts& out) {
  std::vector<std::string> missing;
  LoaderView view;
  if (const auto object = ldd_object(p, first)) {
    view.object = std::string(*object);
    view.owner = package_of(*object);
  }
  if (ldconfig_header(p.trimmed(first))) out.kind = "ldconfig -p";
  for (std::size_t k = first; k <= last; ++k) {
    const auto l = link(p.trimmed(k));
    if (!l) continue;
    if (!view.owner.empty() && (gpu_library(l->soname) || starts_with(l->soname, "libcuda.so"))) {
      ResolvedNeed need;
      need.soname = std::string(l->soname);
      if (!l->path.empty()) need.path = std::string(l->path);
      view.needed.push_back(std::move(need));
    }
    if (l->path.empty()) {
      if (gpu_library(l->soname) || starts_with(l->soname, "libcuda.so")) missing.emplace_back(l->soname);
      continue;
    }
    const auto dir = std::string(l->path.substr(0, l->path.rfind('/')));
    if (starts_with(l->soname, "libcuda.so") && !out.facts.nvidia_driver.libcuda.path) {
      auto& u = out.facts.nvidia_driver.libcuda;
      u.soname = std::string(l->soname);
      u.path = std::string(l->path);
      if (out.kind) u.via = "ld.so.cache";  // ldconfig -p prints the cache; ldd does not say how it found it
      u.version = library_version_from_name(l->path, "libcuda.so");
      u.stub = is_stub_library_path(l->path);
      u.compat = is_compat_library_path(l->path);
      out.where["nvidia_driver.libcuda.path"] = p.at(k);
    } else if (const auto name = gpu_library(l->soname)) {
      const std::string stem = std::string(l->soname.substr(0, l->soname.find(".so") + 3));
      LibraryInstall lib{std::string(*name), library_version_from_name(l->path, stem), std::nullopt, std::string(l->path), dir};
      if (lib.version) lib.version_source = p.at(k);
      out.facts.software.libraries.push_back(std::move(lib));
    }
  }
  if (!missing.empty()) out.note = "not found by the loader: " + join(missing, ", ");
  if (!view.needed.empty()) report_python(out.facts).loader.push_back(std::move(view));
}

}  // namespace

BlockReader ldd_reader() { return {"ldd", opens, continues, read}; }

}  // namespace gpucheck
