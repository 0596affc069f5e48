// The keys a matrix bundle may be signed with: the project's, built into
// the binary (packaging/keys/*.pem), every *.pem in the node's keys
// directory (GPUCHECK_KEYS_DIR, else /etc/gpucheck/keys), and the files a
// command names (--trust-key). docs/matrix-updates.md.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "update/signing.hpp"
#include "util/result.hpp"

namespace gpucheck {

inline constexpr const char* kSystemKeysDir = "/etc/gpucheck/keys";

// All of them; a key file that does not read is an error (a team's key
// silently missing would refuse its mirror for a reason nobody sees).
Result<std::vector<PublicKey>> trusted_keys(const std::vector<std::string>& extra_files);

// The project's built-in keys alone.
std::vector<PublicKey> built_in_keys();

// The trusted key `sig` over `message` verifies with, if any.
std::optional<PublicKey> signer_of(std::string_view message, const Ed25519Signature& sig,
                                   const std::vector<PublicKey>& keys);

}  // namespace gpucheck
