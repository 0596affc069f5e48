// What a user's Python printed about torch: the REPL (">>> torch.__version__"
// and its answer on the next line), labelled prints ("torch.__version__:
// 2.1.0", "CUDA available: True"), the answer of `python -c "…print(a, b)"`
// under its command, and torch.cuda.get_arch_list()'s list on its own
// ("['sm_50', 'sm_60', …]"). torch's answers are what the deep probe asks,
// so they land where its answers do (python[].deep).
#include <array>

#include "importers/block_readers.hpp"
#include "importers/block_util.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

enum class Expr { none, version, cuda, hip, available, count, arch_list, cudnn, bf16, device_name, capability };

// "torch.__version__", "print(torch.cuda.is_available())", "torch version".
Expr expr_named(std::string_view e) {
  e = trim(e);
  if (starts_with(e, "print(") && e.back() == ')') e = trim(e.substr(6, e.size() - 7));
  const std::string k = key_name(e);
  static constexpr std::array<std::pair<std::string_view, Expr>, 24> kNames{{
      {"cuda version", Expr::cuda}, {"capability", Expr::capability}, {"device name", Expr::device_name},
      {"torch.cuda.is_available", Expr::available},
      {"torch.__version__", Expr::version}, {"torch version", Expr::version}, {"pytorch version", Expr::version},
      {"torch.version.cuda", Expr::cuda}, {"torch cuda version", Expr::cuda}, {"torch.version.hip", Expr::hip},
      {"torch.cuda.is_available()", Expr::available}, {"cuda available", Expr::available}, {"cuda is available", Expr::available},
      {"torch.cuda.device_count()", Expr::count}, {"device count", Expr::count}, {"torch.cuda.get_arch_list()", Expr::arch_list},
      {"arch list", Expr::arch_list}, {"torch.backends.cudnn.version()", Expr::cudnn}, {"cudnn version", Expr::cudnn},
      {"torch.cuda.is_bf16_supported()", Expr::bf16}, {"bf16 supported", Expr::bf16}, {"torch.cuda.get_device_name()", Expr::device_name},
      {"torch.cuda.get_device_name(0)", Expr::device_name}, {"torch.cuda.get_device_capability()", Expr::capability},
  }};
  for (auto& [n, x] : kNames)
    if (k == n) return x;
  if (starts_with(k, "torch.cuda.get_device_capability(")) return Expr::capability;
  if (starts_with(k, "torch.cuda.get_device_name(")) return Expr::device_name;
  return Expr::none;
}

std::string_view unquoted(std::string_view v) {
  v = trim(v);
  if (v.size() >= 2 && (v.front() == '\'' || v.front() == '"') && v.back() == v.front()) v = v.substr(1, v.size() - 2);
  return v;
}

// "['sm_50', 'sm_60', 'compute_90']" -> {"sm_50", "sm_60", "compute_90"}; empty when it is not one.
std::vector<std::string> arch_list(std::string_view v) {
  v = trim(v);
  std::vector<std::string> out;
  if (v.size() < 2 || v.front() != '[' || v.back() != ']') return out;
  for (auto item : split(v.substr(1, v.size() - 2), ',')) {
    const auto a = unquoted(item);
    if (!(starts_with(a, "sm_") || starts_with(a, "compute_") || starts_with(a, "gfx"))) return {};
    out.emplace_back(a);
  }
  return out;
}

// "python -c "import torch; print(torch.__version__, torch.version.cuda)"": the expressions printed.
std::vector<Expr> printed(std::string_view command) {
  std::vector<Expr> out;
  const auto at = command.find("print(");
  if (command.find("python") == std::string_view::npos || at == std::string_view::npos) return out;
  auto args = command.substr(at + 6);
  args = args.substr(0, args.rfind(')'));
  // Split at commas outside parentheses.
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= args.size(); ++i) {
    if (i < args.size() && (args[i] == '(' || args[i] == '[')) ++depth;
    if (i < args.size() && (args[i] == ')' || args[i] == ']')) --depth;
    if (i == args.size() || (args[i] == ',' && depth == 0)) {
      out.push_back(expr_named(args.substr(start, i - start)));
      start = i + 1;
    }
  }
  return out;
}

std::optional<std::string> cudnn_text(std::string_view v) {
  const auto n = parse_int(v);
  if (!n || *n <= 0) return looks_like_version(v) ? std::optional<std::string>(std::string(v)) : std::nullopt;
  // torch.backends.cudnn.version(): 8902 is 8.9.2; 90100 is 9.1.0 (cuDNN 9 widened the minor).
  const long long major = *n >= 10000 ? *n / 10000 : *n / 1000, minor = (*n >= 10000 ? *n % 10000 : *n % 1000) / 100;
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(*n % 100);
}

bool amd_build(PythonEnv& env) {
  for (auto& fw : env.frameworks)
    if (fw.name == "torch" && fw.hip) return true;
  return false;
}

