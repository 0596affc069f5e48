#include "update/update.hpp"

#include <ctime>

#include "update/bundle.hpp"
#include "update/download.hpp"
#include "update/matrix_source.hpp"
#include "update/signing.hpp"
#include "update/trusted_keys.hpp"
#include "util/version.hpp"

namespace gpucheck {
namespace {

// A signature file is one line of base64.
constexpr std::size_t kMaxSignatureBytes = 4096;

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

UpdateOutcome ended(UpdateStatus s, std::string detail, std::string before = "") {
  UpdateOutcome o;
  o.status = s;
  o.detail = std::move(detail);
  o.before = std::move(before);
  return o;
}

std::string said(const Problem& p) { return p.where + ": " + p.detail; }

std::string key_ids(const std::vector<PublicKey>& keys) {
  std::string out;
  for (const auto& k : keys) out += (out.empty() ? "" : ", ") + k.id + " (" + k.name + ")";
  return out;
}

}  // namespace

std::string default_matrix_url() { return GPUCHECK_MATRIX_URL; }

UpdateOutcome update_matrix(const UpdateRequest& req) {
  using namespace std::chrono;
  const auto start = steady_clock::now();
  auto left = [&] { return std::max(milliseconds(1), req.timeout - duration_cast<milliseconds>(steady_clock::now() - start)); };

  auto keys = trusted_keys(req.trust_key_files);
  if (!keys) return ended(UpdateStatus::failed, said(keys.problem()));
  auto lock = CacheLock::acquire(req.cache_dir, req.timeout);
  if (!lock) return ended(UpdateStatus::failed, said(lock.problem()));

  // What is in use now, read under the lock: the floor a download must reach.
  auto in_use = load_base_knowledge();
  if (!in_use) return ended(UpdateStatus::failed, "the matrix in use does not load: " + said(in_use.problem()));
  const Matrix& now = in_use->matrix;
  const std::string before = now.version + " (" + now.origin + ")";
  const auto floor = Version::parse(now.version);
  auto current = read_cache_record(req.cache_dir);
  const bool current_ok = current && read_cached_bundle(req.cache_dir, *current);

  DownloadRequest get{req.url, std::nullopt, req.ca_file, left(), kMaxBundleBytes};
  if (current_ok && current->url == req.url && !current->etag.empty()) get.etag = current->etag;
  auto body = download(get);
  if (!body) return ended(UpdateStatus::failed, said(body.problem()), before);
  if (body->not_modified) {
    UpdateOutcome o = ended(UpdateStatus::unchanged, "not modified since " + current->fetched, before);
    o.record = *current;
    return o;
  }

  const std::string sig_url = req.url + ".sig";
  auto sig_text = download(DownloadRequest{sig_url, std::nullopt, req.ca_file, left(), kMaxSignatureBytes});
  if (!sig_text) {
    if (sig_text.problem().reason == Reason::absent)
      return ended(UpdateStatus::refused, "unsigned: " + sig_url + " does not exist; gpucheck installs only signed matrices", before);
    return ended(UpdateStatus::failed, said(sig_text.problem()), before);
  }
  auto sig = parse_signature_text(sig_text->body, sig_url);
  if (!sig) return ended(UpdateStatus::refused, said(sig.problem()), before);
  const auto signer = signer_of(body->body, *sig, *keys);
  if (!signer)
    return ended(UpdateStatus::refused,
                 req.url + ": the signature does not verify with any trusted key (" + key_ids(*keys) +
                     "): tampered with, or signed by a key not trusted here (--trust-key, " + kSystemKeysDir + ")",
                 before);
  auto fresh = read_bundle(body->body, req.url);
  if (!fresh) return ended(UpdateStatus::refused, "signed, but not a valid matrix: " + said(fresh.problem()), before);
  const Matrix& m = fresh->matrix;
  const auto version = Version::parse(m.version);
  if (!version || (floor && *version < *floor))
    return ended(UpdateStatus::refused,
                 req.url + " serves matrix " + m.version + ", older than the one in use, " + before +
                     ": refused (a rollback would bring back what newer matrices warn about)",
                 before);

  CacheRecord record{m.version, m.date, "", sha256_hex(body->body), signature_file_text(*sig), public_key_base64(*signer),
                     signer->id, signer->name, req.url, body->etag, utc_now()};
  record.bundle = "matrix-" + m.version + "-" + record.sha256.substr(0, 12) + ".json";
  if (current_ok && current->version == m.version && current->sha256 != record.sha256)
    return ended(UpdateStatus::refused,
                 req.url + " serves matrix " + m.version + " with other contents than the " + m.version +
                     " already installed: a matrix's version changes with its contents; refused",
                 before);
  const bool same = current_ok && current->sha256 == record.sha256;
  if (auto p = install_in_cache(req.cache_dir, record, body->body)) return ended(UpdateStatus::failed, said(*p), before);
  UpdateOutcome o = ended(same ? UpdateStatus::unchanged : UpdateStatus::installed, "", before);
  o.record = record;
  return o;
}

}  // namespace gpucheck
