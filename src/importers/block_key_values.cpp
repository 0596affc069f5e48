// "- Key: value" lists: `transformers env`, `accelerate env`,
// `huggingface-cli env`, `llamafactory-cli env`, and the same lines in
// issue templates ("**Driver version**: 535.104.05"). Known keys become
// facts; "<package> version: 1.2.3" (and huggingface-cli's "- Torch: 2.1.0")
// becomes a Distribution, and a framework when it is one.
#include <array>
#include <cctype>

#include "importers/block_readers.hpp"
#include "importers/block_util.hpp"
#include "parse/framework_build.hpp"
#include "util/python_name.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

enum class Key { none, banner, platform, python, torch, driver, gpu_type, gpu_count, os, ollama, package };

// "`transformers` version" -> "transformers"; "pytorch version (gpu?)" -> "pytorch".
std::string package_of(const std::string& k) {
  auto v = k.find(" version");
  if (v == std::string::npos) return {};
  auto name = k.substr(0, v);
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.')) return {};
  return name;
}

Key key_of(const std::string& k) {
  if (k == "platform") return Key::platform;
  if (k == "python version" || k == "python") return Key::python;
  if (starts_with(k, "pytorch version") || k == "torch" || k == "torch version" || k == "pytorch") return Key::torch;
  if (k == "nvidia driver version" || k == "driver version" || k == "gpu driver version" || k == "nvidia driver") return Key::driver;
  if (k == "gpu type" || k == "gpu model" || k == "gpu") return Key::gpu_type;
  // the server's, as ollama's issue template asks: not the Python client of the same name
  if (k == "ollama version") return Key::ollama;
  if (k == "gpu number" || k == "number of gpus") return Key::gpu_count;
  if (k == "os" || k == "operating system") return Key::os;
  if (!package_of(k).empty()) return Key::package;
  return Key::none;
}

bool bullet(std::string_view t) { return t.size() > 2 && (t[0] == '-' || t[0] == '*') && t[1] == ' '; }

// "- Key: value", and in a bullet "- pytorch= 1.7.1" too.
std::optional<std::pair<Key, KeyText>> known_line(std::string_view t) {
  auto kv = key_text(t);
  if (bullet(t)) {
    const auto eq = key_text(t, '=');
    if (eq && (!kv || eq->key.size() < kv->key.size())) kv = eq;
  }
  if (!kv) return std::nullopt;
  const Key k = key_of(key_name(kv->key));
  if (k == Key::none) return std::nullopt;
  return std::make_pair(k, *kv);
}

bool is_banner(std::string_view t) { return starts_with(t, "Copy-and-paste the text below in your GitHub issue"); }

Opens opens(const PasteText& p, std::size_t i) {
  const auto t = p.trimmed(i);
  if (is_banner(t)) return Opens::surely;
  const auto k = known_line(t);
  // Bullets or emphasis mark a list; a bare "OS: …" is collect_env's. A bare
  // "PyTorch: 2.5.1+cu121" is no one else's: a template's system info.
  return k && (bullet(t) || starts_with(t, "**") || k->first == Key::torch) ? Opens::maybe : Opens::no;
}

bool continues(const PasteText& p, std::size_t, std::size_t i) {
  const auto t = p.trimmed(i);
  // accelerate's config below its "- `Accelerate` default config:" is indented bullets.
  // Indented lines below a bullet are its value's (accelerate's "default config:").
  return bullet(t) || known_line(t).has_value() ||
         (!t.empty() && (p.lines[i].front() == '\t' || p.lines[i].front() == ' ') && !is_prose(t));
}

// "Linux-5.15.0-91-generic-x86_64-with-glibc2.35" -> kernel "5.15.0-91-generic", machine "x86_64".
void platform(std::string_view v, const std::string& source, BlockFacts& out) {
  if (!starts_with(v, "Linux-")) return;
  for (std::string_view machine : {"x86_64", "aarch64", "ppc64le", "s390x"}) {
    std::string dashed = "-";
    dashed.append(machine);
    const auto at = v.find(dashed);
    if (at == std::string_view::npos || at <= 6) continue;
    out.facts.system.kernel_release = std::string(v.substr(6, at - 6));
    out.facts.system.arch = std::string(machine);
    out.where["system.kernel_release"] = source;
    out.where["system.arch"] = source;
    return;
  }
}

