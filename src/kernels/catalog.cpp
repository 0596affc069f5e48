// The kernel catalog: the embedded PTX files, each read once into a KernelSpec.
#include "kernels/catalog.hpp"

#include <charconv>
#include <map>

#include "util/embedded_file.hpp"
#include "util/strings.hpp"
#include "util/word_table.hpp"

namespace gpucheck::embedded {
extern const File kPtxFiles[];  // src/kernels/ptx/*.ptx (src/CMakeLists.txt)
}

namespace gpucheck::kernels {

namespace {

constexpr Word<KernelKind> kKinds[] = {{KernelKind::fma, "fma"},
                                       {KernelKind::mma, "mma"},
                                       {KernelKind::wgmma, "wgmma"},
                                       {KernelKind::tcgen05, "tcgen05"},
                                       {KernelKind::copy, "copy"}};

template <typename T>
bool read_number(const std::map<std::string, std::string, std::less<>>& fields, std::string_view key, T& out) {
  const auto it = fields.find(key);
  if (it == fields.end()) return false;
  const auto& v = it->second;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  return ec == std::errc() && end == v.data() + v.size();
}

// The rest of the line after `prefix` at the start of a line, or nullopt.
std::optional<std::string> line_after(std::string_view text, std::string_view prefix) {
  for (std::size_t at = 0; at < text.size();) {
    const auto nl = std::min(text.find('\n', at), text.size());
    const auto line = text.substr(at, nl - at);
    if (starts_with(line, prefix)) return std::string(line.substr(prefix.size()));
    at = nl + 1;
  }
  return std::nullopt;
}

}  // namespace

std::optional<KernelSpec> read_kernel_spec(const char* text) {
  const std::string_view t = text;
  const auto spec = line_after(t, "// gpucheck-kernel: ");
  const auto instruction = line_after(t, "// gpucheck-instruction: ");
  const auto isa = line_after(t, ".version ");
  const auto target = line_after(t, ".target ");
  auto entry = line_after(t, ".visible .entry ");
  if (!spec || !instruction || !isa || !target || !entry) return std::nullopt;
  entry = entry->substr(0, entry->find('('));

  std::map<std::string, std::string, std::less<>> fields;
  for (const auto word : split(*spec, ' ')) {
    const auto eq = word.find('=');
    if (eq == std::string_view::npos) return std::nullopt;
    fields[std::string(word.substr(0, eq))] = std::string(word.substr(eq + 1));
  }
  KernelSpec k{};
  const auto kind = fields.count("kind") ? value_named(kKinds, fields["kind"]) : std::nullopt;
  if (!kind || !fields.count("precision") || !fields.count("shape")) return std::nullopt;
  k.kind = *kind;
  k.precision = fields["precision"];
  k.shape = fields["shape"];
  if (!read_number(fields, "na", k.na) || !read_number(fields, "nb", k.nb) || !read_number(fields, "nd", k.nd) ||
      !read_number(fields, "elem_bytes", k.elem_bytes) || !read_number(fields, "chains", k.chains) ||
      !read_number(fields, "unroll", k.unroll) || !read_number(fields, "flops_per_op", k.flops_per_op))
    return std::nullopt;
  k.entry = *entry;
  k.instruction = *instruction;
  k.isa = *isa;
  k.target = *target;
  k.ptx = text;
  return k;
}

const std::vector<KernelSpec>& all_kernels() {
  // Every embedded file reads (a unit test holds each to it), so none is dropped in practice.
  static const std::vector<KernelSpec> kernels = [] {
    std::vector<KernelSpec> out;
    for (const auto* f = embedded::kPtxFiles; f->name != nullptr; ++f)
      if (auto k = read_kernel_spec(f->text)) out.push_back(std::move(*k));
    return out;
  }();
  return kernels;
}

int target_number(const KernelSpec& k) {
  int n = 0;
  std::from_chars(k.target.data() + 3, k.target.data() + k.target.size(), n);
  return n;
}

TargetKind target_kind(const KernelSpec& k) {
  switch (k.target.back()) {
    case 'a': return TargetKind::arch_specific;
    case 'f': return TargetKind::family;
    default: return TargetKind::plain;
  }
}

int warps_per_tile(const KernelSpec& k) {
  return k.kind == KernelKind::wgmma || k.kind == KernelKind::tcgen05 ? 4 : 1;
}

std::optional<int> cc_number(std::string_view cc) {
  const auto dot = cc.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 >= cc.size()) return std::nullopt;
  int major = 0, minor = 0;
  const auto a = std::from_chars(cc.data(), cc.data() + dot, major);
  const auto b = std::from_chars(cc.data() + dot + 1, cc.data() + cc.size(), minor);
  if (a.ec != std::errc() || a.ptr != cc.data() + dot || b.ec != std::errc() || b.ptr != cc.data() + cc.size() ||
      cc[0] == '-' || cc[dot + 1] == '-')
    return std::nullopt;
  return major * 10 + minor;
}

}  // namespace gpucheck::kernels
