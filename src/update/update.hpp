// `gpucheck matrix update`: fetch the newest matrix bundle and its
// signature, verify both, and install the bundle in a cache, all or
// nothing, under the cache's lock. The only command that touches the
// network. docs/matrix-updates.md.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "update/matrix_cache.hpp"

namespace gpucheck {

// The project's published matrix (GPUCHECK_MATRIX_URL when gpucheck was built).
std::string default_matrix_url();

struct UpdateRequest {
  std::string url;        // the bundle; URL + ".sig" is its signature
  std::string cache_dir;  // where to install it (matrix_cache.hpp)
  std::vector<std::string> trust_key_files;  // --trust-key, besides the built-in and /etc/gpucheck/keys ones
  std::string ca_file;                       // --cacert
  std::chrono::milliseconds timeout{30000};  // the whole update, lock wait included
};

enum class UpdateStatus {
  installed,  // a newer matrix is in the cache and in use from now on
  unchanged,  // what the URL serves is what the cache holds
  refused,    // a download arrived and was refused: unsigned, wrongly signed, invalid, older
  failed,     // nothing usable arrived, or it could not be written
};

struct UpdateOutcome {
  UpdateStatus status = UpdateStatus::failed;
  std::string detail;  // refused and failed: why, with the URL or path
  CacheRecord record;  // installed and unchanged: what the cache holds
  std::string before;  // the matrix that was in use: "2026.12.2 (embedded)"
};

UpdateOutcome update_matrix(const UpdateRequest& request);

}  // namespace gpucheck
