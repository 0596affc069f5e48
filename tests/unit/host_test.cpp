// Host access: root-relative files with link re-anchoring, ld.so.cache,
// the snapshot manifest, and what unreadable input turns into.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <set>

#include "host/hosts.hpp"
#include "host/ld_cache.hpp"
#include "host/library_locator.hpp"
#include "host/process.hpp"
#include "test_support.hpp"
#include "util/strings.hpp"

using namespace gpucheck;
using gpucheck::test::TempDir;
using gpucheck::test::write_file;
namespace fs = std::filesystem;

TEST_CASE("paths are normalised lexically", "[host]") {
  CHECK(normalize_path("/a/b/../c") == "/a/c");
  CHECK(normalize_path("//a/./b/") == "/a/b");
  CHECK(normalize_path("/../..") == "/");
  // Those the fast path returns as they are, and its near misses.
  for (const char* normal : {"/", "/a", "/a/b.c", "/a/..b/...", "/usr/lib/x86_64-linux-gnu/libcuda.so.1"})
    CHECK(normalize_path(normal) == normal);
  CHECK(normalize_path("") == "/");
  CHECK(normalize_path("a/b") == "/a/b");
  CHECK(normalize_path("/a/b/") == "/a/b");
  CHECK(normalize_path("/a//b") == "/a/b");
  CHECK(normalize_path("/a/.") == "/a");
  CHECK(normalize_path("/a/b/..") == "/a");
}

TEST_CASE("absolute links are re-anchored inside the root", "[host]") {
  TempDir t;
  write_file(t.path() / "usr/local/cuda-12.4/version.json", "{\"cuda\":{\"version\":\"12.4.1\"}}");
  fs::create_symlink("/usr/local/cuda-12.4", t.path() / "usr/local/cuda");
  fs::create_symlink("../../../../../etc/shadow", t.path() / "usr/local/escape");
  write_file(t.path() / "etc/shadow", "inside the root");
  RootFs root(t.str());
  auto content = root.read_file("/usr/local/cuda/version.json", 1024);
  REQUIRE(content);
  CHECK_THAT(*content, Catch::Contains("12.4.1"));
  CHECK(*root.real_path("/usr/local/cuda/version.json") == "/usr/local/cuda-12.4/version.json");
  CHECK(*root.read_link("/usr/local/cuda") == "/usr/local/cuda-12.4");
  // ".." never climbs out of the root: this reads <root>/etc/shadow.
  CHECK(*root.read_file("/usr/local/escape", 1024) == "inside the root");
}

TEST_CASE("directories are walked once, and links stay re-anchored after a listing or a read", "[host]") {
  // The walk caches resolved directories (and a listing caches its plain
  // subdirectories); a file that is a link, a directory that is a link and
  // ".." must still resolve as the whole walk would.
  TempDir t;
  write_file(t.path() / "site/pkg-1.0.dist-info/METADATA", "Name: pkg\n");
  write_file(t.path() / "elsewhere/linked.dist-info/METADATA", "Name: linked\n");
  write_file(t.path() / "etc/hosts", "root's hosts");
  fs::create_symlink("/elsewhere/linked.dist-info", t.path() / "site/linked.dist-info");
  fs::create_symlink("/etc/hosts", t.path() / "site/pkg-1.0.dist-info/RECORD");
  RootFs root(t.str());
  for (int pass = 0; pass < 2; ++pass) {  // the second pass runs on a warm cache
    INFO("pass " << pass);
    REQUIRE(root.list_dir("/site"));
    CHECK(*root.read_file("/site/pkg-1.0.dist-info/METADATA", 1024) == "Name: pkg\n");
    CHECK(*root.read_file("/site/linked.dist-info/METADATA", 1024) == "Name: linked\n");
    CHECK(*root.read_file("/site/pkg-1.0.dist-info/RECORD", 1024) == "root's hosts");
    // ".." after a link is the parent of its target, as in the kernel.
    CHECK(*root.read_file("/site/linked.dist-info/../linked.dist-info/METADATA", 1024) == "Name: linked\n");
    CHECK_FALSE(root.read_file("/site/linked.dist-info/../pkg-1.0.dist-info/METADATA", 1024));
    CHECK(*root.read_file("/site/pkg-1.0.dist-info/../linked.dist-info/METADATA", 1024) == "Name: linked\n");
    CHECK(*root.real_path("/site/linked.dist-info/METADATA") == "/elsewhere/linked.dist-info/METADATA");
    CHECK_FALSE(root.read_file("/site/missing.dist-info/METADATA", 1024));
  }
}

