#include "rules/scope.hpp"

#include <iterator>

#include "util/word_table.hpp"

namespace gpucheck {

namespace {

constexpr Word<Scope> kScopes[] = {{Scope::host, "host"},
                                   {Scope::gpu, "gpu"},
                                   {Scope::env, "env"},
                                   {Scope::framework, "framework"},
                                   {Scope::framework_gpu, "framework_gpu"}};

}  // namespace

std::string_view to_string(Scope s) { return name_of(kScopes, s); }
std::optional<Scope> scope_named(std::string_view name) { return value_named(kScopes, name); }

std::string scope_names() {
  std::string out;
  const std::size_t n = std::size(kScopes);
  for (std::size_t i = 0; i < n; ++i) {
    out += i == 0 ? "" : i + 1 == n ? " or " : ", ";
    out += '"';
    out += kScopes[i].name;
    out += '"';
  }
  return out;
}

bool scope_includes(Scope subject, Scope fact) {
  if (fact == Scope::host || fact == subject) return true;
  if (subject == Scope::framework) return fact == Scope::env;
  if (subject == Scope::framework_gpu) return fact == Scope::env || fact == Scope::framework || fact == Scope::gpu;
  return false;
}

}  // namespace gpucheck
