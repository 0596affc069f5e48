// What a model's weights and KV cache take, exactly (issue 35, the core of
// `gpucheck fit`): each expectation is a figure published for that model,
// with its source; the shapes are the models' config.json fields as
// published (transcribed here, not downloaded).
#include <catch2/catch.hpp>

#include <string>

#include "fit/fit_memory.hpp"
#include "fit/model_shape.hpp"

using namespace gpucheck::fit;

namespace {

ModelShape shape(const std::string& json) {
  auto s = read_model_config(json, "config.json");
  INFO((s ? std::string() : s.problem().detail));
  REQUIRE(s);
  return s.value();
}

// https://huggingface.co/meta-llama/Llama-2-7b-hf/blob/main/config.json
const char* kLlama2_7b = R"({"architectures": ["LlamaForCausalLM"], "hidden_size": 4096, "intermediate_size": 11008,
  "max_position_embeddings": 4096, "model_type": "llama", "num_attention_heads": 32, "num_hidden_layers": 32,
  "num_key_value_heads": 32, "tie_word_embeddings": false, "torch_dtype": "float16", "vocab_size": 32000})";
// https://huggingface.co/meta-llama/Llama-2-70b-hf/blob/main/config.json
const char* kLlama2_70b = R"({"hidden_size": 8192, "intermediate_size": 28672, "num_attention_heads": 64,
  "num_hidden_layers": 80, "num_key_value_heads": 8, "vocab_size": 32000})";
// https://huggingface.co/meta-llama/Meta-Llama-3-8B/blob/main/config.json
const char* kLlama3_8b = R"({"hidden_size": 4096, "intermediate_size": 14336, "num_attention_heads": 32,
  "num_hidden_layers": 32, "num_key_value_heads": 8, "vocab_size": 128256, "tie_word_embeddings": false})";
// https://huggingface.co/meta-llama/Meta-Llama-3-70B/blob/main/config.json
const char* kLlama3_70b = R"({"hidden_size": 8192, "intermediate_size": 28672, "num_attention_heads": 64,
  "num_hidden_layers": 80, "num_key_value_heads": 8, "vocab_size": 128256})";
// https://huggingface.co/mistralai/Mixtral-8x7B-v0.1/blob/main/config.json
const char* kMixtral = R"({"hidden_size": 4096, "intermediate_size": 14336, "num_attention_heads": 32,
  "num_hidden_layers": 32, "num_key_value_heads": 8, "vocab_size": 32000, "num_local_experts": 8,
  "num_experts_per_tok": 2, "tie_word_embeddings": false})";

}  // namespace