TEST_CASE("link loops are refused, not followed forever", "[host][bad-input]") {
  TempDir t;
  fs::create_directories(t.path() / "a");
  fs::create_symlink("/a/loop2", t.path() / "a/loop1");
  fs::create_symlink("/a/loop1", t.path() / "a/loop2");
  RootFs root(t.str());
  auto r = root.read_file("/a/loop1", 1024);
  REQUIRE_FALSE(r);
  CHECK_THAT(r.problem().detail, Catch::Contains("symbolic links"));
}

TEST_CASE("read failures carry their reason", "[host][bad-input]") {
  TempDir t;
  write_file(t.path() / "proc/driver/nvidia/version", "x");
  fs::create_directories(t.path() / "locked");
  RootFs root(t.str());
  CHECK(root.read_file("/nope", 10).problem().reason == Reason::absent);
  CHECK(root.read_file("/proc/driver/nvidia/version/deeper", 10).problem().reason == Reason::absent);
  CHECK(root.read_file("/locked", 10).problem().detail == "is a directory");
  if (::geteuid() != 0) {  // root reads through permissions
    ::chmod((t.path() / "locked").c_str(), 0);
    CHECK(root.list_dir("/locked").problem().reason == Reason::permission_denied);
  }
  CHECK(root.list_dir("/nope").problem().reason == Reason::absent);
}

TEST_CASE("reads are capped", "[host]") {
  TempDir t;
  write_file(t.path() / "big", std::string(10000, 'x'));
  CHECK(RootFs(t.str()).read_file("/big", 100)->size() == 100);
}

TEST_CASE("directory listings are sorted and report what links lead to", "[host]") {
  TempDir t;
  write_file(t.path() / "d/b", "");
  fs::create_directories(t.path() / "d/a");
  fs::create_symlink("/d/a", t.path() / "d/c");
  fs::create_symlink("/nowhere", t.path() / "d/dangling");
  auto l = RootFs(t.str()).list_dir("/d");
  REQUIRE(l);
  REQUIRE(l->size() == 4);
  CHECK((*l)[0].name == "a");
  CHECK((*l)[0].type == EntryType::directory);
  CHECK((*l)[1].type == EntryType::file);
  CHECK((*l)[2].type == EntryType::directory);  // c -> /d/a, inside the root
  CHECK((*l)[3].type == EntryType::other);      // dangling
}

TEST_CASE("the ld.so.cache parser agrees with ldconfig -p on this machine", "[ld_cache]") {
  const auto bytes = gpucheck::test::read_file("/etc/ld.so.cache");
  auto parsed = parse_ld_cache(bytes);
  REQUIRE(parsed);
  auto ldconfig = find_program("ldconfig", "/usr/sbin:/sbin:/usr/bin:/bin");
  REQUIRE(ldconfig);
  auto out = run_process(*ldconfig, {"-p"}, Millis(10000));
  REQUIRE(out);
  REQUIRE(out->exit_code == 0);
  // "\tlibz.so.1 (libc6,x86-64) => /lib/x86_64-linux-gnu/libz.so.1"
  std::multiset<std::string> expected, got;
  for (auto line : split_lines(out->out)) {
    if (line.empty() || line[0] != '\t') continue;
    const auto name = std::string(trim(line.substr(0, line.find(" ("))));
    const auto flags = std::string(line.substr(line.find('(') + 1, line.find(')') - line.find('(') - 1));
    const auto path = std::string(line.substr(line.find("=> ") + 3));
    expected.insert(name + " [" + flags.substr(0, flags.find(", hwcap")) + "] " + path);
  }
  for (auto& e : *parsed) got.insert(e.name + " [" + ld_cache_flag_text(e.flags) + "] " + e.path);
  CHECK(got.size() == expected.size());
  CHECK(got == expected);
}

TEST_CASE("a corrupt ld.so.cache is a clear error, never a crash", "[ld_cache][bad-input]") {
  const auto bytes = gpucheck::test::read_file("/etc/ld.so.cache");
  CHECK(parse_ld_cache("").problem().reason == Reason::malformed);
  CHECK_THAT(parse_ld_cache("hello world, not a cache at all, not at all, no........").problem().detail,
             Catch::Contains("magic"));
  // Truncated: the header promises more entries than the file holds.
  CHECK_THAT(parse_ld_cache(bytes.substr(0, 100)).problem().detail, Catch::Contains("past the end"));
  // Entries pointing outside the string table.
  std::string broken = bytes.substr(0, 48 + 24 * 3);
  broken.replace(48 + 4, 4, std::string("\xff\xff\xff\x7f", 4));
  auto r = parse_ld_cache(broken);
  REQUIRE_FALSE(r);
  // Random bytes after a valid magic.
  std::string junk = bytes.substr(0, 20) + std::string(200, '\xee');
  CHECK_FALSE(parse_ld_cache(junk));
}

