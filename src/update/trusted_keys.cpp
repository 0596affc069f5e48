#include "update/trusted_keys.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "host/own_env.hpp"
#include "util/embedded_file.hpp"

namespace gpucheck {

namespace embedded {
extern const File kProjectKeys[];  // packaging/keys/*.pem (src/CMakeLists.txt)
}

std::vector<PublicKey> built_in_keys() {
  std::vector<PublicKey> keys;
  for (const auto* f = embedded::kProjectKeys; f->name != nullptr; ++f) {
    // Each was read when gpucheck was built (a test reads them all), so a
    // bad one here would be a broken build, not a user's problem.
    if (auto k = read_public_key_pem(f->text, std::string("built-in ") + f->name)) keys.push_back(*k);
  }
  return keys;
}

Result<std::vector<PublicKey>> trusted_keys(const std::vector<std::string>& extra_files) {
  namespace fs = std::filesystem;
  auto keys = built_in_keys();
  const auto env = own_env("GPUCHECK_KEYS_DIR");
  const std::string dir = env && !env->empty() ? *env : kSystemKeysDir;
  std::error_code ec;
  std::vector<std::string> files;
  for (fs::directory_iterator it(dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec))
    if (it->path().extension() == ".pem") files.push_back(it->path().string());
  if (ec && ec != std::errc::no_such_file_or_directory)
    return Problem{Reason::permission_denied, dir, "cannot list the trusted keys directory: " + ec.message()};
  std::sort(files.begin(), files.end());
  files.insert(files.end(), extra_files.begin(), extra_files.end());
  for (const auto& f : files) {
    auto k = read_public_key_file(f);
    if (!k) return k.problem();
    keys.push_back(*k);
  }
  return keys;
}

std::optional<PublicKey> signer_of(std::string_view message, const Ed25519Signature& sig,
                                   const std::vector<PublicKey>& keys) {
  for (const auto& k : keys)
    if (signature_matches(message, sig, k)) return k;
  return std::nullopt;
}

}  // namespace gpucheck
