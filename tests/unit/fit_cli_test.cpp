// `gpucheck fit` from the command line (issue 35): its exit codes, the GPUs
// it answers for (named, a fixture host's, a paste's, none), its JSON, and
// what it says of a bad flag or a hostile config.json.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <string>

#include "gpucheck_run.hpp"
#include "test_support.hpp"

using namespace gpucheck;
using namespace gpucheck::test;

namespace {

const std::string kHosts = source_path("tests/fixtures/hosts/");

// Llama 2 7B's config.json as published
// (https://huggingface.co/meta-llama/Llama-2-7b-hf/blob/main/config.json).
const char* kLlama2_7b = R"({"architectures": ["LlamaForCausalLM"], "bos_token_id": 1, "eos_token_id": 2, "hidden_act": "silu",
  "hidden_size": 4096, "initializer_range": 0.02, "intermediate_size": 11008, "max_position_embeddings": 4096,
  "model_type": "llama", "num_attention_heads": 32, "num_hidden_layers": 32, "num_key_value_heads": 32,
  "pretraining_tp": 1, "rms_norm_eps": 1e-05, "rope_scaling": null, "tie_word_embeddings": false,
  "torch_dtype": "float16", "transformers_version": "4.31.0.dev0", "use_cache": true, "vocab_size": 32000})";

nlohmann::json json_of(const CommandResult& r) {
  INFO(r.err);
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  REQUIRE_FALSE(j.is_discarded());
  return j;
}

}  // namespace

TEST_CASE("fit: Llama 2 70B on A100 80GB names the count it needs, and fits on four", "[cli][fit]") {
  const auto one = run_gpucheck({"fit", "--model", "llama-2-70b", "--dtype", "fp16", "--gpu", "a100-sxm4-80gb"});
  INFO(one.out << one.err);
  CHECK(one.exit_code == 1);
  CHECK_THAT(one.out, Catch::Contains("DOES NOT FIT") && Catch::Contains("it needs 2 GPUs (tensor parallel 2)") &&
                          Catch::Contains("--count 2"));
  const auto four = run_gpucheck({"fit", "--model", "llama-2-70b", "--dtype", "fp16", "--gpu", "a100-sxm4-80gb", "--count", "4"});
  CHECK(four.exit_code == 0);
  CHECK_THAT(four.out, Catch::Contains("FITS") && Catch::Contains("of the 4 given"));
  const auto rtx = run_gpucheck({"fit", "--model", "llama-2-7b", "--dtype", "fp16", "--gpu", "rtx 4090"});
  CHECK(rtx.exit_code == 0);
}