namespace {
// A synthetic new-format cache: `entries` entries whose name and path both
// point at one string, `text` (the 2026-12-03 audit's D4 shape).
std::string cache_pointing_at(std::uint32_t entries, const std::string& text) {
  std::string c = "glibc-ld.so.cache1.1";
  auto u32 = [&](std::uint32_t v) { c.append(reinterpret_cast<const char*>(&v), 4); };
  u32(entries);
  c.resize(48, '\0');
  const auto at = static_cast<std::uint32_t>(48 + 24 * static_cast<std::size_t>(entries));
  for (std::uint32_t i = 0; i < entries; ++i) {
    u32(0x0303);
    u32(at);
    u32(at);
    u32(0);
    c.append(8, '\0');
  }
  return c + text;
}
}  // namespace

TEST_CASE("a crafted ld.so.cache costs no more than its size", "[ld_cache][bad-input]") {
  // 885 entries at 4 MB without a NUL: each was copied whole (6 GB).
  const auto endless = parse_ld_cache(cache_pointing_at(885, std::string(4'000'000, 'A')));
  REQUIRE_FALSE(endless);
  CHECK_THAT(endless.problem().detail, Catch::Contains("without its end"));
  // 100,000 entries sharing one 4,000-byte string: 800 MB of copies from 2.4 MB.
  const auto shared = parse_ld_cache(cache_pointing_at(100'000, std::string(4'000, 'A') + '\0'));
  REQUIRE_FALSE(shared);
  // The same string under a few entries is a cache.
  const auto fine = parse_ld_cache(cache_pointing_at(3, "libcuda.so.1" + std::string(1, '\0')));
  REQUIRE(fine);
  CHECK(fine->size() == 3);
  CHECK(fine->front().name == "libcuda.so.1");
}

TEST_CASE("the library locator follows the loader's order", "[host][library]") {
  TempDir t;
  write_file(t.path() / "opt/old-cuda/libcudnn.so.9", "");
  write_file(t.path() / "usr/lib/x86_64-linux-gnu/libcudnn.so.9", "");
  write_file(t.path() / ".gpucheck/manifest.json",
             R"({"format": "gpucheck-snapshot/1", "uname": {"machine": "x86_64"},
                 "env": {"LD_LIBRARY_PATH": "/opt/old-cuda:/missing"}})");
  auto host = open_host(t.str());
  REQUIRE(host);
  LibraryLocator loc(**host);
  auto l = loc.locate("libcudnn.so.9");
  REQUIRE(l.copies.size() == 2);
  CHECK(l.copies[0].path == "/opt/old-cuda/libcudnn.so.9");
  CHECK(l.copies[0].via == std::string("LD_LIBRARY_PATH"));
  CHECK(l.copies[1].via == std::string("default directory"));
  REQUIRE(loc.cache_problem());
  CHECK(loc.cache_problem()->reason == Reason::absent);
  CHECK(loc.locate("libnothing.so.1").copies.empty());
}

TEST_CASE("manifest errors name the JSON path", "[manifest][bad-input]") {
  auto err = [](const std::string& text) { return parse_manifest(text, "/snap/.gpucheck").problem().detail; };
  CHECK_THAT(err("{"), Catch::Contains("not valid JSON"));
  CHECK_THAT(err("[]"), Catch::Contains("expected an object"));
  CHECK_THAT(err("{}"), Catch::Contains("$.format: missing"));
  CHECK_THAT(err(R"({"format": "gpucheck-snapshot/9"})"), Catch::Contains("newer gpucheck"));
  CHECK_THAT(err(R"({"format": "gpucheck-snapshot/1", "env": {"PATH": 3}})"), Catch::Contains("$.env.PATH"));
  CHECK_THAT(err(R"({"format": "gpucheck-snapshot/1", "commands": {"nvidia-smi -q -x": {"stdout": ""}}})"),
             Catch::Contains("exit_code: missing"));
  CHECK_THAT(err(R"({"format": "gpucheck-snapshot/1", "commands": {"x": {"exit_code": 0, "stdout_file": "../../etc/passwd"}}})"),
             Catch::Contains("inside .gpucheck"));
  CHECK_THAT(err(R"({"format": "gpucheck-snapshot/1", "unreadable": {"/dev/kmsg": {"reason": "sleepy"}}})"),
             Catch::Contains("unknown reason"));
  CHECK(parse_manifest(R"({"format": "gpucheck-snapshot/1"})", "/x"));
}

