// The lock's text form read back: every broken, truncated, corrupt or newer
// lock is an error naming the file, the line and the reason.
#include <catch2/catch.hpp>
#include <filesystem>
#include <sys/stat.h>

#include "lock/lockfile.hpp"
#include "util/files.hpp"
#include "test_support.hpp"

using namespace gpucheck;
using gpucheck::test::TempDir;

namespace {

const std::string kGood =
    "# a comment\n"
    "gpucheck-lock 1\n"
    "\n"
    "[driver]\n"
    "version = \"550.54.14\"  same-branch  # kernel module\n"
    "cuda = \"12.4\"\n"
    "\n"
    "[frameworks]\n"
    "torch = \"2.1.0+cu121\"  exact\n"
    "\n"
    "[ngc]\n"
    "framework = none  exact\n"
    "\n"
    "end\n";

// The error of a lock that must not parse: where (file:line) and why.
Problem error_of(const std::string& text) {
  auto r = parse_lock(text, "team.lock");
  REQUIRE_FALSE(r);
  CHECK(r.problem().reason == Reason::malformed);
  return r.problem();
}

}  // namespace

TEST_CASE("a hand-written lock parses: values, none, policies given and defaulted, comments", "[lock][parse]") {
  auto r = parse_lock(kGood, "team.lock");
  REQUIRE(r);
  CHECK(r->schema == 1);
  REQUIRE(r->entries.size() == 4);
  CHECK(r->find("driver", "version")->value == "550.54.14");
  CHECK(r->find("driver", "version")->policy == Policy::same_branch);
  CHECK(r->find("driver", "version")->comment == "kernel module");
  CHECK(r->find("driver", "cuda")->policy == Policy::at_least);  // the field's default
  CHECK_FALSE(r->find("ngc", "framework")->value.has_value());
  // CRLF line ends from an editor are fine.
  std::string crlf;
  for (char c : kGood) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  CHECK(parse_lock(crlf, "team.lock"));
}

TEST_CASE("values round-trip through quoting: quotes, backslashes, control bytes", "[lock][parse]") {
  Lock lock;
  lock.entries.push_back({"gpu", "models", std::string("A \"quoted\" \\ name\twith\x01" "bytes"), Policy::exact, "c"});
  const std::string text = render_lock(lock);
  auto back = parse_lock(text, "x.lock");
  REQUIRE(back);
  CHECK(back->find("gpu", "models")->value == lock.entries[0].value);
}

TEST_CASE("broken locks: each error names file, line and reason", "[lock][parse]") {
  SECTION("newer schema") {
    auto p = error_of("gpucheck-lock 2\n[driver]\nversion = \"1\"\nend\n");
    CHECK(p.where == "team.lock:1");
    CHECK(p.detail.find("newer gpucheck: lock schema 2") != std::string::npos);
  }
  SECTION("not a lock at all") {
    auto p = error_of("{\"schema\": \"gpucheck.facts/1\"}\n");
    CHECK(p.where == "team.lock:1");
    CHECK(p.detail.find("not a gpucheck lockfile") != std::string::npos);
  }
  SECTION("empty") {
    auto p = error_of("");
    CHECK(p.where == "team.lock:1");
    CHECK(p.detail.find("empty") != std::string::npos);
  }
  SECTION("truncated in the middle of a value") {
    const std::string cut = kGood.substr(0, kGood.find("2.1.0+cu121") + 3);
    auto p = error_of(cut);
    CHECK(p.where == "team.lock:9");
    CHECK(p.detail.find("unterminated value") != std::string::npos);
  }
  SECTION("truncated at a line boundary: the end line is missing") {
    const std::string cut = kGood.substr(0, kGood.find("[ngc]"));
    auto p = error_of(cut);
    CHECK(p.detail.find("ends before its `end` line") != std::string::npos);
  }
  SECTION("corrupt: binary bytes") {
    std::string bad = kGood;
    bad[bad.find("cuda")] = '\0';
    auto p = error_of(bad);
    CHECK(p.where == "team.lock:6");
    CHECK(p.detail.find("byte 0x00") != std::string::npos);
  }
  SECTION("unknown policy") {
    auto p = error_of("gpucheck-lock 1\n[driver]\nversion = \"550.54.14\"  sometimes\nend\n");
    CHECK(p.where == "team.lock:3");
    CHECK(p.detail == "unknown policy 'sometimes' for driver.version; expected exact, same-branch, at-least or ignore");
  }
  SECTION("unknown field") {
    auto p = error_of("gpucheck-lock 1\n[driver]\nflavour = \"open\"\nend\n");
    CHECK(p.where == "team.lock:3");
    CHECK(p.detail.find("unknown field driver.flavour") != std::string::npos);
  }
  SECTION("unknown section") {
    auto p = error_of("gpucheck-lock 1\n[drivers]\nend\n");
    CHECK(p.where == "team.lock:2");
    CHECK(p.detail.find("unknown section [drivers]") != std::string::npos);
  }
  SECTION("a field set twice") {
    auto p = error_of("gpucheck-lock 1\n[driver]\nversion = \"1\"\nversion = \"2\"\nend\n");
    CHECK(p.where == "team.lock:4");
    CHECK(p.detail == "driver.version is set twice (first at line 3)");
  }
  SECTION("a value without quotes") {
    auto p = error_of("gpucheck-lock 1\n[driver]\nversion = 550.54.14\nend\n");
    CHECK(p.where == "team.lock:3");
    CHECK(p.detail.find("quoted string or `none`") != std::string::npos);
  }
  SECTION("no '='") {
    auto p = error_of("gpucheck-lock 1\n[driver]\nversion \"1\"\nend\n");
    CHECK(p.where == "team.lock:3");
  }
  SECTION("a field before any section") {
    auto p = error_of("gpucheck-lock 1\nversion = \"1\"\nend\n");
    CHECK(p.detail.find("before any [section]") != std::string::npos);
  }
  SECTION("text after end") {
    auto p = error_of("gpucheck-lock 1\nend\n[driver]\n");
    CHECK(p.where == "team.lock:3");
  }
}

