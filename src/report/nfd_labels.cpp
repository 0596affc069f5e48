// NFD's label rules (nfd_labels.hpp).
#include "report/nfd_labels.hpp"

namespace gpucheck {

namespace {

bool alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }
bool lower_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }
bool ends_with(std::string_view s, std::string_view tail) { return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail; }

// Kubernetes' qualified-name part and label value: ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9].
bool name_part_ok(std::string_view s, std::size_t max) {
  if (s.empty() || s.size() > max || !alnum(s.front()) || !alnum(s.back())) return false;
  for (char c : s)
    if (!alnum(c) && c != '-' && c != '_' && c != '.') return false;
  return true;
}

// RFC 1123 subdomain, as Kubernetes checks it: at most 253 characters, each
// dot-separated label lower-case alphanumeric at both ends, '-' between.
bool dns_subdomain_ok(std::string_view s) {
  if (s.empty() || s.size() > 253) return false;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = s.find('.', start);
    const std::string_view label = s.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    if (label.empty() || label.size() > 63 || !lower_alnum(label.front()) || !lower_alnum(label.back())) return false;
    for (char c : label)
      if (!lower_alnum(c) && c != '-') return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

bool namespace_allowed(std::string_view ns) {
  if (ns != "kubernetes.io" && !ends_with(ns, ".kubernetes.io")) return true;
  return ns == "feature.node.kubernetes.io" || ns == "profile.node.kubernetes.io" ||
         ends_with(ns, ".feature.node.kubernetes.io") || ends_with(ns, ".profile.node.kubernetes.io");
}

}  // namespace

bool nfd_label_name_ok(std::string_view name) {
  const std::size_t slash = name.find('/');
  if (slash == std::string_view::npos) return false;  // NFD refuses unprefixed names
  const std::string_view ns = name.substr(0, slash), base = name.substr(slash + 1);
  return dns_subdomain_ok(ns) && namespace_allowed(ns) && name_part_ok(base, 63);
}

bool nfd_label_value_ok(std::string_view value) { return value.empty() || name_part_ok(value, 63); }

}  // namespace gpucheck