TEST_CASE("a FIFO, a socket or a device in a snapshot is refused, never opened", "[host][bad-input]") {
  TempDir t;
  REQUIRE(::mkfifo((t.path() / "fifo").c_str(), 0600) == 0);
  fs::create_directories(t.path() / "dev");
  fs::create_symlink("/dev/zero", t.path() / "dev/zero-link");  // re-anchored inside: SNAP/dev/zero does not exist
  fs::create_symlink("../fifo", t.path() / "dev/kmsg");
  RootFs root(t.str());
  const auto fifo = root.read_file("/fifo", 100);  // a blocking open would hang here
  REQUIRE_FALSE(fifo);
  CHECK_THAT(fifo.problem().detail, Catch::Contains("FIFO"));
  CHECK_FALSE(root.read_file("/dev/kmsg", 100));  // only the live machine's own /dev/kmsg is a device we read
  CHECK(root.read_file("/dev/zero-link", 100).problem().reason == Reason::absent);
  // The live machine: /dev/null is a device too, and no probe asks for it.
  const auto null = RootFs("/").read_file("/dev/null", 100);
  REQUIRE_FALSE(null);
  CHECK_THAT(null.problem().detail, Catch::Contains("device"));
}

TEST_CASE("a snapshot's manifest and its output files are read as themselves, never through a link", "[host][manifest][bad-input]") {
  TempDir t;
  const auto secret = t.path() / "secret";
  write_file(secret, "private");
  ::chmod(secret.c_str(), 0600);
  const std::string manifest = R"({"format": "gpucheck-snapshot/1", "commands": {"nvidia-smi -q -x": {"exit_code": 0, "stdout_file": "commands/x.out"}}})";
  SECTION("an output file that links elsewhere") {
    write_file(t.path() / "snap/.gpucheck/manifest.json", manifest);
    fs::create_directories(t.path() / "snap/.gpucheck/commands");
    fs::create_symlink(secret, t.path() / "snap/.gpucheck/commands/x.out");
    const auto h = open_host((t.path() / "snap").string());
    REQUIRE_FALSE(h);
    CHECK_THAT(h.problem().detail, Catch::Contains("symbolic link"));
  }
  SECTION("a directory on the way that links elsewhere") {
    write_file(t.path() / "snap/.gpucheck/manifest.json", manifest);
    write_file(t.path() / "elsewhere/x.out", "outside");
    fs::create_directory_symlink(t.path() / "elsewhere", t.path() / "snap/.gpucheck/commands");
    const auto h = open_host((t.path() / "snap").string());
    REQUIRE_FALSE(h);
    CHECK_THAT(h.problem().detail, Catch::Contains("not a directory"));
  }
  SECTION("an output file that is /dev/zero") {
    write_file(t.path() / "snap/.gpucheck/manifest.json", manifest);
    fs::create_directories(t.path() / "snap/.gpucheck/commands");
    fs::create_symlink("/dev/zero", t.path() / "snap/.gpucheck/commands/x.out");
    CHECK_FALSE(open_host((t.path() / "snap").string()));  // refused, not read until memory runs out
  }
  SECTION("an output file that is a FIFO") {
    write_file(t.path() / "snap/.gpucheck/manifest.json", manifest);
    fs::create_directories(t.path() / "snap/.gpucheck/commands");
    REQUIRE(::mkfifo((t.path() / "snap/.gpucheck/commands/x.out").c_str(), 0600) == 0);
    const auto h = open_host((t.path() / "snap").string());
    REQUIRE_FALSE(h);
    CHECK_THAT(h.problem().detail, Catch::Contains("not a regular file"));
  }
  SECTION("a .gpucheck that is itself a link") {
    write_file(t.path() / "other/manifest.json", manifest);
    fs::create_directories(t.path() / "snap");
    fs::create_directory_symlink(t.path() / "other", t.path() / "snap/.gpucheck");
    CHECK_FALSE(open_host((t.path() / "snap").string()));
  }
}
