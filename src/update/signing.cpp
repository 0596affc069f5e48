#include "update/signing.hpp"

#include <algorithm>
#include <memory>

#include "update/crypto_library.hpp"
#include "util/files.hpp"

namespace gpucheck {
namespace {

// The functions below return a Problem, or (those that cannot) no match and
// no text, when libcrypto is missing; their callers ask crypto_library()
// first and say so.
const CryptoLibrary* crypto() {
  auto lib = crypto_library();
  return lib ? *lib : nullptr;
}

// Owners of what the library made: only ever made once it was loaded.
struct PkeyFree {
  void operator()(EVP_PKEY* k) const { crypto()->pkey_free(k); }
};
struct MdCtxFree {
  void operator()(EVP_MD_CTX* c) const { crypto()->md_ctx_free(c); }
};
struct BioFree {
  void operator()(BIO* b) const { crypto()->bio_free(b); }
};
using Pkey = std::unique_ptr<EVP_PKEY, PkeyFree>;
using MdCtx = std::unique_ptr<EVP_MD_CTX, MdCtxFree>;

// A key file is at most a few hundred bytes.
constexpr std::size_t kMaxKeyFileBytes = 64u << 10;

// OpenSSL's own reason for the last failure, for the message, and the
// queue emptied so it never leaks into a later call's answer.
std::string openssl_reason(const CryptoLibrary& lib) {
  const unsigned long e = lib.err_get_error();
  lib.err_clear_error();
  if (e == 0) return "";
  const char* r = lib.err_reason_error_string(e);
  return r ? std::string(": ") + r : "";
}

// Never prompt for a passphrase: gpucheck runs in launchers with no terminal.
int no_passphrase(char*, int, int, void*) { return -1; }

PublicKey make_public_key(const Ed25519Raw& raw, const std::string& name) {
  PublicKey k;
  k.raw = raw;
  k.id = sha256_hex(std::string_view(reinterpret_cast<const char*>(raw.data()), raw.size())).substr(0, 16);
  k.name = name;
  return k;
}

Result<PublicKey> public_key_of(const CryptoLibrary& lib, EVP_PKEY* pkey, const std::string& name) {
  if (lib.pkey_get_id(pkey) != EVP_PKEY_ED25519) {
    const char* type = lib.pkey_get0_type_name(pkey);
    return Problem{Reason::malformed, name,
                   std::string("is an ") + (type ? type : "unknown") + " key; matrix signatures are Ed25519 "
                       "(openssl genpkey -algorithm ed25519)"};
  }
  Ed25519Raw raw{};
  std::size_t len = raw.size();
  if (lib.pkey_get_raw_public_key(pkey, raw.data(), &len) != 1 || len != raw.size())
    return Problem{Reason::malformed, name, "cannot read the Ed25519 public key" + openssl_reason(lib)};
  return make_public_key(raw, name);
}

std::string base64(const std::uint8_t* data, std::size_t n) {
  const CryptoLibrary* lib = crypto();
  if (!lib) return "";
  std::string out(4 * ((n + 2) / 3) + 1, '\0');
  const int len = lib->encode_block(reinterpret_cast<unsigned char*>(out.data()), data, static_cast<int>(n));
  out.resize(static_cast<std::size_t>(len));
  return out;
}

// Exactly `N` bytes from base64 text (spaces and line breaks ignored).
template <std::size_t N>
Result<std::array<std::uint8_t, N>> unbase64(std::string_view text, const std::string& name, const char* what) {
  std::string clean;
  for (char c : text)
    if (c != ' ' && c != '\n' && c != '\r' && c != '\t') clean += c;
  const std::size_t want = 4 * ((N + 2) / 3);
  if (clean.size() != want)
    return Problem{Reason::malformed, name,
                   std::string("expected ") + what + ": " + std::to_string(N) + " bytes in base64 (" + std::to_string(want) +
                       " characters), found " + std::to_string(clean.size()) + " characters"};
  auto lib = crypto_library();
  if (!lib) return lib.problem();
  std::string decoded(want, '\0');
  const int len = (*lib)->decode_block(reinterpret_cast<unsigned char*>(decoded.data()),
                                  reinterpret_cast<const unsigned char*>(clean.data()), static_cast<int>(clean.size()));
  const std::size_t pad = static_cast<std::size_t>(std::count(clean.end() - 2, clean.end(), '='));
  if (len < 0 || static_cast<std::size_t>(len) - pad != N)
    return Problem{Reason::malformed, name, std::string("expected ") + what + " in base64; the text is not base64"};
  std::array<std::uint8_t, N> out{};
  std::copy_n(decoded.begin(), N, out.begin());
  return out;
}

}  // namespace

std::string sha256_hex(std::string_view bytes) {
  const CryptoLibrary* lib = crypto();
  if (!lib) return "";
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  lib->digest(bytes.data(), bytes.size(), md, &len, lib->sha256(), nullptr);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < len; ++i) {
    out += kHex[md[i] >> 4];
    out += kHex[md[i] & 15];
  }
  return out;
}

