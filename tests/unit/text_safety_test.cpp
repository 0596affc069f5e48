// Bytes from hosts and files gpucheck does not own: UTF-8 checks, the JSON
// edges (util/json_text) and what reaches a terminal (report/terminal).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "report/terminal.hpp"
#include "util/json_text.hpp"
#include "util/utf8.hpp"

using namespace gpucheck;

namespace {
const std::string kFffd(kReplacementCharacter);
}

TEST_CASE("UTF-8 validity follows RFC 3629", "[utf8]") {
  CHECK(is_valid_utf8("plain ASCII"));
  CHECK(is_valid_utf8("gpucheck \xE2\x80\x94 H100 \xF0\x9F\x9A\x80"));
  CHECK_FALSE(is_valid_utf8("\xFF"));
  CHECK_FALSE(is_valid_utf8("\xC0\xAF"));          // overlong "/"
  CHECK_FALSE(is_valid_utf8("\xE0\x80\xAF"));      // overlong, three bytes
  CHECK_FALSE(is_valid_utf8("\xED\xA0\x80"));      // a surrogate
  CHECK_FALSE(is_valid_utf8("\xF4\x90\x80\x80"));  // above U+10FFFF
  CHECK_FALSE(is_valid_utf8("\xE2\x80"));          // cut short
  bool truncated = false;
  CHECK(utf8_sequence_at("\xE2\x80", 0, &truncated) == 0);
  CHECK(truncated);
  CHECK(utf8_sequence_at("\xE2\x28\xA1", 0, &truncated) == 0);
  CHECK_FALSE(truncated);
}

TEST_CASE("invalid bytes become one U+FFFD per maximal invalid subpart", "[utf8]") {
  CHECK(to_valid_utf8("ok") == "ok");
  CHECK(to_valid_utf8("a\xFF" "b") == "a" + kFffd + "b");
  CHECK(to_valid_utf8("\xF0\x9F\x98") == kFffd);             // a 4-byte sequence cut after 3: one subpart
  CHECK(to_valid_utf8("\xE2\x80" "x") == kFffd + "x");
  CHECK(to_valid_utf8("\xC0\xAF") == kFffd + kFffd);         // C0 starts no sequence: each byte alone
  CHECK(to_valid_utf8("\xED\xA0\x80") == kFffd + kFffd + kFffd);
  CHECK(is_valid_utf8(to_valid_utf8("\xFF\xFE\x80\xC2")));
}

TEST_CASE("a foreign value quoted in a message is clipped on a character", "[utf8]") {
  CHECK(clip_text("short", 10) == "short");
  CHECK(clip_text(std::string(20'000'000, 'x'), 40) == std::string(40, 'x') + "… (20000000 bytes)");
  CHECK(clip_text("ab\xC3\xA9", 3) == "ab… (4 bytes)");  // never half of the é
}

TEST_CASE("JSON parse errors say line and column, not nlohmann's prefix", "[json]") {
  auto cut = parse_json("{\n  \"a\": ");
  REQUIRE_FALSE(cut);
  CHECK(cut.problem().reason == Reason::malformed);
  CHECK_THAT(cut.problem().detail, Catch::StartsWith("not valid JSON: line 2, column"));
  CHECK_THAT(cut.problem().detail, !Catch::Contains("json.exception"));

  // A number nlohmann cannot hold throws out_of_range, not parse_error.
  auto huge = parse_json("{\"x\": [1,\n 1e400]}");
  REQUIRE_FALSE(huge);
  CHECK_THAT(huge.problem().detail, Catch::Contains("line 2, column 2"));
  CHECK_THAT(huge.problem().detail, Catch::Contains("1e400"));
  CHECK_FALSE(parse_json<nlohmann::ordered_json>("-1e999"));

  // An unterminated string is quoted by its start only.
  auto open = parse_json("\"" + std::string(100000, 'a'));
  REQUIRE_FALSE(open);
  CHECK(open.problem().detail.size() < 300);
  CHECK(parse_json("{\"ok\": true}"));
}

