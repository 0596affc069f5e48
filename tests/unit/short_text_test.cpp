// The short forms a finding takes where room is scarce: several GPUs' bus
// ids in one phrase, and a line cut after a whole word (a Slurm reason).
#include <catch2/catch.hpp>

#include "util/pci_address.hpp"
#include "util/strings.hpp"

using namespace gpucheck;

TEST_CASE("bus ids that share a domain and device.function read as one phrase", "[text]") {
  CHECK(compact_pci_bus_ids({}).empty());
  CHECK(compact_pci_bus_ids({"0000:18:00.0"}) == "0000:18:00.0");
  CHECK(compact_pci_bus_ids({"0000:18:00.0", "0000:2a:00.0", "0000:db:00.0"}) == "0000:{18,2a,db}:00.0");
  // Different domains or functions: listed as they are.
  CHECK(compact_pci_bus_ids({"0000:18:00.0", "0001:18:00.0"}) == "0000:18:00.0, 0001:18:00.0");
  CHECK(compact_pci_bus_ids({"0000:18:00.0", "0000:18:00.1"}) == "0000:18:00.0, 0000:18:00.1");
  CHECK(compact_pci_bus_ids({"GPU one", "0000:18:00.0"}) == "GPU one, 0000:18:00.0");
}

TEST_CASE("a line cut to fit ends on a whole word, never inside a word or a character", "[text]") {
  CHECK(fit_on_words("short", 10) == "short");
  CHECK(fit_on_words("NVIDIA GPU with no kernel driver bound", 20) == "NVIDIA GPU with...");
  CHECK(fit_on_words("words, (and more", 13) == "words...");
  const std::string one_word(50, 'x');
  CHECK(fit_on_words(one_word, 10) == std::string(7, 'x') + "...");
  const std::string accents = "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9";  // five two-byte characters, no space
  const auto cut = fit_on_words(accents, 8);
  CHECK(cut.size() <= 8);
  CHECK(cut == "\xc3\xa9\xc3\xa9...");
  for (std::size_t max = 0; max < 45; ++max) CHECK(fit_on_words("Xid 79: GPU has fallen off the bus (8 GPUs)", max).size() <= max);
}