Result<PublicKey> read_public_key_pem(std::string_view pem, const std::string& name) {
  auto loaded = crypto_library();
  if (!loaded) return loaded.problem();
  const CryptoLibrary& lib = **loaded;
  if (pem.find("PRIVATE KEY-----") != std::string_view::npos)
    return Problem{Reason::malformed, name,
                   "is a private key; trust the public half (openssl pkey -in KEY.pem -pubout -out KEY.pub.pem)"};
  std::unique_ptr<BIO, BioFree> bio(lib.bio_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
  Pkey pkey(lib.pem_read_bio_pubkey(bio.get(), nullptr, no_passphrase, nullptr));
  if (!pkey)
    return Problem{Reason::malformed, name,
                   "expected an Ed25519 public key in PEM (-----BEGIN PUBLIC KEY-----)" + openssl_reason(lib)};
  return public_key_of(lib, pkey.get(), name);
}

Result<PublicKey> read_public_key_file(const std::string& path) {
  auto text = read_whole_file(path, kMaxKeyFileBytes, "public key file");
  if (!text) return text.problem();
  return read_public_key_pem(*text, path);
}

Result<PublicKey> public_key_from_base64(std::string_view b64, const std::string& name) {
  auto raw = unbase64<32>(b64, name, "an Ed25519 public key");
  if (!raw) return raw.problem();
  return make_public_key(*raw, name);
}

std::string public_key_base64(const PublicKey& key) { return base64(key.raw.data(), key.raw.size()); }

Result<Signed> sign_with_key_file(std::string_view message, const std::string& path) {
  auto loaded = crypto_library();
  if (!loaded) return loaded.problem();
  const CryptoLibrary& lib = **loaded;
  auto text = read_whole_file(path, kMaxKeyFileBytes, "private key file");
  if (!text) return text.problem();
  std::unique_ptr<BIO, BioFree> bio(lib.bio_new_mem_buf(text->data(), static_cast<int>(text->size())));
  Pkey pkey(lib.pem_read_bio_private_key(bio.get(), nullptr, no_passphrase, nullptr));
  if (!pkey) {
    const bool encrypted = text->find("ENCRYPTED") != std::string::npos;
    return Problem{Reason::malformed, path,
                   encrypted ? std::string("is encrypted; gpucheck never prompts for a passphrase: sign with an "
                                           "unencrypted copy (openssl pkey -in KEY.pem -out PLAIN.pem), or with "
                                           "openssl pkeyutl -sign -rawin (docs/matrix-updates.md)")
                             : "expected an Ed25519 private key in PEM (-----BEGIN PRIVATE KEY-----)" + openssl_reason(lib)};
  }
  auto pub = public_key_of(lib, pkey.get(), path);
  if (!pub) return pub.problem();
  MdCtx ctx(lib.md_ctx_new());
  Signed out;
  out.key = *pub;
  std::size_t len = out.signature.size();
  if (!ctx || lib.digest_sign_init(ctx.get(), nullptr, nullptr, nullptr, pkey.get()) != 1 ||
      lib.digest_sign(ctx.get(), out.signature.data(), &len, reinterpret_cast<const unsigned char*>(message.data()),
                     message.size()) != 1 ||
      len != out.signature.size())
    return Problem{Reason::failed, path, "signing failed" + openssl_reason(lib)};
  return out;
}

bool signature_matches(std::string_view message, const Ed25519Signature& sig, const PublicKey& key) {
  const CryptoLibrary* lib = crypto();
  if (!lib) return false;
  Pkey pkey(lib->pkey_new_raw_public_key(EVP_PKEY_ED25519, nullptr, key.raw.data(), key.raw.size()));
  MdCtx ctx(lib->md_ctx_new());
  const bool ok = pkey && ctx && lib->digest_verify_init(ctx.get(), nullptr, nullptr, nullptr, pkey.get()) == 1 &&
                  lib->digest_verify(ctx.get(), sig.data(), sig.size(), reinterpret_cast<const unsigned char*>(message.data()),
                                   message.size()) == 1;
  lib->err_clear_error();
  return ok;
}

std::string signature_file_text(const Ed25519Signature& sig) { return base64(sig.data(), sig.size()) + "\n"; }

Result<Ed25519Signature> parse_signature_text(std::string_view text, const std::string& name) {
  return unbase64<64>(text, name, "an Ed25519 signature");
}

}  // namespace gpucheck