bool set(Expr x, std::string_view raw, const std::string& source, BlockFacts& out) {
  const auto v = unquoted(raw);
  if (v.empty()) return false;
  auto& env = report_python(out.facts);
  auto& deep = report_deep(env, "torch");
  auto cuda_device = [&]() -> CudaDevice& {
    if (!out.facts.cuda) out.facts.cuda = CudaDriverApiFacts{};
    if (out.facts.cuda->devices.empty()) out.facts.cuda->devices.push_back(CudaDevice{0, {}, {}, {}, std::string("report:GPU0"), {}, {}});
    return out.facts.cuda->devices.front();
  };
  switch (x) {
    case Expr::version: {
      if (!looks_like_version(v)) return false;
      auto& fw = report_framework(env, "torch");
      const auto parsed = torch_from_version(v, source);
      fw.version = parsed.version;
      fw.local_tag = parsed.local_tag;
      if (!fw.cuda) fw.cuda = parsed.cuda;
      if (!fw.hip) fw.hip = parsed.hip;
      fw.cpu_only = parsed.cpu_only;
      fw.source = source;
      deep.version = std::string(v);
      return true;
    }
    case Expr::cuda:
    case Expr::hip: {
      auto& fw = report_framework(env, "torch");
      if (fw.source.empty()) fw.source = source;
      if (v == "None") return true;  // a build without it
      if (!looks_like_version(v)) return false;
      (x == Expr::cuda ? fw.cuda : fw.hip) = std::string(v);
      return true;
    }
    case Expr::available:
    case Expr::bf16:
      if (v != "True" && v != "False") return false;
      (x == Expr::available ? deep.cuda_available : deep.bf16_supported) = v == "True";
      return true;
    case Expr::count:
      if (auto n = parse_int_in(v, 0, 1 << 20)) deep.device_count = n;
      return deep.device_count.has_value();
    case Expr::arch_list: {
      auto l = arch_list(v);
      if (l.empty()) return false;
      deep.arch_list = std::move(l);
      return true;
    }
    case Expr::cudnn:
      deep.cudnn_version = cudnn_text(v);
      return deep.cudnn_version.has_value();
    case Expr::device_name:
      // A ROCm build's torch.cuda names an AMD GPU: never a CUDA device.
      if (amd_build(env)) {
        if (out.facts.software.rocm.gpu_nodes.empty()) out.facts.software.rocm.gpu_nodes.push_back(KfdNode{});
        out.facts.software.rocm.gpu_nodes.front().name = std::string(v);
        out.facts.software.rocm.gpu_nodes.front().source = source;
        return true;
      }
      cuda_device().name = std::string(v);
      return true;
    case Expr::capability: {
      if (amd_build(env)) return true;  // HIP's (10, 3) is a gfx family, not a compute capability
      // "(8, 0)" -> "8.0"
      const auto t = trim(v);
      const auto comma = t.find(',');
      if (t.size() < 5 || t.front() != '(' || comma == std::string_view::npos) return false;
      const auto major = parse_int(trim(t.substr(1, comma - 1)));
      const auto minor = parse_int(trim(t.substr(comma + 1, t.size() - comma - 2)));
      if (!major || !minor) return false;
      cuda_device().compute_capability = std::to_string(*major) + "." + std::to_string(*minor);
      return true;
    }
    case Expr::none: break;
  }
  return false;
}

std::string_view repl_input(std::string_view t) {
  if (starts_with(t, ">>> ")) return trim(t.substr(4));
  if (starts_with(t, "In [")) {
    const auto close = t.find("]:");
    if (close != std::string_view::npos) return trim(t.substr(close + 2));
  }
  return {};
}

bool labelled(std::string_view t) {
  for (char sep : {':', '='})
    if (auto kv = key_text(t, sep); kv && expr_named(kv->key) != Expr::none) return true;
  return false;
}

// The output line under a `python -c "…print(…)"` command: one word per expression.
bool answers_command(const PasteText& p, std::size_t i) {
  if (i == 0) return false;
  const auto exprs = printed(p.trimmed(i - 1));
  if (exprs.empty()) return false;
  std::size_t known = 0;
  for (auto e : exprs) known += e != Expr::none;
  return known > 0 && split(p.trimmed(i), ' ').size() >= exprs.size();
}

Opens opens(const PasteText& p, std::size_t i) {
  const auto t = p.trimmed(i);
  if (expr_named(repl_input(t)) != Expr::none || labelled(t) || !arch_list(t).empty() || answers_command(p, i)) return Opens::maybe;
  return Opens::no;
}

bool continues(const PasteText& p, std::size_t, std::size_t i) {
  const auto t = p.trimmed(i);
  // Any "name = value" print between the ones read ("cudart = <module …>").
  if (!repl_input(t).empty() || labelled(t) || !arch_list(t).empty() || key_text(t, '=')) return true;
  // A REPL answer: the line under an input.
  return i > 0 && !repl_input(p.trimmed(i - 1)).empty() && !t.empty();
}

void read(const PasteText& p, std::size_t first, std::size_t last, BlockFacts& out) {
  for (std::size_t k = first; k <= last; ++k) {
    const auto t = p.trimmed(k);
    if (const auto input = repl_input(t); !input.empty()) {
      const Expr x = expr_named(input);
      if (x != Expr::none && k + 1 <= last && set(x, p.trimmed(k + 1), p.at(k + 1), out)) ++k;
      continue;
    }
    if (!arch_list(t).empty()) {
      set(Expr::arch_list, t, p.at(k), out);
      continue;
    }
    bool done = false;
    for (char sep : {':', '='})
      if (auto kv = key_text(t, sep); !done && kv && expr_named(kv->key) != Expr::none)
        done = set(expr_named(kv->key), kv->value, p.at(k), out);
    if (done) continue;
    if (k > 0 && answers_command(p, k)) {
      const auto exprs = printed(p.trimmed(k - 1));
      auto words = split(t, ' ');
      std::vector<std::string> w;
      for (auto& x : words)
        if (!x.empty()) w.emplace_back(x);
      if (w.size() == exprs.size()) {
        for (std::size_t e = 0; e < exprs.size(); ++e) set(exprs[e], w[e], p.at(k), out);
        continue;
      }
    }
    out.unread.push_back(k);
  }
}

}  // namespace

BlockReader python_prints_reader() { return {"Python prints", opens, continues, read}; }

}  // namespace gpucheck