TEST_CASE("fit --json: the layout, every part with how it was counted, every ceiling with its source", "[cli][fit]") {
  const auto r = run_gpucheck({"fit", "--model", "llama-2-70b", "--dtype", "fp16", "--gpu", "a100-sxm4-80gb", "--json"});
  CHECK(r.exit_code == 1);
  const auto j = json_of(r);
  CHECK(j["schema"] == "gpucheck.fit/1");
  CHECK(j["verdict"] == "does-not-fit");
  CHECK(j["parameters"] == 68'976'648'192);
  CHECK(j["given"]["fits"] == false);
  CHECK(j["needed"]["layout"]["gpus"] == 2);
  CHECK(j["needed"]["layout"]["tensor_parallel"] == 2);
  for (const auto& part : j["needed"]["parts"]) {
    INFO(part.dump());
    CHECK(part["bytes"].get<long long>() > 0);
    CHECK(part["estimate"] == (part["part"] == "reserve"));
    if (part["estimate"] == true) CHECK(part["source"].get<std::string>().rfind("https://", 0) == 0);
  }
  REQUIRE(j["bounds"].size() == 3);  // decode, prefill, the NVLink between the two
  for (const auto& b : j["bounds"]) {
    INFO(b.dump());
    CHECK(b["tokens_per_second"].get<double>() > 0);
    CHECK(b["source"].get<std::string>().rfind("https://", 0) == 0);
  }
  CHECK(j["gpus"]["memory_source"].get<std::string>().rfind("https://", 0) == 0);
}

TEST_CASE("fit: a host with no GPU says so and still answers for a named one", "[cli][fit]") {
  const auto none = run_gpucheck({"--root", kHosts + "cpu-only", "fit", "--model", "llama-3-8b"});
  CHECK(none.exit_code == 2);
  CHECK(none.out.empty());
  CHECK_THAT(none.err, Catch::StartsWith("gpucheck: error: ") && Catch::Contains("shows no GPU") && Catch::Contains("--gpu ID"));
  const auto named = run_gpucheck({"--root", kHosts + "cpu-only", "fit", "--model", "llama-3-8b", "--gpu", "l40s"});
  CHECK(named.exit_code == 0);
  CHECK_THAT(named.out, Catch::Contains("(named)"));
}

TEST_CASE("fit: a host's GPUs are counted and sized as they report themselves", "[cli][fit]") {
  const auto r = run_gpucheck({"--root", kHosts + "h100-sxm-8gpu", "fit", "--model", "llama-2-70b", "--json"});
  CHECK(r.exit_code == 0);
  const auto j = json_of(r);
  CHECK(j["gpus"]["per_node"] == 8);
  CHECK(j["gpus"]["id"] == "h100-sxm5-80gb");
  // 79.6 GiB as the CUDA driver reports it, not the datasheet's 80.
  CHECK(j["gpus"]["memory_bytes"].get<long long>() < 80LL << 30);
  CHECK(j["gpus"]["memory_note"] == "as the CUDA driver reports it");
  CHECK(j["given"]["layout"]["gpus"] == 2);
  // A paste of nvidia-smi -q is a host too: its two H100 NVL, and the PCIe
  // link it reports between them (no NVLink bridge is assumed).
  const auto paste = run_gpucheck({"--from", source_path("tests/fixtures/captures/h100-nvl-2gpu_550.txt"), "fit", "--model", "llama-2-70b",
                                   "--dtype", "fp16", "--json"});
  CHECK(paste.exit_code == 0);
  const auto p = json_of(paste);
  CHECK(p["gpus"]["per_node"] == 2);
  CHECK(p["gpus"]["name"] == "NVIDIA H100 NVL");
  CHECK_THAT(p["gpus"]["link"].get<std::string>(), Catch::StartsWith("PCIe"));
}

TEST_CASE("fit: a config.json, or its directory, is read as the matrix's model is", "[cli][fit]") {
  TempDir tmp;
  write_file(tmp.path() / "config.json", kLlama2_7b);
  const auto by_file = run_gpucheck({"fit", "--model", (tmp.path() / "config.json").string(), "--gpu", "l4", "--json"});
  const auto by_dir = run_gpucheck({"fit", "--model", tmp.str(), "--gpu", "l4", "--json"});
  const auto by_id = run_gpucheck({"fit", "--model", "llama-2-7b", "--gpu", "l4", "--json"});
  CHECK(json_of(by_file)["given"]["total_bytes"] == json_of(by_id)["given"]["total_bytes"]);
  CHECK(json_of(by_dir)["given"] == json_of(by_file)["given"]);
  CHECK(json_of(by_file)["model"]["config"] == (tmp.path() / "config.json").string());
}

TEST_CASE("fit: a hostile or foreign config.json is a clear error", "[cli][fit]") {
  TempDir tmp;
  const auto error_for = [&](const std::string& text) {
    write_file(tmp.path() / "config.json", text);
    const auto r = run_gpucheck({"fit", "--model", tmp.str(), "--gpu", "h100-sxm5-80gb"});
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    return r.err;
  };
  CHECK_THAT(error_for("not json"), Catch::Contains("config.json") && Catch::Contains("not a JSON object"));
  CHECK_THAT(error_for(R"({"hidden_size": 1e300, "num_hidden_layers": 1})"), Catch::Contains("hidden_size: expected a whole number"));
  CHECK_THAT(error_for(R"({"hidden_size": 7168, "num_hidden_layers": 61, "n_routed_experts": 256, "kv_lora_rank": 512})"),
             Catch::Contains("not read yet"));
  CHECK_THAT(error_for(R"({"text_config": {"hidden_size": 4096}})"), Catch::Contains("text_config"));
  // The largest dimensions a config may give: an answer, or a refusal, never a wrapped number.
  const auto huge = R"({"hidden_size": 10000000, "num_hidden_layers": 10000000, "num_attention_heads": 1,
                        "intermediate_size": 10000000, "vocab_size": 10000000})";
  write_file(tmp.path() / "config.json", huge);
  const auto r = run_gpucheck({"fit", "--model", tmp.str(), "--gpu", "h100-sxm5-80gb"});
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.out, Catch::Contains("CANNOT TELL"));
  // The largest workload the flags take: refused the same way, not overflowed.
  const auto workload = run_gpucheck({"fit", "--model", "llama-3.1-405b", "--train", "--lora", "65536", "--context", "10000000",
                                      "--batch", "1000000", "--gpu", "h100-sxm5-80gb", "--count", "64", "--nodes", "4096", "--zero", "3"});
  CHECK(workload.exit_code == 2);
  CHECK_THAT(workload.out, Catch::Contains("CANNOT TELL"));
  // A file far larger than any config is refused unread.
  write_file(tmp.path() / "config.json", std::string(5 << 20, ' '));
  const auto big = run_gpucheck({"fit", "--model", tmp.str(), "--gpu", "h100-sxm5-80gb"});
  CHECK(big.exit_code == 2);
  CHECK_THAT(big.err, Catch::Contains("config.json: larger than 4 MiB"));
}

