// `gpucheck matrix update|export|sign|verify` end to end: the real binary
// against real servers on 127.0.0.1 (tests/net/matrix_server.py, HTTP and
// HTTPS with a test CA), real Ed25519 keys made by the openssl command, and
// after every attempt the matrix in use read back from `matrix show --json`.
#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <thread>

#include <nlohmann/json.hpp>

#include "gpucheck_run.hpp"
#include "local_server.hpp"
#include "test_support.hpp"
#include "update/signing.hpp"
#include "update/trusted_keys.hpp"

using gpucheck::test::LocalServer;
using gpucheck::test::run_gpucheck_with;
using gpucheck::test::TempDir;
using nlohmann::json;

namespace {

namespace fs = std::filesystem;

void openssl(const std::vector<std::string>& args) {
  auto r = gpucheck::run_process("/usr/bin/openssl", args, std::chrono::milliseconds(60000));
  REQUIRE(r);
  REQUIRE(r->exit_code == 0);
}

// Keys, bundles and a server: everything a test of the update needs, in a
// temporary directory. The embedded matrix's version plus ".1" is newer
// than it, whatever it is when the test runs.
struct Mirror {
  TempDir tmp;
  std::string dir = tmp.str();
  std::string served = dir + "/served";
  std::string cache = dir + "/cache";
  std::string team = dir + "/team.pem", team_pub = dir + "/team.pub.pem", other = dir + "/other.pem";
  std::string embedded_version, newer_version;
  std::unique_ptr<LocalServer> server;

  explicit Mirror(bool tls = false) {
    fs::create_directories(served);
    for (const auto& k : {team, other}) openssl({"genpkey", "-algorithm", "ed25519", "-out", k});
    openssl({"pkey", "-in", team, "-pubout", "-out", team_pub});
    auto base = gpucheck("matrix", "export", dir + "/base.json");
    REQUIRE(base.exit_code == 0);
    json m = json::parse(gpucheck::test::read_file(dir + "/base.json"));
    embedded_version = m["version"];
    newer_version = embedded_version + ".1";
    publish("matrix.json", m, newer_version, team);
    publish("wrongkey.json", m, newer_version, other);
    publish("older.json", m, "2020.1.1", team);
    json invalid = m;
    invalid["gpus"][0].erase("sources");
    // gpucheck will not sign an invalid matrix; a careless signer might.
    invalid["version"] = newer_version;
    gpucheck::test::write_file(served + "/invalid.json", invalid.dump(1));
    auto s = gpucheck::sign_with_key_file(invalid.dump(1), team);
    REQUIRE(s);
    gpucheck::test::write_file(served + "/invalid.json.sig", gpucheck::signature_file_text(s->signature));
    json unsigned_m = m;
    unsigned_m["version"] = newer_version;
    gpucheck::test::write_file(served + "/unsigned.json", unsigned_m.dump(1));
    // The signed bytes with one character changed, under the real signature.
    std::string body = gpucheck::test::read_file(served + "/matrix.json");
    body[body.find("\"description\": \"") + 16] ^= 0x20;
    gpucheck::test::write_file(served + "/tampered.json", body);
    fs::copy_file(served + "/matrix.json.sig", served + "/tampered.json.sig");
    std::vector<std::string> args{"--dir", served, "--log", dir + "/requests.log"};
    if (tls) {
      fs::create_directories(dir + "/tls");
      args.insert(args.end(), {"--tls-dir", dir + "/tls"});
    }
    server = std::make_unique<LocalServer>(gpucheck::test::source_path("tests/net/matrix_server.py"), args);
  }

  void publish(const std::string& name, json m, const std::string& version, const std::string& key) {
    m["version"] = version;
    gpucheck::test::write_file(served + "/" + name, m.dump(1));
    auto r = gpucheck("matrix", "sign", "--key", key, served + "/" + name);
    REQUIRE(r.exit_code == 0);
  }

  std::string url(const std::string& path, const char* scheme = "http") const {
    return std::string(scheme) + "://127.0.0.1:" + std::to_string(server ? server->port() : 0) + "/" + path;
  }

