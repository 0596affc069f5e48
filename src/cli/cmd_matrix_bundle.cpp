// `gpucheck matrix update|export|sign|verify`: the matrix as a signed
// bundle, fetched, written, signed and checked (docs/matrix-updates.md).
#include <iostream>

#include "cli/app.hpp"
#include "cli/cli_errors.hpp"
#include "update/bundle.hpp"
#include "update/matrix_source.hpp"
#include "update/signing.hpp"
#include "update/trusted_keys.hpp"
#include "update/update.hpp"
#include "util/files.hpp"

namespace gpucheck {

namespace {

struct BundleFlags {
  std::string url, cache, ca_file, out, documents, key, bundle, signature;
  std::vector<std::string> trust;
};

int print_problem(const Problem& p, int rc = kExitUsage) {
  error_line() << p.where << ": " << p.detail << "\n";
  return rc;
}

int update(const GlobalOptions& g, const BundleFlags& f) {
  UpdateRequest req;
  req.url = f.url.empty() ? default_matrix_url() : f.url;
  req.cache_dir = f.cache.empty() ? default_cache_dir() : f.cache;
  if (req.cache_dir.empty()) {
    error_line() << "no cache directory: HOME and XDG_CACHE_HOME are unset; name one with --cache DIR\n";
    return kExitUsage;
  }
  req.trust_key_files = f.trust;
  req.ca_file = f.ca_file;
  req.timeout = std::chrono::milliseconds(static_cast<long>(g.timeout_s * 1000));
  const UpdateOutcome o = update_matrix(req);
  const CacheRecord& r = o.record;
  switch (o.status) {
    case UpdateStatus::installed:
      std::cout << "matrix " << r.version << " (" << r.date << ") from " << r.url << ", signed by key " << r.key_id << " ("
                << r.key_name << "): installed in " << req.cache_dir << "; was " << o.before << "\n";
      return kExitOk;
    case UpdateStatus::unchanged:
      std::cout << "matrix " << r.version << " (" << r.date << ") in " << req.cache_dir << " is current"
                << (o.detail.empty() ? "" : " (" + o.detail + ")") << "; in use: " << o.before << "\n";
      return kExitOk;
    case UpdateStatus::refused:
      error_line() << "refused: " << o.detail << "\ngpucheck: note: the matrix in use stays " << o.before << "\n";
      return kExitFindings;
    case UpdateStatus::failed:
      error_line() << "no update: " << o.detail << "\n";
      if (!o.before.empty()) std::cerr << "gpucheck: note: the matrix in use stays " << o.before << "\n";
      return kExitUsage;
  }
  return kExitUsage;
}

int export_bundle(const BundleFlags& f) {
  Result<std::string> text = Problem{Reason::failed, "", ""};
  if (!f.documents.empty()) {
    auto docs = read_matrix_documents(f.documents);
    if (!docs) return print_problem(docs.problem());
    text = bundle_from_documents(*docs, f.documents);
  } else {
    // The base matrix in use as it is: a cached bundle byte for byte (its
    // signature still fits), else the embedded documents merged.
    auto base = load_base_knowledge();
    if (!base) return print_problem(base.problem());
    const auto& p = base->matrix.provenance;
    text = p.source == "cached" ? read_whole_file(p.path, kMaxBundleBytes, "cached matrix bundle")
                                : bundle_from_documents(embedded_compatibility_documents(), "");
  }
  if (!text) return print_problem(text.problem(), kExitFindings);
  if (f.out == "-") {
    std::cout << *text;
    return kExitOk;
  }
  auto k = read_bundle(*text, f.out);
  if (!k) return print_problem(k.problem(), kExitFindings);
  if (auto p = write_file_atomically(f.out, *text)) return print_problem(*p);
  std::cout << f.out << ": matrix " << k->matrix.version << " (" << k->matrix.date << "), " << text->size()
            << " bytes; sign it with `gpucheck matrix sign --key KEY.pem " << f.out << "`\n";
  return kExitOk;
}

int sign(const BundleFlags& f) {
  auto bytes = read_whole_file(f.bundle, kMaxBundleBytes, "matrix bundle");
  if (!bytes) return print_problem(bytes.problem());
  // A signature vouches for what it covers: never for a matrix that would be refused.
  auto k = read_bundle(*bytes, f.bundle);
  if (!k) return print_problem(k.problem(), kExitFindings);
  auto s = sign_with_key_file(*bytes, f.key);
  if (!s) return print_problem(s.problem());
  const std::string sig_path = f.bundle + ".sig";
  if (auto p = write_file_atomically(sig_path, signature_file_text(s->signature))) return print_problem(*p);
  std::cout << sig_path << ": matrix " << k->matrix.version << " (" << k->matrix.date << ") signed with key " << s->key.id
            << "; nodes trust it through " << kSystemKeysDir << "/ or --trust-key (its public half)\n";
  return kExitOk;
}

int verify(const BundleFlags& f) {
  auto keys = trusted_keys(f.trust);
  if (!keys) return print_problem(keys.problem());
  auto bytes = read_whole_file(f.bundle, kMaxBundleBytes, "matrix bundle");
  if (!bytes) return print_problem(bytes.problem());
  const std::string sig_path = f.signature.empty() ? f.bundle + ".sig" : f.signature;
  auto sig_text = read_whole_file(sig_path, 4096, "signature file");
  if (!sig_text) return print_problem(sig_text.problem());
  auto sig = parse_signature_text(*sig_text, sig_path);
  if (!sig) return print_problem(sig.problem(), kExitFindings);
  const auto signer = signer_of(*bytes, *sig, *keys);
  if (!signer) {
    error_line() << f.bundle << ": the signature in " << sig_path << " does not verify with any of the "
              << keys->size() << " trusted keys: tampered with, or signed by a key not trusted here (--trust-key, "
              << kSystemKeysDir << ")\n";
    return kExitFindings;
  }
  auto k = read_bundle(*bytes, f.bundle);
  if (!k) return print_problem(k.problem(), kExitFindings);
  std::cout << f.bundle << ": matrix " << k->matrix.version << " (" << k->matrix.date << "), signed by key " << signer->id
            << " (" << signer->name << ")\n";
  return kExitOk;
}

CLI::Option* add_trust_option(CLI::App* cmd, std::vector<std::string>& files) {
  return cmd
      ->add_option("--trust-key", files,
                   "Also trust this Ed25519 public key (PEM), besides the built-in ones and " + std::string(kSystemKeysDir) +
                       "/*.pem; repeatable")
      ->type_name("FILE")
      ->allow_extra_args(false);
}

}  // namespace

void add_matrix_bundle_commands(CLI::App* matrix, const GlobalOptions& g, CommandRun& action) {
  auto f = std::make_shared<BundleFlags>();

  auto* up = matrix->add_subcommand(
      "update",
      "Fetch the newest signed matrix and use it from now on: URL and URL.sig over HTTPS (or file://), verified "
      "against the trusted keys, refused when unsigned, wrongly signed, invalid or older than the one in use, then "
      "installed all or nothing in the cache (root: " + std::string(kSystemCacheDir) +
          "; others: ~/.cache/gpucheck). The only command that uses the network; --timeout bounds it. Exit code 0: "
          "installed or already current; 1: a download refused; 2: nothing could be fetched or written");
  up->add_option("--url", f->url, "The bundle's URL (default: " + default_matrix_url() + ")")->type_name("URL");
  up->add_option("--cache", f->cache, "Install into this directory instead (GPUCHECK_CACHE_DIR does the same for every command)")
      ->type_name("DIR");
  up->add_option("--cacert", f->ca_file, "Trust these CA certificates (PEM) for HTTPS instead of the system's: an internal mirror")
      ->type_name("FILE");
  add_trust_option(up, f->trust);
  up->callback([&g, &action, f] { action = [&g, f] { return update(g, *f); }; });

  auto* ex = matrix->add_subcommand(
      "export", "Write the matrix in use (the cached or built-in one, without layers) as one bundle, or make one from "
                "matrix documents (--documents), for a mirror; checked as a whole matrix first");
  ex->add_option("file", f->out, "Where to write it (- for standard output)")->required()->type_name("FILE");
  ex->add_option("--documents", f->documents, "Bundle these matrix documents (a JSON file or a directory of them) instead")
      ->type_name("PATH");
  ex->callback([&action, f] { action = [f] { return export_bundle(*f); }; });

  auto* sg = matrix->add_subcommand(
      "sign", "Sign a bundle with an Ed25519 private key (PEM, unencrypted): writes BUNDLE.sig beside it. Refuses a bundle "
              "that is not a valid matrix");
  sg->add_option("--key", f->key, "The private key (openssl genpkey -algorithm ed25519 -out KEY.pem)")->required()->type_name("FILE");
  sg->add_option("bundle", f->bundle, "The bundle (gpucheck matrix export)")->required()->type_name("BUNDLE");
  sg->callback([&action, f] { action = [f] { return sign(*f); }; });

  auto* vf = matrix->add_subcommand(
      "verify", "Check a bundle as `matrix update` would: its signature (BUNDLE.sig) against the trusted keys, then its "
                "contents. Exit code 0: signed by a trusted key and valid; 1: not; 2: unreadable");
  vf->add_option("bundle", f->bundle, "The bundle")->required()->type_name("BUNDLE");
  vf->add_option("--signature", f->signature, "The signature file (default: BUNDLE.sig)")->type_name("FILE");
  add_trust_option(vf, f->trust);
  vf->callback([&action, f] { action = [f] { return verify(*f); }; });
}

}  // namespace gpucheck