void read(const PasteText& p, std::size_t first, std::size_t last, BlockFacts& out) {
  std::optional<std::string> gpu_name;
  int gpu_count = 1;
  std::size_t gpu_line = first;
  for (std::size_t k = first; k <= last; ++k) {
    const auto t = p.trimmed(k);
    const auto line = known_line(t);
    if (!line) continue;
    const auto& [key, kv] = *line;
    const auto v = kv.value;
    const std::string source = p.at(k);
    switch (key) {
      case Key::platform: platform(v, source, out); break;
      case Key::python:
        if (looks_like_version(first_word(v))) {
          report_python(out.facts).version = std::string(first_word(v));
          out.where["python.version"] = source;
        }
        break;
      case Key::torch: {
        // "2.1.0+cu121 (True)", "2.4.0+cu121 (GPU)": the parenthesis is torch.cuda.is_available().
        const auto version = first_word(v);
        if (!looks_like_version(version)) break;
        auto& env = report_python(out.facts);
        auto& fw = report_framework(env, "torch");
        const auto parsed = torch_from_version(version, source);
        fw.version = parsed.version;
        fw.local_tag = parsed.local_tag;
        fw.cuda = parsed.cuda;
        fw.hip = parsed.hip;
        fw.cpu_only = parsed.cpu_only;
        fw.source = source;
        if (v.find("(True)") != std::string_view::npos || v.find("(GPU)") != std::string_view::npos)
          report_deep(env, "torch").cuda_available = true;
        if (v.find("(False)") != std::string_view::npos) report_deep(env, "torch").cuda_available = false;
        break;
      }
      case Key::driver:
        if (looks_like_version(first_word(v))) {
          if (!out.facts.nvidia_smi) out.facts.nvidia_smi = NvidiaSmiFacts{};
          out.facts.nvidia_smi->driver_version = std::string(first_word(v));
          out.facts.nvidia_smi->source = source;
          out.where["nvidia_smi.driver_version"] = source;
        }
        break;
      case Key::gpu_type:
        if (!is_no_value(v)) gpu_name = std::string(v), gpu_line = k;
        break;
      case Key::gpu_count:
        if (auto n = parse_int(v); n && *n > 0 && *n <= 1024) gpu_count = static_cast<int>(*n);
        break;
      case Key::os:
        if (!is_no_value(v)) {
          out.facts.system.os.pretty_name = std::string(v);
          out.facts.system.os.source = source;
        }
        break;
      case Key::ollama:
        if (looks_like_version(first_word(v))) {
          auto& fw = report_framework(report_python(out.facts), "ollama");
          fw.version = std::string(first_word(v));
          fw.source = source;
        }
        break;
      case Key::package: {
        const auto name = normalize_dist_name(package_of(key_name(kv.key)));
        const auto version = first_word(v);
        if (!looks_like_version(version) || name == "python" || name == "cuda" || name == "cudnn" || name == "nccl") break;
        add_distribution(out.facts, name, version, source, "pip");
        if (is_framework(name)) {
          FrameworkBuild f = framework_from_name(name, version);
          f.source = source;
          add_local_tag_facts(f);
          report_python(out.facts).frameworks.push_back(std::move(f));
        }
        break;
      }
      case Key::none:
      case Key::banner: break;
    }
  }
  if (gpu_name) {
    // "GPU type" is torch.cuda.get_device_name(): an AMD name on a ROCm build.
    const bool amd = starts_with(*gpu_name, "AMD ") || starts_with(*gpu_name, "Radeon");
    for (int g = 0; g < gpu_count; ++g) {
      if (amd) {
        KfdNode n;
        n.node = g;
        n.name = gpu_name;
        n.source = p.at(gpu_line);
        out.facts.software.rocm.gpu_nodes.push_back(std::move(n));
        continue;
      }
      if (!out.facts.nvidia_smi) out.facts.nvidia_smi = NvidiaSmiFacts{};
      SmiGpu s;
      s.pci_bus_id = report_gpu_key(g);
      s.product_name = gpu_name;
      out.facts.nvidia_smi->gpus.push_back(std::move(s));
      out.facts.nvidia_smi->source = p.at(gpu_line);
    }
  }
}

}  // namespace

BlockReader key_values_reader() { return {"key: value list", opens, continues, read}; }

}  // namespace gpucheck