  // gpucheck with this mirror's cache and no keys directory of the machine's;
  // no proxy for 127.0.0.1 unless a test names one.
  template <class... A>
  gpucheck::CommandResult gpucheck(A... args) const {
    return run({}, {std::string(args)...});
  }
  gpucheck::CommandResult run(std::vector<std::string> env, const std::vector<std::string>& args) const {
    env.insert(env.begin(), {"GPUCHECK_CACHE_DIR=" + cache, "GPUCHECK_KEYS_DIR=" + dir + "/no-keys", "no_proxy=127.0.0.1",
                             "NO_PROXY=127.0.0.1"});
    return run_gpucheck_with(env, "", args);
  }
  gpucheck::CommandResult update(const std::string& url, std::vector<std::string> extra = {}) const {
    std::vector<std::string> args{"--timeout", "10", "matrix", "update", "--url", url, "--trust-key", team_pub};
    args.insert(args.end(), extra.begin(), extra.end());
    return run({}, args);
  }
  // The matrix every command now judges by.
  json in_use() const {
    auto r = gpucheck("matrix", "show", "--json");
    REQUIRE(r.exit_code == 0);
    return json::parse(r.out);
  }
  std::string log() const { return gpucheck::test::read_file(dir + "/requests.log"); }
};

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("matrix update: a signed newer matrix is installed, then costs one 304, and every command uses it",
          "[update][cli]") {
  Mirror mirror;
  auto first = mirror.update(mirror.url("files/matrix.json"));
  INFO(first.err);
  REQUIRE(first.exit_code == 0);
  CHECK(has(first.out, "installed in " + mirror.cache));
  CHECK(has(first.out, "was " + mirror.embedded_version + " (embedded)"));
  auto m = mirror.in_use();
  CHECK(m["version"] == mirror.newer_version);
  CHECK(m["source"] == "cached");
  CHECK(m["url"] == mirror.url("files/matrix.json"));
  CHECK(m["signed_by"].get<std::string>().find(mirror.team_pub) != std::string::npos);

  auto again = mirror.update(mirror.url("files/matrix.json"));
  REQUIRE(again.exit_code == 0);
  CHECK(has(again.out, "is current"));
  CHECK(has(mirror.log(), "GET /files/matrix.json 304 if-none-match"));
  // The 304 fetched no signature: one request for the body alone.
  CHECK(mirror.in_use()["version"] == mirror.newer_version);

  auto check = mirror.gpucheck("check", "--json", "--root", gpucheck::test::source_path("tests/fixtures/hosts/a100-sxm4-4gpu"));
  CHECK(json::parse(check.out)["matrix"]["source"] == "cached");
  CHECK(has(mirror.gpucheck("--version").out, "matrix " + mirror.newer_version));
}

TEST_CASE("matrix update: unsigned, tampered, wrongly signed, invalid and older downloads are refused", "[update][cli]") {
  Mirror mirror;
  REQUIRE(mirror.update(mirror.url("files/matrix.json")).exit_code == 0);
  const struct {
    const char* path;
    const char* says;
  } refused[] = {{"files/unsigned.json", "unsigned"},
                 {"files/tampered.json", "does not verify with any trusted key"},
                 {"files/wrongkey.json", "does not verify with any trusted key"},
                 {"files/invalid.json", "not a valid matrix"},
                 {"files/older.json", "older than the one in use"}};
  for (const auto& r : refused) {
    auto u = mirror.update(mirror.url(r.path));
    INFO(r.path << ": " << u.err);
    CHECK(u.exit_code == 1);
    CHECK(has(u.err, r.says));
    CHECK(has(u.err, "the matrix in use stays " + mirror.newer_version));
    CHECK(mirror.in_use()["version"] == mirror.newer_version);
  }
  // Without the team's key the project's keys alone do not vouch for it.
  auto untrusted = mirror.run({}, {"matrix", "update", "--url", mirror.url("files/matrix.json"), "--cache", mirror.dir + "/c2"});
  CHECK(untrusted.exit_code == 1);
  CHECK_FALSE(fs::exists(mirror.dir + "/c2/current.json"));
}

TEST_CASE("matrix update: transfers that fail install nothing, within the deadline", "[update][cli]") {
  Mirror mirror;
  const struct {
    const char* path;
    const char* says;
  } failing[] = {{"truncated/matrix.json", "ended early"},
                 {"big", "larger than the limit"},
                 {"big-declared", "larger than the limit"},
                 {"status/404/matrix.json", "HTTP 404"},
                 {"status/500/matrix.json", "HTTP 500"},
                 {"loop", "too many redirects"},
                 {"to-file", "not http(s)"}};
  for (const auto& f : failing) {
    auto u = mirror.update(mirror.url(f.path));
    INFO(f.path << ": " << u.err);
    CHECK(u.exit_code == 2);
    CHECK(has(u.err, f.says));
    CHECK(mirror.in_use()["source"] == "embedded");
  }
  const auto start = std::chrono::steady_clock::now();
  auto stalled = mirror.run({}, {"--timeout", "2", "matrix", "update", "--url", mirror.url("stall/matrix.json"), "--trust-key",
                                 mirror.team_pub});
  // The server holds the connection for 60 s: only the deadline ends this.
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(30));
  CHECK(stalled.exit_code == 2);
  CHECK(has(stalled.err, "no complete answer within"));
  CHECK_FALSE(fs::exists(mirror.cache + "/current.json"));
  CHECK(mirror.in_use()["version"] == mirror.embedded_version);
}

