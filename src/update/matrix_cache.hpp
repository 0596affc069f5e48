// Where downloaded matrices are kept: a directory holding the verified
// bundle and a record of it (current.json: version, hash, signature, key,
// URL, ETag), the record written last so it is the commit point: a crash
// at any moment leaves the previous matrix or the new one, never a mix.
//
// The system cache (/var/cache/gpucheck, written by root: nodes) and the
// per-user cache ($XDG_CACHE_HOME/gpucheck, else ~/.cache/gpucheck);
// GPUCHECK_CACHE_DIR names one directory instead of both.
// docs/matrix-updates.md.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/result.hpp"

namespace gpucheck {

inline constexpr const char* kSystemCacheDir = "/var/cache/gpucheck";

struct CacheRecord {
  std::string version, date;
  std::string bundle;     // the bundle's file name in the cache directory
  std::string sha256;     // of the bundle's bytes
  std::string signature;  // the .sig text it was verified with
  std::string key;        // the raw public key that verified it, base64
  std::string key_id, key_name;
  std::string url, etag;
  std::string fetched;    // UTC, "2026-12-02T03:10:44Z"
};

// The directories a run reads, in order (system before user).
std::vector<std::string> matrix_cache_dirs();
// Where `matrix update` writes without --cache: GPUCHECK_CACHE_DIR, else
// the system cache for root, else the user's.
std::string default_cache_dir();

// Reason::absent when the directory holds no record.
Result<CacheRecord> read_cache_record(const std::string& dir);
Result<CacheRecord> parse_cache_record(std::string_view text, const std::string& path);
// The bundle's bytes, checked against the record's hash and signature.
Result<std::string> read_cached_bundle(const std::string& dir, const CacheRecord& record);
std::string bundle_path(const std::string& dir, const CacheRecord& record);
// Writes the bundle, then the record (both write-then-rename), then removes
// the bundles the record no longer names. Call it holding a CacheLock.
std::optional<Problem> install_in_cache(const std::string& dir, const CacheRecord& record, std::string_view bundle);

// An exclusive lock on the cache directory (flock on DIR/.lock), so two
// updates on one node run one after the other; released when destroyed.
class CacheLock {
 public:
  static Result<CacheLock> acquire(const std::string& dir, std::chrono::milliseconds wait);
  CacheLock(CacheLock&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
  CacheLock& operator=(CacheLock&&) = delete;
  CacheLock(const CacheLock&) = delete;
  ~CacheLock();

 private:
  explicit CacheLock(int fd) : fd_(fd) {}
  int fd_;
};

}  // namespace gpucheck
