// Ed25519 detached signatures for matrix bundles, through OpenSSL's
// libcrypto: keys read from PEM files, a signature file that is the 64-byte
// signature in base64 on one line (what `openssl pkeyutl -sign -rawin`
// piped through `base64 -w0` writes, so a team can sign without gpucheck).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "util/result.hpp"

namespace gpucheck {

using Ed25519Raw = std::array<std::uint8_t, 32>;
using Ed25519Signature = std::array<std::uint8_t, 64>;

struct PublicKey {
  Ed25519Raw raw{};
  std::string id;    // the first 16 hex digits of SHA-256 over raw: what messages name
  std::string name;  // where it came from: "built-in packaging/keys/…", a file path
};

// An Ed25519 public key in PEM ("-----BEGIN PUBLIC KEY-----"); a key of
// another type, or a private key, is refused with what was found.
Result<PublicKey> read_public_key_pem(std::string_view pem, const std::string& name);
Result<PublicKey> read_public_key_file(const std::string& path);
// The raw key in base64, as a cache record stores it.
Result<PublicKey> public_key_from_base64(std::string_view b64, const std::string& name);
std::string public_key_base64(const PublicKey& key);

// Signs `message` with the Ed25519 private key in the PEM file at `path`
// (unencrypted: gpucheck never prompts); the key's public half comes back
// beside the signature so the signer can say which key it used.
struct Signed {
  Ed25519Signature signature{};
  PublicKey key;
};
Result<Signed> sign_with_key_file(std::string_view message, const std::string& path);

bool signature_matches(std::string_view message, const Ed25519Signature& sig, const PublicKey& key);

// The signature file's text, and back: base64 of exactly 64 bytes, spaces
// and line breaks around it ignored.
std::string signature_file_text(const Ed25519Signature& sig);
Result<Ed25519Signature> parse_signature_text(std::string_view text, const std::string& name);

std::string sha256_hex(std::string_view bytes);

}  // namespace gpucheck