TEST_CASE("matrix update: HTTPS with a CA passed explicitly, a proxy, and file://", "[update][cli]") {
  Mirror mirror(true);
  const std::string https = mirror.url("files/matrix.json", "https");
  auto unknown_ca = mirror.update(https);
  INFO(unknown_ca.err);
  CHECK(unknown_ca.exit_code == 2);  // the test CA is no system CA
  CHECK(mirror.in_use()["source"] == "embedded");
  auto ok = mirror.update(https, {"--cacert", mirror.dir + "/tls/ca.pem"});
  INFO(ok.err);
  CHECK(ok.exit_code == 0);
  CHECK(mirror.in_use()["version"] == mirror.newer_version);

  // file:// for an air-gapped mirror: the same checks, no server.
  Mirror offline;
  auto local = offline.update("file://" + offline.served + "/matrix.json");
  INFO(local.err);
  CHECK(local.exit_code == 0);
  CHECK(offline.in_use()["version"] == offline.newer_version);
  auto tampered = offline.update("file://" + offline.served + "/tampered.json", {"--cache", offline.dir + "/c2"});
  CHECK(tampered.exit_code == 1);

  // http_proxy honoured: a host that does not resolve, reached through the
  // proxy, which is the test server (it answers absolute-URI requests).
  auto proxied = offline.run({"http_proxy=http://127.0.0.1:" + std::to_string(offline.server->port()), "no_proxy=", "NO_PROXY="},
                             {"--timeout", "10", "matrix", "update", "--url", "http://mirror.invalid/files/matrix.json",
                              "--trust-key", offline.team_pub, "--cache", offline.dir + "/c3"});
  INFO(proxied.err);
  CHECK(proxied.exit_code == 0);
  CHECK(has(offline.log(), "GET /files/matrix.json proxy"));
}

TEST_CASE("matrix update: two updates at once leave one valid matrix", "[update][cli]") {
  Mirror mirror;
  gpucheck::CommandResult results[2];
  std::thread runs[2];
  for (int i = 0; i < 2; ++i)
    runs[i] = std::thread([&, i] {
      std::vector<std::string> argv{"-c", "exec \"$@\"", "sh", "/usr/bin/env", "GPUCHECK_CACHE_DIR=" + mirror.cache,
                                    "GPUCHECK_KEYS_DIR=" + mirror.dir + "/no-keys", "no_proxy=127.0.0.1",
                                    gpucheck::test::gpucheck_binary(), "--timeout", "20", "matrix", "update", "--url",
                                    mirror.url("slow/matrix.json"), "--trust-key", mirror.team_pub};
      if (auto r = gpucheck::run_process("/bin/sh", argv, std::chrono::milliseconds(60000))) results[i] = *r;
    });
  for (auto& t : runs) t.join();
  CHECK(results[0].exit_code == 0);
  CHECK(results[1].exit_code == 0);
  // One installed it; the other, after the lock, found it current (a 304).
  const int installed = has(results[0].out, "installed") + has(results[1].out, "installed");
  CHECK(installed == 1);
  CHECK(mirror.in_use()["version"] == mirror.newer_version);
  int bundles = 0;
  for (auto& e : fs::directory_iterator(mirror.cache)) bundles += e.path().filename().string().rfind("matrix-", 0) == 0;
  CHECK(bundles == 1);
}

