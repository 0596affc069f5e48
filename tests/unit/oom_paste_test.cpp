// A pasted out-of-memory error is a capacity question (issue 35): what it
// asked for and found free, and, where the paste names a model the matrix
// knows, what its weights take against the GPU: read from real pastes,
// kept through gpucheck's own JSON, and said by the finding.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "gpucheck_run.hpp"
#include "importers/repo_names.hpp"
#include "test_support.hpp"

using namespace gpucheck;
using namespace gpucheck::test;

namespace {

// vllm-project/vllm#188: Mistral 7B in fp16 on an RTX 2080 Ti (the paste's own note says where it came from).
const std::string kMistralOnTuring = source_path("tests/data/pastes-real/vllm-188-rtx2080ti-mistral7b-oom-capacity.txt");
// torch 2.1's form, "of which 0 bytes is free" (MMed-RAG#38).
const std::string kNothingFree = source_path("tests/data/pastes-real/MMed-RAG-38-rtx4060ti-8gb-oom-batch-size.txt");

std::string oom_message(const std::vector<std::string>& args) {
  const auto r = run_gpucheck(args);
  INFO(r.out << r.err);
  REQUIRE(is_verdict(r.exit_code));
  const auto j = nlohmann::json::parse(r.out);
  for (const auto& f : j["findings"])
    if (f["rule"].get<std::string>().rfind("out-of-memory-capacity", 0) == 0) return f["message"];
  FAIL("no out-of-memory finding");
  return "";
}

}  // namespace

TEST_CASE("oom: the size asked for and the memory free, in both of torch's forms", "[cli][fit]") {
  const auto r = run_gpucheck({"--from", kMistralOnTuring, "probe", "--json"});
  REQUIRE(r.exit_code == 0);
  const auto report = nlohmann::json::parse(r.out)["report"];
  CHECK(report["out_of_memory"]["requested_bytes"] == 224ULL << 20);
  CHECK(report["out_of_memory"]["free_bytes"] == static_cast<std::uint64_t>(46.44 * 1024 * 1024));
  CHECK_THAT(report["out_of_memory"]["source"].get<std::string>(), Catch::EndsWith(".txt:9"));
  REQUIRE(report["repos"].size() == 2);
  CHECK(report["repos"][0]["value"] == "mistralai/Mistral-7B-v0.1");
  CHECK(report["repos"][1]["value"] == "TheBloke/Mistral-7B-OpenOrca-AWQ");
  const auto after = nlohmann::json::parse(run_gpucheck({"--from", kNothingFree, "probe", "--json"}).out)["report"];
  CHECK(after["out_of_memory"]["requested_bytes"] == 64ULL << 20);
  CHECK(after["out_of_memory"]["free_bytes"] == 0);
}

TEST_CASE("oom: a named model is answered with fit's arithmetic, through gpucheck's own JSON too", "[cli][fit]") {
  // Mistral 7B's 7,241,732,096 parameters in 16 bits are 13.49 GiB: more
  // than the 10.73 GiB the paste's GPU has, whatever the batch.
  const auto message = oom_message({"--from", kMistralOnTuring, "check", "--json"});
  CHECK_THAT(message, Catch::Contains("it asked for 224.00 MiB with 46.44 MiB free"));
  CHECK_THAT(message, Catch::Contains("Mistral 7B (mistralai/Mistral-7B-v0.1), whose weights alone take 13.49 GiB in 16 bits, more than the GPU's 10.73 GiB"));
  CHECK_THAT(message, Catch::Contains("gpucheck fit --model mistral-7b"));
  TempDir tmp;
  write_file(tmp.path() / "facts.json", run_gpucheck({"--from", kMistralOnTuring, "probe", "--json"}).out);
  CHECK(oom_message({"--from", (tmp.path() / "facts.json").string(), "check", "--json"}) == message);
  // No model named: what was asked for, and the fix names fit.
  const auto plain = oom_message({"--from", kNothingFree, "check", "--json"});
  CHECK_THAT(plain, Catch::Contains("it asked for 64.00 MiB with 0 bytes free. Nothing in the paste"));
}

TEST_CASE("oom: repositories are owner/name words, not paths or URLs", "[fit]") {
  using V = std::vector<std::string_view>;
  CHECK(repo_names("--model mistralai/Mistral-7B-v0.1 --dtype half") == V{"mistralai/Mistral-7B-v0.1"});
  CHECK(repo_names("from_pretrained(\"meta-llama/Llama-2-7b-hf\")") == V{"meta-llama/Llama-2-7b-hf"});
  CHECK(repo_names("/usr/lib/x86_64-linux-gnu/libcuda.so.1").empty());
  CHECK(repo_names("see https://huggingface.co/meta-llama/Llama-2-7b-hf/blob/main/config.json").empty());
  CHECK(repo_names("./models/llama-7b and ~/x/y7").empty());
  CHECK(repo_names("and/or 12/24").empty());  // no letter and digit both in the name
}