TEST_CASE("read_lock_file: a missing file and a directory are problems, not crashes", "[lock][parse]") {
  TempDir tmp;
  auto missing = read_lock_file((tmp.path() / "none.lock").string());
  REQUIRE_FALSE(missing);
  CHECK(missing.problem().reason == Reason::absent);
  CHECK_FALSE(read_lock_file(tmp.str()));
  test::write_file(tmp.path() / "ok.lock", kGood);
  auto ok = read_lock_file((tmp.path() / "ok.lock").string());
  REQUIRE(ok);
  test::write_file(tmp.path() / "bad.lock", "gpucheck-lock 1\n[driver\n");
  auto bad = read_lock_file((tmp.path() / "bad.lock").string());
  REQUIRE_FALSE(bad);
  CHECK(bad.problem().where == (tmp.path() / "bad.lock").string() + ":2");
}

TEST_CASE("write_file_atomically: replaces whole, leaves no temporary, keeps the old file on failure", "[util][write]") {
  TempDir tmp;
  const auto target = tmp.path() / "gpucheck.lock";
  test::write_file(target, "old\n");
  CHECK_FALSE(write_file_atomically(target.string(), "new\n"));
  CHECK(test::read_file(target.string()) == "new\n");
  int files = 0;
  for (auto& e : std::filesystem::directory_iterator(tmp.path())) files += e.is_regular_file() ? 1 : 0;
  CHECK(files == 1);
  // A directory where the file should go: refused before anything is written.
  std::filesystem::create_directory(tmp.path() / "taken");
  test::write_file(tmp.path() / "taken" / "x", "keep\n");
  auto p = write_file_atomically((tmp.path() / "taken").string(), "new\n");
  REQUIRE(p);
  CHECK(p->detail.find("is a directory") != std::string::npos);
  CHECK(test::read_file((tmp.path() / "taken" / "x").string()) == "keep\n");
  // A missing directory: cannot even create the temporary file.
  CHECK(write_file_atomically((tmp.path() / "no" / "such" / "gpucheck.lock").string(), "x"));
}

TEST_CASE("read_whole_file: a FIFO, a device and a file past the bound are refused at once", "[util][write]") {
  TempDir tmp;
  const auto fifo = (tmp.path() / "fifo").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  auto p = read_whole_file(fifo, 1024, "lockfile");  // would block forever if opened
  REQUIRE_FALSE(p);
  CHECK(p.problem().detail == "is not a regular file, not a lockfile");
  CHECK_FALSE(read_whole_file("/dev/zero", 1024, "lockfile"));
  test::write_file(tmp.path() / "big", std::string(2048, 'x'));
  auto big = read_whole_file((tmp.path() / "big").string(), 1024, "lockfile");
  REQUIRE_FALSE(big);
  CHECK(big.problem().detail.find("larger than 1024 bytes") != std::string::npos);
  CHECK(read_whole_file((tmp.path() / "none").string(), 1024, "lockfile").problem().reason == Reason::absent);
}
