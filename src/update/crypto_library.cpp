#include "update/crypto_library.hpp"

#include "host/dynamic_library.hpp"

namespace gpucheck {
namespace {

Result<CryptoLibrary> open_crypto() {
  // Never closed, not even at exit: a static's destructor would unmap the
  // library before the sanitizers' and atexit handlers that still reach
  // into it (LeakSanitizer crashed so), and it is needed to the end anyway.
  static DynamicLibrary* library = nullptr;
  auto opened = DynamicLibrary::open({"libcrypto.so.3"});
  if (!opened)
    return Problem{Reason::absent, "libcrypto.so.3",
                   "matrix signatures need OpenSSL 3's libcrypto (Debian 12 and Ubuntu 22.04: apt install libssl3): " +
                       opened.problem().detail};
  library = new DynamicLibrary(std::move(opened).value());
  CryptoLibrary c{};
  bool all = true;
  const auto bind = [&](auto& fn, const char* name) { all = library->bind(fn, name) && all; };
  bind(c.err_get_error, "ERR_get_error");
  bind(c.err_clear_error, "ERR_clear_error");
  bind(c.err_reason_error_string, "ERR_reason_error_string");
  bind(c.digest, "EVP_Digest");
  bind(c.sha256, "EVP_sha256");
  bind(c.encode_block, "EVP_EncodeBlock");
  bind(c.decode_block, "EVP_DecodeBlock");
  bind(c.pkey_get_id, "EVP_PKEY_get_id");
  bind(c.pkey_get0_type_name, "EVP_PKEY_get0_type_name");
  bind(c.pkey_get_raw_public_key, "EVP_PKEY_get_raw_public_key");
  bind(c.pkey_new_raw_public_key, "EVP_PKEY_new_raw_public_key");
  bind(c.pkey_free, "EVP_PKEY_free");
  bind(c.bio_new_mem_buf, "BIO_new_mem_buf");
  bind(c.bio_free, "BIO_free");
  bind(c.pem_read_bio_pubkey, "PEM_read_bio_PUBKEY");
  bind(c.pem_read_bio_private_key, "PEM_read_bio_PrivateKey");
  bind(c.md_ctx_new, "EVP_MD_CTX_new");
  bind(c.md_ctx_free, "EVP_MD_CTX_free");
  bind(c.digest_sign_init, "EVP_DigestSignInit");
  bind(c.digest_sign, "EVP_DigestSign");
  bind(c.digest_verify_init, "EVP_DigestVerifyInit");
  bind(c.digest_verify, "EVP_DigestVerify");
  if (!all) return Problem{Reason::malformed, library->opened(), "lacks functions OpenSSL 3's libcrypto has: not OpenSSL 3"};
  return c;
}

}  // namespace

Result<const CryptoLibrary*> crypto_library() {
  static const Result<CryptoLibrary> loaded = open_crypto();
  if (!loaded) return loaded.problem();
  return &loaded.value();
}

}  // namespace gpucheck
