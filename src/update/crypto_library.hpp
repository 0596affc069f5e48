// libcrypto's entry points, opened when a digest or signature is first
// needed (a matrix update, a cached matrix checked at start, `matrix sign`
// and `verify`) instead of linked: loading OpenSSL cost every run of
// gpucheck about 0.9 ms, and a run on a node with no cached matrix never
// uses it. openssl/*.h still give the types, so each pointer has the exact
// signature of the function it names.
#pragma once

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include "util/result.hpp"

namespace gpucheck {

struct CryptoLibrary {
  decltype(&ERR_get_error) err_get_error;
  decltype(&ERR_clear_error) err_clear_error;
  decltype(&ERR_reason_error_string) err_reason_error_string;
  decltype(&EVP_Digest) digest;
  decltype(&EVP_sha256) sha256;
  decltype(&EVP_EncodeBlock) encode_block;
  decltype(&EVP_DecodeBlock) decode_block;
  decltype(&EVP_PKEY_get_id) pkey_get_id;
  decltype(&EVP_PKEY_get0_type_name) pkey_get0_type_name;
  decltype(&EVP_PKEY_get_raw_public_key) pkey_get_raw_public_key;
  decltype(&EVP_PKEY_new_raw_public_key) pkey_new_raw_public_key;
  decltype(&EVP_PKEY_free) pkey_free;
  decltype(&BIO_new_mem_buf) bio_new_mem_buf;
  decltype(&BIO_free) bio_free;
  decltype(&PEM_read_bio_PUBKEY) pem_read_bio_pubkey;
  decltype(&PEM_read_bio_PrivateKey) pem_read_bio_private_key;
  decltype(&EVP_MD_CTX_new) md_ctx_new;
  decltype(&EVP_MD_CTX_free) md_ctx_free;
  decltype(&EVP_DigestSignInit) digest_sign_init;
  decltype(&EVP_DigestSign) digest_sign;
  decltype(&EVP_DigestVerifyInit) digest_verify_init;
  decltype(&EVP_DigestVerify) digest_verify;
};

// Opened once per process and kept; the Problem names the library and the
// package that has it. Whatever reads or writes a cache, a bundle, a key or
// a signature asks for it first, so that its absence is said as such.
Result<const CryptoLibrary*> crypto_library();

}  // namespace gpucheck