TEST_CASE("fit: a bad flag says what was expected and the word meant", "[cli][fit]") {
  const auto err = [](const std::vector<std::string>& args) {
    const auto r = run_gpucheck(args);
    CHECK(r.exit_code == 2);
    return r.err;
  };
  CHECK_THAT(err({"fit", "--model", "lama-2-7b", "--gpu", "l4"}), Catch::Contains("did you mean \"llama-2-7b\""));
  CHECK_THAT(err({"fit", "--model", "llama-2-7b", "--gpu", "a100"}), Catch::Contains("names 4 GPUs") && Catch::Contains("a100-sxm4-80gb"));
  CHECK_THAT(err({"fit", "--model", "llama-2-7b", "--gpu", "no-such-gpu"}), Catch::Contains("--compare"));
  CHECK_THAT(err({"fit", "--model", "llama-2-7b", "--gpu", "l4", "--dtype", "fp61"}), Catch::Contains("fp16"));
  CHECK_THAT(err({"fit", "--model", "llama-2-7b", "--gpu", "l4", "--zero", "2"}), Catch::Contains("--train"));
  CHECK_THAT(err({"fit", "--model", "llama-2-7b", "--gpu", "l4", "--train", "--dtype", "int4"}), Catch::Contains("--lora"));
  CHECK_THAT(err({"fit", "--gpu", "l4"}), Catch::Contains("--model"));
}

TEST_CASE("fit --compare: every GPU the matrix sizes, the fewest first", "[cli][fit]") {
  const auto r = run_gpucheck({"fit", "--model", "llama-3-70b", "--dtype", "fp8", "--context", "8192", "--compare", "--json"});
  CHECK(r.exit_code == 0);
  const auto j = json_of(r);
  REQUIRE(j["gpus"].size() > 20);
  int previous = 0;
  bool h100 = false;
  for (const auto& g : j["gpus"]) {
    if (g["layout"].is_null()) continue;
    const int gpus = g["layout"]["gpus"];
    CHECK(gpus >= previous);
    previous = gpus;
    h100 = h100 || g["id"] == "h100-sxm5-80gb";
  }
  CHECK(h100);
  const auto text = run_gpucheck({"fit", "--model", "llama-3-70b", "--compare"});
  CHECK(text.exit_code == 0);
  CHECK_THAT(text.out, Catch::Contains("h200-sxm-141gb"));
}