TEST_CASE("a damaged cached matrix is passed over, saying so, for the embedded one", "[update][cli]") {
  Mirror mirror;
  REQUIRE(mirror.update(mirror.url("files/matrix.json")).exit_code == 0);
  const auto record = json::parse(gpucheck::test::read_file(mirror.cache + "/current.json"));
  const std::string bundle = mirror.cache + "/" + record["bundle"].get<std::string>();
  std::string bytes = gpucheck::test::read_file(bundle);
  bytes[bytes.size() / 2] ^= 0x01;
  gpucheck::test::write_file(bundle, bytes);
  auto show = mirror.gpucheck("matrix", "show", "--json");
  CHECK(show.exit_code == 0);
  auto m = json::parse(show.out);
  CHECK(m["source"] == "embedded");
  CHECK(has(m["note"].get<std::string>(), "the cached matrix " + mirror.newer_version + " is not used"));
  CHECK(has(m["note"].get<std::string>(), "no longer match"));
  // `matrix show` reports the note itself, once, not again on stderr.
  CHECK_FALSE(has(show.err, "is not used"));
  auto text = mirror.gpucheck("matrix", "show");
  CHECK(has(text.out, "note     the cached matrix " + mirror.newer_version + " is not used"));
  CHECK_FALSE(has(text.err, "is not used"));
  // Every other command says it on stderr, beside its report.
  CHECK(has(mirror.gpucheck("matrix", "docs").err, "gpucheck: note: the cached matrix " + mirror.newer_version + " is not used"));
  // A record that is not JSON at all: the same.
  gpucheck::test::write_file(mirror.cache + "/current.json", "\x01garbage");
  auto check = mirror.gpucheck("check", "--json", "--root", gpucheck::test::source_path("tests/fixtures/hosts/a100-sxm4-4gpu"));
  CHECK(json::parse(check.out)["matrix"]["source"] == "embedded");
  CHECK(has(check.err, "damaged cache record"));
  // And an update repairs it.
  CHECK(mirror.update(mirror.url("files/matrix.json")).exit_code == 0);
  CHECK(mirror.in_use()["source"] == "cached");
}

TEST_CASE("matrix export --documents of a broken directory names it in the validate hint", "[update][cli]") {
  TempDir tmp;
  const std::string dir = tmp.str() + "/docs";
  // synthetic: a copy of the matrix's header with two bad GPU entries.
  gpucheck::test::write_file(dir + "/matrix.json", gpucheck::test::read_file(gpucheck::test::source_path("matrix/matrix.json")));
  gpucheck::test::write_file(dir + "/gpus.json", R"({"schema": "gpucheck.matrix/1", "gpus": [{"id": "x"}, {"id": "y"}]})");
  auto r = gpucheck::test::run_gpucheck({"matrix", "export", "--documents", dir, tmp.str() + "/out.json"});
  CHECK(r.exit_code != 0);
  CHECK(has(r.err, "gpucheck matrix validate " + dir + ")"));
  CHECK_FALSE(std::filesystem::exists(tmp.str() + "/out.json"));
}

