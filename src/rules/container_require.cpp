#include "rules/container_require.hpp"

#include <vector>

#include "util/strings.hpp"

namespace gpucheck {

namespace {

struct Condition {
  std::string key, op, value, text;
};

constexpr std::string_view kOps[] = {">=", "<=", "!=", "=", "<", ">"};

std::optional<Condition> parse(std::string_view text) {
  for (std::size_t i = 0; i < text.size(); ++i)
    for (auto op : kOps)
      if (text.substr(i, op.size()) == op) {
        Condition c{to_lower(trim(text.substr(0, i))), std::string(op), std::string(trim(text.substr(i + op.size()))), std::string(text)};
        if (c.key.empty() || c.value.empty()) return std::nullopt;
        return c;
      }
  return std::nullopt;
}

bool holds(int order, const std::string& op) {
  if (op == "=") return order == 0;
  if (op == "!=") return order != 0;
  if (op == "<") return order < 0;
  if (op == "<=") return order <= 0;
  if (op == ">") return order > 0;
  return order >= 0;
}

// nullopt: holds (or the host does not know the value); else why not.
// `invalid` is set for what the toolkit refuses as an invalid expression.
std::optional<std::string> check(const Condition& c, const RequireValues& v, bool& invalid) {
  if (c.key == "brand") {
    if (c.op != "=" && c.op != "!=") return invalid = true, std::nullopt;
    if (!v.brand) return std::nullopt;
    const bool same = to_lower(*v.brand) == to_lower(c.value);
    if (holds(same ? 0 : 1, c.op)) return std::nullopt;
    return c.text + " (the GPU's brand is " + *v.brand + ")";
  }
  const std::optional<Version>* have = c.key == "cuda" ? &v.cuda : c.key == "driver" ? &v.driver : c.key == "arch" ? &v.arch : nullptr;
  const auto want = Version::parse(c.value);
  if (!have || !want || c.value.find_first_not_of("0123456789.") != std::string::npos) return invalid = true, std::nullopt;
  if (!*have) return std::nullopt;
  const auto order = **have <=> *want;
  if (holds(order < 0 ? -1 : order > 0 ? 1 : 0, c.op)) return std::nullopt;
  const char* what = c.key == "cuda" ? "the driver's CUDA" : c.key == "driver" ? "the driver" : "the GPU's compute capability";
  return c.text + " (" + what + " is " + (*have)->text() + ")";
}

}  // namespace

std::optional<std::string> unmet_requirement(std::string_view expression, const RequireValues& v) {
  std::optional<std::string> first_failure;
  bool any_term = false;
  for (auto term : split(expression, ' ')) {
    if (trim(term).empty()) continue;
    any_term = true;
    std::optional<std::string> failed;
    for (auto factor : split(term, ',')) {
      const auto c = parse(trim(factor));
      bool invalid = !c;
      if (c) failed = check(*c, v, invalid);
      if (invalid) return "invalid expression: " + std::string(trim(factor));
      if (failed) break;
    }
    if (!failed) return std::nullopt;
    if (!first_failure) first_failure = failed;
  }
  if (!any_term) return std::nullopt;
  return first_failure;
}

std::string container_brand(std::string_view product_brand) {
  const std::string b = to_lower(trim(product_brand));
  if (b == "tesla") return "Tesla";
  if (b == "quadro") return "Quadro";
  if (b == "nvs") return "NVS";
  if (b == "grid") return "GRID";
  if (b == "geforce") return "GeForce";
  if (b == "titan") return "TITAN";
  return "Unknown";
}

}  // namespace gpucheck
