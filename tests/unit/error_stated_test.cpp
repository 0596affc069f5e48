// What an error line states as a kind (facts.report.stated, the rules'
// error.stated): src/importers/stated_kinds.cpp. Lines are the real
// pastes' own (tests/data/pastes-real/), cut to the line that matters.
#include <catch2/catch.hpp>

#include "facts/facts_json.hpp"
#include "importers/error_facts.hpp"
#include "importers/import_report.hpp"
#include "paste_support.hpp"
#include "test_support.hpp"

using namespace gpucheck;
using gpucheck::test::paste;

namespace {

std::vector<std::string> stated(const Facts& f) {
  std::vector<std::string> out;
  if (f.report)
    for (auto& s : f.report->stated) out.push_back(s.value);
  return out;
}

}  // namespace

TEST_CASE("an error line's statement becomes a kind with its line", "[importers][paste][errors]") {
  // vllm-project/vllm#730: the message in Markdown bold.
  const auto f = paste(
      "and error occur:\n\n"
      "  **ValueError: Bfloat16 is only supported on GPUs with compute capability of at least 8.0. Your Tesla V100-SXM2-32GB GPU has "
      "compute capability 7.0.**\n");
  CHECK(stated(f) == std::vector<std::string>{"bf16-unsupported"});
  REQUIRE(f.report->stated.size() == 1);
  CHECK(f.report->stated[0].source == "paste.txt:3");
  REQUIRE(f.cuda);
  REQUIRE(f.cuda->devices.size() == 1);
  // The bold's "**" is no part of the compute capability.
  CHECK(f.cuda->devices[0].compute_capability == "7.0");
  CHECK(f.cuda->devices[0].name == "Tesla V100-SXM2-32GB");
}

TEST_CASE("a lower-cased error still states its kind and GPU", "[importers][paste][errors]") {
  // OpenBuddy/OpenBuddy#45 posted the message all in lower case.
  const auto f = paste(
      "valueerror: bfloat16 is only supported on gpus with compute capability of at least 8.0. your tesla v100-sxm2-32gb gpu has compute "
      "capability 7.0.\n");
  CHECK(stated(f) == std::vector<std::string>{"bf16-unsupported"});
  REQUIRE(f.cuda);
  REQUIRE(f.cuda->devices.size() == 1);
  CHECK(f.cuda->devices[0].name == "tesla v100-sxm2-32gb");
  CHECK(f.cuda->devices[0].compute_capability == "7.0");
}

TEST_CASE("each kind is recorded once, in the order the paste states them", "[importers][paste][errors]") {
  // vllm-project/vllm#1284: two errors, two kinds.
  const auto f = paste(
      "Bfloat16 is only supported on GPUs with compute capability of at least 8.0. Your Tesla P100-PCIE-16GB GPU has compute capability 6.0.\n"
      "RuntimeError: GPUs with compute capability below 7.0 are not supported.\n"
      "RuntimeError: GPUs with compute capability below 7.0 are not supported.\n");
  CHECK(stated(f) == std::vector<std::string>{"bf16-unsupported", "below-vllm-minimum"});
  CHECK(f.report->stated[1].source == "paste.txt:2");
}

TEST_CASE("torch's 'total capacty' spelling still gives the GPU's memory", "[importers][paste][errors]") {
  // richard-peng-xia/MMed-RAG#38
  const auto f = paste(
      "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 64.00 MiB. GPU 0 has a total capacty of 8.00 GiB of which 0 bytes "
      "is free.\n");
  CHECK(stated(f) == std::vector<std::string>{"out-of-memory"});
  REQUIRE(f.cuda);
  REQUIRE(f.cuda->devices.size() == 1);
  CHECK(f.cuda->devices[0].memory_bytes == 8ull * 1024 * 1024 * 1024);
}

TEST_CASE("a paste without an error line states nothing", "[importers][paste][errors]") {
  const auto f = paste("NVIDIA-SMI 550.54.15              Driver Version: 550.54.15      CUDA Version: 12.4\n");
  CHECK(stated(f).empty());
}

TEST_CASE("explain's message states its kinds too", "[importers][errors][explain]") {
  Facts facts;
  CHECK(add_message_facts(facts, "Failed to initialize NVML: Driver/library version mismatch"));
  REQUIRE(facts.report);
  REQUIRE(facts.report->stated.size() == 1);
  CHECK(facts.report->stated[0].value == "nvml-mismatch");
  CHECK(facts.report->stated[0].source == "the message");
  // A message that states nothing changes nothing.
  Facts none;
  CHECK(!add_message_facts(none, "Segmentation fault (core dumped)"));
  CHECK(!none.report);
}

TEST_CASE("explain's message of a kernel log line is read as its Xid", "[importers][errors][explain]") {
  Facts facts;
  CHECK(add_message_facts(facts, "NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, GPU has fallen off the bus."));
  REQUIRE(facts.kernel_log.xid_events.size() == 1);
  CHECK(facts.kernel_log.xid_events[0].xid == 79);
  CHECK(facts.kernel_log.xid_events[0].pci_bus_id == "0000:3b:00.0");
  // the driver's words without an Xid number are the same condition
  Facts words;
  CHECK(add_message_facts(words, "NVRM: The NVIDIA GPU 0000:b3:00.0\nNVRM: (PCI ID: 10de:26b5) installed in this system has\nNVRM: fallen off the bus and is not responding to commands."));
  REQUIRE(words.kernel_log.xid_events.size() == 1);
  CHECK(words.kernel_log.xid_events[0].xid == 79);
  CHECK(words.kernel_log.xid_events[0].pci_bus_id == "0000:b3:00.0");
}

TEST_CASE("the stated kinds survive the facts JSON", "[importers][json][errors]") {
  const auto f = paste("RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the 'spawn' start method\n");
  CHECK(stated(f) == std::vector<std::string>{"cuda-after-fork"});
  auto again = import_report(to_json(f).dump(), "facts.json");
  if (!again) FAIL(again.problem().detail);
  REQUIRE(again.value().facts.report);
  CHECK(stated(again.value().facts) == std::vector<std::string>{"cuda-after-fork"});
  CHECK(again.value().facts.report->stated[0].source == "paste.txt:1");
}
