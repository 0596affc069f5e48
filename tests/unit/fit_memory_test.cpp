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
  // Llama 2 70B: the safetensors index says 137,953,316,864 bytes, the fp16
  // weights and 80 layers' rotary buffers (64 fp32 each): the index as a
  // post reproduces it (https://unknown-nlp.github.io/blog/2024/how-to-inference-big-llm-using).
  CHECK(*weight_bytes(shape(kLlama2_70b), WeightFormat::fp16) + 64 * 4 * 80 == 137'953'316'864);
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
  // fp32 is twice fp16; fp8 and int8 quantise the blocks' linear layers
  // and keep the embeddings, the output layer and the norms in 16 bits.
  const auto s = shape(kLlama2_70b);
  const auto n = *parameter_count(s), linear = *linear_parameter_count(s);
  CHECK(*weight_bytes(s, WeightFormat::fp32) == 4 * n);
  CHECK(*weight_bytes(s, WeightFormat::fp8) == linear + 2 * (n - linear));
  CHECK(n - linear == 2LL * 32000 * 8192 + 8192 + 80LL * 2 * 8192);
  CHECK(*weight_bytes(s, WeightFormat::int4, 32) > *weight_bytes(s, WeightFormat::int4, 128));
}

TEST_CASE("fit: int4 weights, to the byte of published GPTQ and AWQ checkpoints", "[fit]") {
  // Llama 3 70B in GPTQ, 4 bits, groups of 128, desc_act: total_size
  // 39,792,689,152 (https://huggingface.co/cortecs/Smaug-Llama-3-70B-Instruct-GPTQ-4b/blob/main/gptq_model-4bit-128g.safetensors.index.json,
  // a fine-tune of Llama 3 70B, its shape): qweight, qzeros, scales and
  // g_idx for every projection (AutoGPTQ's packing,
  // https://github.com/AutoGPTQ/AutoGPTQ/blob/main/auto_gptq/nn_modules/qlinear/qlinear_cuda_old.py),
  // the embeddings, output layer and norms unquantised.
  CHECK(*weight_bytes(shape(kLlama3_70b), WeightFormat::int4_gptq, 128) == 39'792'689'152);
  // The same model in AWQ, groups of 128 (no g_idx): total_size 39,767,785,472
  // (https://github.com/llmariner/inference-manager/blob/2b95056a96da64f2f9428fc91f1f2988e49f9337/engine/internal/huggingface/safetensors_test.go,
  // the index of Meta-Llama-3.1-70B-Instruct-AWQ-INT4; AutoAWQ's packing,
  // https://github.com/casper-hansen/AutoAWQ/blob/main/awq/modules/linear/gemm.py).
  CHECK(*weight_bytes(shape(kLlama3_70b), WeightFormat::int4, 128) == 39'767'785'472);
  // AWQ checkpoints of the other models, as their repositories' file lists
  // show them (decimal GB, rounded to two places; each file a little more
  // for its header): Llama 2 7B 3.89 GB
  // (https://huggingface.co/TheBloke/Llama-2-7B-AWQ/blob/main/model.safetensors),
  // Llama 2 70B 9.94 + 9.9 + 9.9 + 6.87 GB (https://huggingface.co/TheBloke/Llama-2-70B-AWQ/tree/main),
  // Llama 3.1 8B, Llama 3 8B's shape, 4.68 + 1.05 GB
  // (https://huggingface.co/hugging-quants/Meta-Llama-3.1-8B-Instruct-AWQ-INT4/tree/main),
  // Mixtral 8x7B 9.97 + 9.98 + 4.7 GB (https://huggingface.co/TheBloke/mixtral-8x7b-v0.1-AWQ/tree/main).
  const auto gb = [](const char* config) { return static_cast<double>(*weight_bytes(shape(config), WeightFormat::int4)) / 1e9; };
  CHECK(gb(kLlama2_7b) == Approx(3.89).margin(0.005));
  CHECK(gb(kLlama2_70b) == Approx(9.94 + 9.9 + 9.9 + 6.87).margin(0.03));
  CHECK(gb(kLlama3_8b) == Approx(4.68 + 1.05).margin(0.01));
  CHECK(gb(kMixtral) == Approx(9.97 + 9.98 + 4.7).margin(0.02));
  // GPTQ differs from AWQ by one int32 a linear layer's input row.
  const auto s = shape(kLlama2_7b);
  const std::int64_t inputs_per_layer = 4096 * 4 + 4096 * 2 + 11008;  // q k v o, gate up, down
  CHECK(*weight_bytes(s, WeightFormat::int4_gptq) - *weight_bytes(s, WeightFormat::int4) == 32 * inputs_per_layer * 4);
  // Mixtral's experts are quantised, each its own linear layers; its routers are not.
  const auto m = shape(kMixtral);
  CHECK(*weight_bytes(m, WeightFormat::int4) < *weight_bytes(m, WeightFormat::bf16) / 3);
  CHECK(*weight_bytes(m, WeightFormat::int4) > *weight_bytes(m, WeightFormat::bf16) / 4);
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
  // Llama 3.1 8B and 70B (Llama 3's shapes) in FP16: 0.125 GB and 0.313 GB
  // for 1k tokens (GiB of 1,024 tokens: 128 KiB and 320 KiB a token),
  // https://huggingface.co/blog/llama31, "Inference Memory Requirements".
  CHECK(*kv_cache_bytes(shape(kLlama3_8b), 1024, 2) == 134'217'728);   // 0.125 GiB
  CHECK(*kv_cache_bytes(shape(kLlama3_70b), 1024, 2) == 335'544'320);  // 0.3125 GiB
  // Mixtral 8x7B: 256 MiB for a 2,048-token context, as llama.cpp allocates
  // it (a user's measurement: https://huggingface.co/dranger003/c4ai-command-r-v01-iMat.GGUF/discussions/6);
  // its experts share one attention, so its cache is Mistral 7B's.
  CHECK(*kv_cache_bytes(shape(kMixtral), 2048, 2) == 256LL << 20);
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