TEST_CASE("matrix sign and verify: refuse what update would refuse, and agree with openssl", "[update][cli]") {
  TempDir tmp;
  const std::string dir = tmp.str();
  const std::string key = dir + "/k.pem", pub = dir + "/k.pub.pem", bundle = dir + "/b.json";
  openssl({"genpkey", "-algorithm", "ed25519", "-out", key});
  openssl({"pkey", "-in", key, "-pubout", "-out", pub});
  REQUIRE(gpucheck::test::run_gpucheck({"matrix", "export", bundle}).exit_code == 0);
  // An exported bundle is a whole matrix: `matrix validate` and --matrix take it.
  CHECK(gpucheck::test::run_gpucheck({"matrix", "validate", bundle}).exit_code == 0);
  REQUIRE(gpucheck::test::run_gpucheck({"matrix", "sign", "--key", key, bundle}).exit_code == 0);
  CHECK(gpucheck::test::run_gpucheck({"matrix", "verify", bundle, "--trust-key", pub}).exit_code == 0);
  auto untrusted = gpucheck::test::run_gpucheck({"matrix", "verify", bundle});
  CHECK(untrusted.exit_code == 1);
  CHECK(has(untrusted.err, "does not verify"));
  // openssl checks gpucheck's signature, and gpucheck openssl's.
  const std::string raw = dir + "/sig.raw";
  std::string sig_b64 = gpucheck::test::read_file(bundle + ".sig");
  auto sig = gpucheck::parse_signature_text(sig_b64, "sig");
  REQUIRE(sig);
  gpucheck::test::write_file(raw, std::string(sig->begin(), sig->end()));
  openssl({"pkeyutl", "-verify", "-pubin", "-inkey", pub, "-rawin", "-in", bundle, "-sigfile", raw});
  openssl({"pkeyutl", "-sign", "-inkey", key, "-rawin", "-in", bundle, "-out", raw});
  const std::string from_openssl = gpucheck::test::read_file(raw);
  gpucheck::Ed25519Signature theirs{};
  REQUIRE(from_openssl.size() == theirs.size());
  std::copy(from_openssl.begin(), from_openssl.end(), theirs.begin());
  gpucheck::test::write_file(bundle + ".sig", gpucheck::signature_file_text(theirs));
  CHECK(gpucheck::test::run_gpucheck({"matrix", "verify", bundle, "--trust-key", pub}).exit_code == 0);
  // A signature over an invalid matrix is refused before it is made.
  gpucheck::test::write_file(dir + "/bad.json", "{\"schema\": \"gpucheck.matrix/1\"}");
  auto bad = gpucheck::test::run_gpucheck({"matrix", "sign", "--key", key, dir + "/bad.json"});
  CHECK(bad.exit_code == 1);
  CHECK_FALSE(fs::exists(dir + "/bad.json.sig"));
  // A public key where the private one belongs, and the reverse.
  CHECK(has(gpucheck::test::run_gpucheck({"matrix", "sign", "--key", pub, bundle}).err, "expected an Ed25519 private key"));
  CHECK(has(gpucheck::test::run_gpucheck({"matrix", "verify", bundle, "--trust-key", key}).err, "is a private key"));
}

TEST_CASE("signatures: one flipped bit fails, and keys of other types and bad base64 are refused", "[update]") {
  TempDir tmp;
  const std::string key = tmp.str() + "/k.pem", rsa = tmp.str() + "/rsa.pem";
  openssl({"genpkey", "-algorithm", "ed25519", "-out", key});
  openssl({"genpkey", "-algorithm", "rsa", "-pkeyopt", "rsa_keygen_bits:1024", "-out", rsa});
  const std::string message = "{\"schema\": \"gpucheck.matrix/1\"}";
  auto s = gpucheck::sign_with_key_file(message, key);
  REQUIRE(s);
  CHECK(gpucheck::signature_matches(message, s->signature, s->key));
  std::string altered = message;
  altered[3] ^= 0x01;
  CHECK_FALSE(gpucheck::signature_matches(altered, s->signature, s->key));
  auto flipped = s->signature;
  flipped[10] ^= 0x80;
  CHECK_FALSE(gpucheck::signature_matches(message, flipped, s->key));
  auto round = gpucheck::parse_signature_text(gpucheck::signature_file_text(s->signature), "sig");
  REQUIRE(round);
  CHECK(*round == s->signature);
  CHECK_FALSE(gpucheck::parse_signature_text("not base64 at all", "sig"));
  CHECK_FALSE(gpucheck::parse_signature_text(std::string(88, '*'), "sig"));
  CHECK_FALSE(gpucheck::parse_signature_text("", "sig"));
  auto other_type = gpucheck::sign_with_key_file(message, rsa);
  REQUIRE_FALSE(other_type);
  INFO(other_type.problem().detail);
  CHECK(has(other_type.problem().detail, "is an RSA key"));
  // The project's keys, built in, all read: one per packaging/keys/*.pem.
  std::size_t files = 0;
  for (auto& e : fs::directory_iterator(gpucheck::test::source_path("packaging/keys"))) files += e.path().extension() == ".pem";
  CHECK(files > 0);
  CHECK(gpucheck::built_in_keys().size() == files);
}