TEST_CASE("JSON output replaces bytes that are not UTF-8 and says where", "[json][utf8]") {
  nlohmann::ordered_json j{{"host", "node\xFF"}, {"list", {"fine", "bad\xC3"}}, {"k\xFE", 1}};
  std::vector<std::string> paths;
  replace_invalid_utf8(j, [&](const std::string& p) { paths.push_back(p); });
  CHECK(paths == std::vector<std::string>{"$.host", "$.list[1]", "$.k" + kFffd});
  CHECK(j["host"] == "node" + kFffd);
  CHECK(j.contains("k" + kFffd));
  // The order of keys is kept.
  CHECK(j.begin().key() == "host");

  nlohmann::json raw{{"v", "\xFF"}};
  CHECK(dump_json(raw) == "{\"v\":\"" + kFffd + "\"}");

  nlohmann::json clean{{"v", "fine"}};
  int calls = 0;
  replace_invalid_utf8(clean, [&](const std::string&) { ++calls; });
  CHECK(calls == 0);
}

namespace {
std::string safe(std::string_view in, bool colour = false) {
  std::string out;
  CHECK(terminal_safe(in, colour, true, out) == in.size());
  return out;
}
}  // namespace

TEST_CASE("what reaches the terminal cannot move the cursor or retitle the window", "[terminal]") {
  CHECK(safe("GPU 0\tH100\n") == "GPU 0\tH100\n");
  CHECK(safe("evil\x1b]0;pwned\x07") == "evil\\x1b]0;pwned\\x07");
  CHECK(safe("\x1b[2J\r") == "\\x1b[2J\\x0d");
  CHECK(safe("\x7f") == "\\u007f");  // the one escape that is also JSON's: DEL sits raw inside nlohmann's strings
  // Bidirectional overrides and isolates would reorder what the terminal shows.
  CHECK(safe("host\xE2\x80\xAE" "LIAF") == "host\\u202eLIAF");
  CHECK(safe("\xE2\x81\xA6x\xE2\x81\xA9") == "\\u2066x\\u2069");
  CHECK(safe("\xE2\x80\x8F") == "\\u200f");
  CHECK(safe("\xE2\x80\x94") == "\xE2\x80\x94");  // an em dash is text
  for (const char* text : {"{\"name\": \"bf16\x7f\"}", "{\"name\": \"a\xE2\x80\xAE" "b\xC2\x9B\"}"}) {
    INFO(text);
    const auto parsed = parse_json(safe(text));
    REQUIRE(parsed);
    CHECK(parsed->at("name") == nlohmann::json::parse(text)["name"]);
  }
  CHECK(safe("\xC2\x9B" "31m") == "\\u009b31m");  // the C1 form of ESC [
  CHECK(safe("caf\xC3\xA9 \xE2\x80\x94") == "caf\xC3\xA9 \xE2\x80\x94");
  CHECK(safe("\xFF") == kFffd);
  // Colour passes only when the CLI chose it, and only colour.
  CHECK(safe("\x1b[1mbold\x1b[0m", true) == "\x1b[1mbold\x1b[0m");
  CHECK(safe("\x1b[1mbold\x1b[0m", false) == "\\x1b[1mbold\\x1b[0m");
  CHECK(safe("\x1b[2J", true) == "\\x1b[2J");
}

TEST_CASE("a character or colour split between two writes is held, not broken", "[terminal]") {
  std::string out;
  const std::string first = "ok \xE2\x80";
  const std::size_t used = terminal_safe(first, false, false, out);
  CHECK(used == 3);
  CHECK(out == "ok ");
  const std::string rest = first.substr(used) + "\x94!";
  CHECK(terminal_safe(rest, false, false, out) == rest.size());
  CHECK(out == "ok \xE2\x80\x94!");

  out.clear();
  CHECK(terminal_safe("x\x1b[3", true, false, out) == 1);
  CHECK(terminal_safe("\x1b[33mwarn", true, false, out) == 9);
  CHECK(out == "x\x1b[33mwarn");
  // At the end nothing is held: a lone lead byte is replaced.
  out.clear();
  CHECK(terminal_safe("\xE2\x80", false, true, out) == 2);
  CHECK(out == kFffd + kFffd);
}
