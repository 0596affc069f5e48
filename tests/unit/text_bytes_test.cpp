// is_text (util/strings.hpp) reads sixteen bytes at a time and the rest one
// by one: every byte value, in every position of a vector and of the tail,
// must be judged as the one-byte rule says.
#include <catch2/catch.hpp>
#include <string>

#include "util/strings.hpp"

using gpucheck::is_text;

TEST_CASE("is_text judges every byte value in every position alike", "[strings]") {
  CHECK(is_text(""));
  CHECK(is_text("Metadata-Version: 2.1\r\nName: torch\n\tSummary: tensors \xc3\xa9\n"));
  for (int c = 0; c < 256; ++c) {
    const bool text = (c >= 0x20 && c != 0x7f) || c == '\n' || c == '\t' || c == '\r';
    for (std::size_t at : {0, 5, 15, 16, 31, 32, 40}) {
      std::string s(41, 'a');
      s[at] = static_cast<char>(c);
      INFO("byte " << c << " at " << at);
      CHECK(is_text(s) == text);
    }
  }
}
