// Node Feature Discovery's rules for a feature label, as nfd-master applies
// them to what nfd-worker's local source reads (pkg/utils/validate,
// validate.Label, in kubernetes-sigs/node-feature-discovery; Kubernetes'
// IsQualifiedName and IsValidLabelValue). A label that breaks them is
// dropped by nfd-master, so gpucheck never writes one.
#pragma once

#include <string_view>

namespace gpucheck {

// The namespace gpucheck's labels live in: NFD's own, allowed by default.
inline constexpr std::string_view kNfdNamespace = "feature.node.kubernetes.io";

// `name` is prefix/name: a DNS subdomain prefix (at most 253 characters)
// that is not kubernetes.io or under it, but for feature.node.kubernetes.io,
// profile.node.kubernetes.io and their subdomains; a name of 1 to 63
// characters, alphanumeric at both ends, '-', '_' and '.' between.
bool nfd_label_name_ok(std::string_view name);
// At most 63 characters: empty, or alphanumeric at both ends with '-', '_'
// and '.' between.
bool nfd_label_value_ok(std::string_view value);

}  // namespace gpucheck
