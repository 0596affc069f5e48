#include "update/matrix_cache.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <thread>

#include <nlohmann/json.hpp>

#include "host/own_env.hpp"
#include "update/bundle.hpp"
#include "update/crypto_library.hpp"
#include "update/signing.hpp"
#include "util/files.hpp"

namespace gpucheck {
namespace {

namespace fs = std::filesystem;
constexpr const char* kRecordName = "current.json";
constexpr const char* kRecordSchema = "gpucheck.matrix-cache/1";
constexpr const char* kBundlePrefix = "matrix-";

std::string user_cache_dir() {
  if (auto xdg = own_env("XDG_CACHE_HOME"); xdg && !xdg->empty() && xdg->front() == '/') return *xdg + "/gpucheck";
  if (auto home = own_env("HOME"); home && !home->empty()) return *home + "/.cache/gpucheck";
  return "";
}

std::string field(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : "";
}

// A bundle name the record may give: one plain file of this directory.
bool plain_bundle_name(const std::string& name) {
  return name.rfind(kBundlePrefix, 0) == 0 && name.size() < 200 && name.find('/') == std::string::npos &&
         name != "." && name != "..";
}

}  // namespace

std::vector<std::string> matrix_cache_dirs() {
  if (auto dir = own_env("GPUCHECK_CACHE_DIR"); dir && !dir->empty()) return {*dir};
  std::vector<std::string> dirs{kSystemCacheDir};
  if (auto user = user_cache_dir(); !user.empty() && user != kSystemCacheDir) dirs.push_back(user);
  return dirs;
}

std::string default_cache_dir() {
  if (auto dir = own_env("GPUCHECK_CACHE_DIR"); dir && !dir->empty()) return *dir;
  if (::geteuid() == 0) return kSystemCacheDir;
  return user_cache_dir();
}

std::string bundle_path(const std::string& dir, const CacheRecord& record) { return dir + "/" + record.bundle; }

Result<CacheRecord> read_cache_record(const std::string& dir) {
  const std::string path = dir + "/" + kRecordName;
  auto text = read_whole_file(path, 64u << 10, "cache record");
  if (!text) return text.problem();
  return parse_cache_record(*text, path);
}

Result<CacheRecord> parse_cache_record(std::string_view text, const std::string& path) {
  auto j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return Problem{Reason::malformed, path, "not a JSON object: a damaged cache record"};
  if (field(j, "schema") != kRecordSchema)
    return Problem{Reason::malformed, path, std::string("expected schema \"") + kRecordSchema + "\""};
  CacheRecord r{field(j, "version"), field(j, "date"),   field(j, "bundle"),   field(j, "sha256"),
                field(j, "signature"), field(j, "key"),  field(j, "key_id"),   field(j, "key_name"),
                field(j, "url"),     field(j, "etag"),   field(j, "fetched")};
  if (r.version.empty() || r.sha256.size() != 64 || r.signature.empty() || r.key.empty() || !plain_bundle_name(r.bundle))
    return Problem{Reason::malformed, path, "incomplete cache record (version, bundle, sha256, signature and key are required)"};
  return r;
}

Result<std::string> read_cached_bundle(const std::string& dir, const CacheRecord& record) {
  if (auto lib = crypto_library(); !lib) return lib.problem();  // else a missing library would read as damage
  const std::string path = bundle_path(dir, record);
  auto bytes = read_whole_file(path, kMaxBundleBytes, "cached matrix bundle");
  if (!bytes) return bytes.problem();
  if (sha256_hex(*bytes) != record.sha256)
    return Problem{Reason::malformed, path, "its bytes no longer match the hash recorded when it was installed (damaged)"};
  auto sig = parse_signature_text(record.signature, path);
  if (!sig) return sig.problem();
  auto key = public_key_from_base64(record.key, record.key_name);
  if (!key) return key.problem();
  if (!signature_matches(*bytes, *sig, *key))
    return Problem{Reason::malformed, path, "its signature no longer verifies with key " + key->id + " (damaged)"};
  return bytes;
}

std::optional<Problem> install_in_cache(const std::string& dir, const CacheRecord& record, std::string_view bundle) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return Problem{Reason::failed, dir, "cannot create the cache directory: " + ec.message()};
  if (auto p = write_file_atomically(bundle_path(dir, record), bundle)) return p;
  const nlohmann::ordered_json j = {{"schema", kRecordSchema}, {"version", record.version}, {"date", record.date},
                            {"bundle", record.bundle},  {"sha256", record.sha256},   {"signature", record.signature},
                            {"key", record.key},        {"key_id", record.key_id},   {"key_name", record.key_name},
                            {"url", record.url},        {"etag", record.etag},       {"fetched", record.fetched}};
  if (auto p = write_file_atomically(dir + "/" + kRecordName, j.dump(1) + "\n")) return p;
  // The old bundles, now unnamed: best effort (a reader that opened one
  // before the record moved still reads it whole, unlinked or not).
  for (fs::directory_iterator it(dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name != record.bundle && plain_bundle_name(name) && it->path().extension() == ".json") fs::remove(it->path(), ec);
  }
  return std::nullopt;
}

Result<CacheLock> CacheLock::acquire(const std::string& dir, std::chrono::milliseconds wait) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return Problem{Reason::failed, dir, "cannot create the cache directory: " + ec.message()};
  const std::string path = dir + "/.lock";
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return Problem{errno == EACCES ? Reason::permission_denied : Reason::failed, path, std::strerror(errno)};
  const auto until = std::chrono::steady_clock::now() + wait;
  while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK && errno != EINTR) {
      const int err = errno;
      ::close(fd);
      return Problem{Reason::failed, path, std::strerror(err)};
    }
    if (std::chrono::steady_clock::now() >= until) {
      ::close(fd);
      return Problem{Reason::timed_out, path, "another gpucheck matrix update holds the cache lock"};
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return CacheLock(fd);
}

CacheLock::~CacheLock() {
  if (fd_ >= 0) ::close(fd_);  // closing releases the flock
}

}  // namespace gpucheck