TEST_CASE("fit: the weights of published models, to the byte of their checkpoints", "[fit]") {
  // Llama 2 7B: pytorch_model.bin.index.json's total_size is 13,476,839,424
  // bytes (https://huggingface.co/meta-llama/Llama-2-7b-hf/blob/main/pytorch_model.bin.index.json):
  // the fp16 weights and, besides them, each layer's rotary inv_freq buffer
  // (64 fp32 values x 32 layers = 8,192 bytes), which is no parameter.
  CHECK(*weight_bytes(shape(kLlama2_7b), WeightFormat::fp16) + 64 * 4 * 32 == 13'476'839'424);
  CHECK(*parameter_count(shape(kLlama2_7b)) == 6'738'415'616);
  // Llama 3 8B: model.safetensors.index.json, total_size 16,060,522,496 bf16 bytes
  // (https://huggingface.co/meta-llama/Meta-Llama-3-8B/blob/main/model.safetensors.index.json).
  CHECK(*weight_bytes(shape(kLlama3_8b), WeightFormat::bf16) == 16'060'522'496);
  // Llama 3 70B: the same shape as Llama 3.1 70B, whose index says 141,107,412,992
  // (https://huggingface.co/meta-llama/Llama-3.1-70B/blob/main/model.safetensors.index.json).
  CHECK(*weight_bytes(shape(kLlama3_70b), WeightFormat::bf16) == 141'107'412'992);
  // Mixtral 8x7B: 93,405,585,408 bf16 bytes, every expert's MLP and the routers
  // (https://huggingface.co/mistralai/Mixtral-8x7B-v0.1/blob/main/model.safetensors.index.json).
  CHECK(*weight_bytes(shape(kMixtral), WeightFormat::bf16) == 93'405'585'408);
  // A token passes through 2 of the 8 experts: "12.9B active parameters"
  // (https://mistral.ai/news/mixtral-of-experts/).
  const auto active = *active_parameter_count(shape(kMixtral));
  CHECK(active > 12'850'000'000);
  CHECK(active < 12'950'000'000);
  // Formats are bytes a parameter: fp32 twice fp16, fp8 and int8 half, int4
  // a quarter plus one fp16 scale per 128 weights.
  const auto s = shape(kLlama2_70b);
  const auto n = *parameter_count(s);
  CHECK(*weight_bytes(s, WeightFormat::fp32) == 4 * n);
  CHECK(*weight_bytes(s, WeightFormat::fp8) == n);
  CHECK(*weight_bytes(s, WeightFormat::int4) == (n + 1) / 2 + (n + 127) / 128 * 2);
  CHECK(*weight_bytes(s, WeightFormat::int4, 32) > *weight_bytes(s, WeightFormat::int4, 128));
}

TEST_CASE("fit: the KV cache, exactly as published", "[fit]") {
  // NVIDIA, "Mastering LLM Techniques: Inference Optimization": Llama 2 7B in
  // 16-bit, batch 1, 4096 tokens: 1 * 4096 * 2 * 32 * 4096 * 2 bytes, "~2 GB"
  // (https://developer.nvidia.com/blog/mastering-llm-techniques-inference-optimization/).
  CHECK(*kv_cache_bytes(shape(kLlama2_7b), 4096, 2) == 1LL * 4096 * 2 * 32 * 4096 * 2);
  // Grouped-query attention keeps 8 KV heads of 64: Llama 2 70B at 4,096 tokens
  // in fp16 is 1,342,177,280 bytes
  // (https://fcalabri.github.io/bmwg-ai-fabric-inference-bench/Acronyms/draft-calabria-bmwg-ai-fabric-inference-bench.html).
  CHECK(*kv_cache_bytes(shape(kLlama2_70b), 4096, 2) == 1'342'177'280);
  // fp8 halves it; a batch of 8 is eight times one.
  CHECK(*kv_cache_bytes(shape(kLlama3_8b), 8 * 8192, 1) == 8 * *kv_cache_bytes(shape(kLlama3_8b), 8192, 2) / 2);
}

TEST_CASE("fit: a config.json that is no model says which field and what was expected", "[fit]") {
  const auto problem = [](const std::string& json) {
    auto s = read_model_config(json, "x/config.json");
    REQUIRE_FALSE(s);
    CHECK(s.problem().where == "x/config.json");
    return s.problem().detail;
  };
  CHECK_THAT(problem("[1, 2]"), Catch::Contains("not a JSON object"));
  CHECK_THAT(problem("{\"hidden_size\": 4096"), Catch::Contains("not a JSON object"));
  CHECK_THAT(problem("{\"hidden_size\": 4096, \"model_type\": \"\xff\xfe\"}"), Catch::Contains("not a JSON object"));  // invalid UTF-8
  CHECK_THAT(problem(R"({"hidden_size": 4096})"), Catch::StartsWith("num_hidden_layers: expected a whole number"));
  CHECK_THAT(problem(R"({"hidden_size": "4096", "num_hidden_layers": 32})"), Catch::StartsWith("hidden_size: expected a whole number"));
  CHECK_THAT(problem(R"({"hidden_size": 4096, "num_hidden_layers": -1, "num_attention_heads": 32, "intermediate_size": 1, "vocab_size": 1})"),
             Catch::StartsWith("num_hidden_layers:"));
  CHECK_THAT(problem(R"({"hidden_size": 1e30, "num_hidden_layers": 1, "num_attention_heads": 1, "intermediate_size": 1, "vocab_size": 1})"),
             Catch::StartsWith("hidden_size:"));
  CHECK_THAT(problem(R"({"hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 5,
                         "intermediate_size": 11008, "vocab_size": 32000})"),
             Catch::Contains("does not divide"));
  CHECK_THAT(problem(R"({"hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32, "intermediate_size": 11008,
                         "vocab_size": 32000, "num_local_experts": 2, "num_experts_per_tok": 3})"),
             Catch::Contains("more than num_local_experts"));
  // At the limit of every field, the arithmetic says it cannot, not a wrapped number.
  const auto huge = shape(R"({"hidden_size": 10000000, "num_hidden_layers": 10000000, "num_attention_heads": 1,
                             "intermediate_size": 10000000, "vocab_size": 10000000})");
  CHECK_FALSE(parameter_count(huge));
  CHECK_FALSE(kv_cache_bytes(huge, 10'000'000, 2));
  // Tied embeddings count once; absent KV heads are the attention heads.
  const auto tied = shape(R"({"hidden_size": 64, "num_hidden_layers": 1, "num_attention_heads": 4, "intermediate_size": 128,
                             "vocab_size": 1000, "tie_word_embeddings": true})");
  CHECK(tied.kv_heads == 4);
  CHECK(tied.head_dim == 16);
  CHECK(*parameter_count(tied) == 1000 * 64 + (64 * 64 * 4 + 3 * 64 * 128 + 2 * 64) + 64);
}
