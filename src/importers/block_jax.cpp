// jax.print_environment_info(): "jax:    0.4.30", "jaxlib: 0.4.30",
// "numpy:", "python:", "jax.devices (8 total, 8 local): [CudaDevice(id=0) …]",
// "process_count:", "platform: uname_result(…)"; it goes on with the output
// of nvidia-smi, which is a block of its own.
#include "importers/block_readers.hpp"
#include "importers/block_util.hpp"
#include "parse/framework_build.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

bool jax_key(std::string_view t) {
  for (std::string_view k : {"jax:", "jaxlib:", "numpy:", "python:", "jax.devices", "process_count:", "platform:"})
    if (starts_with(t, k)) return true;
  return false;
}

Opens opens(const PasteText& p, std::size_t i) {
  return starts_with(p.trimmed(i), "jax:") && starts_with(p.trimmed(i + 1), "jaxlib:") ? Opens::surely : Opens::no;
}

bool continues(const PasteText& p, std::size_t, std::size_t i) { return jax_key(p.trimmed(i)); }

// "uname_result(system='Linux', node='n', release='5.15.0-1049-gcp', version='…', machine='x86_64')"
std::optional<std::string> uname_field(std::string_view t, std::string_view field) {
  const std::string key = std::string(field) + "='";
  const auto at = t.find(key);
  if (at == std::string_view::npos) return std::nullopt;
  const auto rest = t.substr(at + key.size());
  return std::string(rest.substr(0, rest.find('\'')));
}

void read(const PasteText& p, std::size_t first, std::size_t last, BlockFacts& out) {
  auto& env = report_python(out.facts);
  for (std::size_t k = first; k <= last; ++k) {
    const auto t = p.trimmed(k);
    const auto kv = key_text(t);
    if (!kv) continue;
    const auto v = first_word(kv->value);
    if ((kv->key == "jax" || kv->key == "jaxlib" || kv->key == "numpy") && looks_like_version(v)) {
      add_distribution(out.facts, kv->key, v, p.at(k), "pip");
      if (kv->key != "numpy") {
        FrameworkBuild f = framework_from_name(kv->key, v);
        f.source = p.at(k);
        add_local_tag_facts(f);
        env.frameworks.push_back(std::move(f));
      }
    } else if (kv->key == "python" && looks_like_version(v)) {
      env.version = std::string(v);
      out.where["python.version"] = p.at(k);
    } else if (starts_with(kv->key, "jax.devices (")) {
      // "jax.devices (8 total, 8 local): [CudaDevice(id=0) …]": the devices jax sees.
      if (auto n = parse_int_in(first_word(kv->key.substr(13)), 0, 1 << 20)) report_deep(env, "jax").device_count = n;
      report_deep(env, "jax").cuda_available = kv->value.find("CudaDevice") != std::string_view::npos ||
                                               kv->value.find("cuda(id=") != std::string_view::npos;
    } else if (kv->key == "platform") {
      if (auto r = uname_field(kv->value, "release")) out.facts.system.kernel_release = r, out.where["system.kernel_release"] = p.at(k);
      if (auto m = uname_field(kv->value, "machine")) out.facts.system.arch = m, out.where["system.arch"] = p.at(k);
      if (auto h = uname_field(kv->value, "node")) out.facts.system.hostname = h;
    }
  }
}

}  // namespace

BlockReader jax_reader() { return {"jax.print_environment_info()", opens, continues, read}; }

}  // namespace gpucheck
