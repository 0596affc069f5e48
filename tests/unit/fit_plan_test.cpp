// `gpucheck fit`'s plan (issue 35): the layouts it names and the training
// memory it counts, each against a figure published for it, on the matrix's
// own models and GPUs.
#include <catch2/catch.hpp>

#include <string>

#include "cli/fit_gpus.hpp"
#include "fit/fit_plan.hpp"
#include "matrix/lookup.hpp"
#include "matrix/matrix_load.hpp"

using namespace gpucheck;
using namespace gpucheck::fit;

namespace {

const Matrix& matrix() {
  static const Matrix m = [] {
    auto loaded = load_embedded_matrix();
    REQUIRE(loaded);
    return loaded.value();
  }();
  return m;
}

ModelShape model(const char* id) {
  const auto* k = find_model(matrix(), id);
  REQUIRE(k);
  return k->shape;
}

GpuSpec gpu(const char* id) {
  const auto* g = find_gpu_by_id(matrix(), id);
  REQUIRE(g);
  return gpu_spec_of(*g);
}

Workload inference(WeightFormat f, std::int64_t context) {
  Workload w;
  w.weights = f;
  w.context = context;
  return w;
}

std::int64_t part_bytes(const MemoryPlan& p, const std::string& name) {
  for (const auto& part : p.parts)
    if (part.name == name) return part.bytes;
  FAIL("no part " << name);
  return 0;
}

}  // namespace

TEST_CASE("fit: the matrix's models are their config.json, as the tests' transcriptions are", "[fit]") {
  // The ids a user types, the repository's names, and the name as printed.
  CHECK(find_model(matrix(), "llama-2-70b") == find_model(matrix(), "meta-llama/Llama-2-70b-hf"));
  CHECK(find_model(matrix(), "Llama-2-70b-hf") == find_model(matrix(), "Llama 2 70B"));
  CHECK(find_model(matrix(), "llama-2-7") == nullptr);
  const auto s = model("mixtral-8x7b");
  CHECK(s.experts == 8);
  CHECK(s.experts_per_token == 2);
  CHECK(s.max_context == 32768);
  CHECK(model("llama-3.2-1b").tied_embeddings);
  for (const auto& m : matrix().models) {
    INFO(m.id);
    CHECK(m.sources.front() == "https://huggingface.co/" + m.repo + "/blob/main/config.json");
    CHECK(parameter_count(m.shape));
  }
}

TEST_CASE("fit: Llama 2 70B in fp16 needs two A100 80GB, and fits on four", "[fit]") {
  // A buyer's guide: "a 70B model needs four A100 80GB"
  // (https://www.runpod.io/articles/guides/nvidia-a100-gpu-pricing, a
  // serving setup with room for batches); its weights alone, 138 GB, pass
  // one GPU and fit two with the default context of 4,096 tokens.
  const auto s = model("llama-2-70b");
  const auto w = inference(WeightFormat::fp16, s.max_context);
  const auto one = fit::fit(s, w, gpu("a100-sxm4-80gb"), 1, 1);
  CHECK_FALSE(one.fits());
  REQUIRE(one.needed);
  CHECK(one.needed->layout.gpus() == 2);
  CHECK(one.needed->layout.tensor == 2);
  CHECK(part_bytes(*one.needed, "weights") == 68'976'648'192);  // 137,953,296,384 bytes over two
  const auto four = fit::fit(s, w, gpu("a100-sxm4-80gb"), 4, 1);
  CHECK(four.fits());
  CHECK(four.given->layout.gpus() == 2);
  // Its decoding is bound by memory: 2 x 2,039 GB/s over the 138 GB of
  // weights and 1.3 GB of KV cache a token, about 29 tokens a second.
  const auto& decode = four.bounds.front();
  CHECK(decode.phase == "decode");
  CHECK(decode.binding);
  CHECK(*decode.tokens_per_second == Approx(2 * 2039e9 / (137'953'296'384.0 + 1'342'177'280.0)));
}

TEST_CASE("fit: Llama 2 7B in fp16 fits an RTX 4090, Llama 2 13B does not", "[fit]") {
  // "FP16 7B needs at least a 24 GB card": 13.5 GB of weights and 2 GiB of
  // KV cache at 4,096 tokens (https://developer.nvidia.com/blog/mastering-llm-techniques-inference-optimization/).
  const auto seven = fit::fit(model("llama-2-7b"), inference(WeightFormat::fp16, 4096), gpu("rtx-4090"), 1, 1);
  CHECK(seven.fits());
  CHECK(part_bytes(*seven.given, "kv_cache") == 2LL * 32 * 32 * 128 * 4096 * 2);
  const auto thirteen = fit::fit(model("llama-2-13b"), inference(WeightFormat::fp16, 4096), gpu("rtx-4090"), 1, 1);
  CHECK_FALSE(thirteen.fits());
  // The 4090's 1,008 GB/s against the A100 80GB's 2,039 GB/s decides decoding.
  const auto a100 = fit::fit(model("llama-2-7b"), inference(WeightFormat::fp16, 4096), gpu("a100-sxm4-80gb"), 1, 1);
  CHECK(*a100.bounds.front().tokens_per_second / *seven.bounds.front().tokens_per_second == Approx(2039.0 / 1008.0));
}

TEST_CASE("fit: training's model states are ZeRO's 16 bytes a parameter, sharded as ZeRO shards them", "[fit]") {
  // Rajbhandari et al., "ZeRO" (https://arxiv.org/abs/1910.02054), section
  // 3.1: mixed-precision Adam keeps 2 + 2 + 12 bytes a parameter; figure 1,
  // a 7.5B model on 64 data-parallel GPUs: 120 GB a GPU without ZeRO, 31.4
  // GB with stage 1, 16.6 GB with stage 2, 1.9 GB with stage 3. Here on
  // Llama 2 7B: the bytes a parameter are what the figure is made of.
  const auto s = model("llama-2-7b");
  const auto params = *parameter_count(s);
  Workload w;
  w.mode = Mode::training;
  w.weights = WeightFormat::bf16;
  w.context = 1024;
  const auto g = gpu("a100-sxm4-80gb");
  const auto states = [&](int zero, int data) {
    w.zero = zero;
    const auto p = memory_plan(s, w, g, Layout{1, 1, data});
    return part_bytes(p, "weights") + part_bytes(p, "gradients") + part_bytes(p, "optimizer");
  };
  CHECK(states(0, 64) == 16 * params);
  // ZeRO's figure, per parameter: (2 + 2 + 12/64), (2 + 14/64), 16/64.
  const double psi = static_cast<double>(params);
  CHECK(states(1, 64) == Approx(psi * (4 + 12.0 / 64)).epsilon(1e-6));
  CHECK(states(2, 64) == Approx(psi * (2 + 14.0 / 64)).epsilon(1e-6));
  CHECK(states(3, 64) == Approx(psi * 16.0 / 64).epsilon(1e-6));
  // The figure's own numbers for its 7.5B model: 120, 31.4, 16.6 and 1.9 GB.
  const double zero_psi = 7.5e9;
  CHECK(16 * zero_psi / 1e9 == Approx(120));
  CHECK((4 + 12.0 / 64) * zero_psi / 1e9 == Approx(31.4).margin(0.05));
  CHECK((2 + 14.0 / 64) * zero_psi / 1e9 == Approx(16.6).margin(0.05));
  CHECK(16.0 / 64 * zero_psi / 1e9 == Approx(1.9).margin(0.05));
}

TEST_CASE("fit: training needs more GPUs than inference and names the nodes", "[fit]") {
  // Full fine-tuning of Llama 2 70B with AdamW: 16 bytes x 69 billion
  // parameters is 1.1 TB of model states, fourteen 80 GB GPUs before any
  // activation; with 8-way tensor parallelism a stage per ten layers.
  Workload w;
  w.mode = Mode::training;
  w.weights = WeightFormat::bf16;
  w.context = 4096;
  w.checkpointing = true;
  const auto a = fit::fit(model("llama-2-70b"), w, gpu("h100-sxm5-80gb"), 8, 1);
  CHECK_FALSE(a.fits());
  REQUIRE(a.needed);
  CHECK(a.needed->layout.gpus() >= 16 * *parameter_count(model("llama-2-70b")) / (80LL << 30));
  CHECK(a.needed->layout.tensor == 8);
  CHECK(a.nodes_needed == (a.needed->layout.gpus() + 7) / 8);
  // LoRA over int4 weights (QLoRA) holds the same model on one 48 GB GPU
  // ("finetune a 65B parameter model on a single 48GB GPU",
  // https://arxiv.org/abs/2305.14314): Llama 2 70B is a little larger.
  w.lora_rank = 16;
  w.weights = WeightFormat::int4;
  w.context = 512;
  const auto qlora = fit::fit(model("llama-2-70b"), w, gpu("a40"), 1, 1);
  REQUIRE(qlora.given);
  CHECK(qlora.given->total_bytes < 60LL << 30);
  CHECK(part_bytes(*qlora.given, "gradients") < 1LL << 30);
}

TEST_CASE("fit: a GPU without a figure says what is unknown instead of a number", "[fit]") {
  GpuSpec g;
  g.name = "a GPU the matrix does not know";
  g.memory_bytes = {24.0 * (1 << 30), ""};
  const auto a = fit::fit(model("llama-2-7b"), inference(WeightFormat::fp16, 4096), g, 2, 1);
  CHECK(a.fits());
  for (const auto& b : a.bounds) {
    INFO(b.phase);
    CHECK_FALSE(b.tokens_per_second);
    CHECK_THAT(b.basis, Catch::Contains("not"));
  }
  g.memory_bytes = {0, ""};
  const auto none = fit::fit(model("llama-2-7b"), inference(WeightFormat::fp16, 4096), g, 1, 1);
  CHECK(none.cannot_tell);
  CHECK_FALSE(none.fits());
}

TEST_CASE("fit: tensor parallelism splits heads evenly and copies KV heads when it must", "[fit]") {
  const auto s = model("llama-2-70b");  // 64 heads, 8 KV heads
  CHECK(tensor_parallel_degrees(s, 16) == std::vector<int>{1, 2, 4, 8, 16});
  CHECK(tensor_parallel_degrees(model("llama-3.2-3b"), 8) == std::vector<int>{1, 2, 4, 8});  // 24 heads: 3 and 6 split 8 KV heads unevenly
  const auto g = gpu("h100-sxm5-80gb");
  const auto w = inference(WeightFormat::fp16, 4096);
  // 16-way: each KV head held by two GPUs, so the cache splits 8 ways, not 16.
  CHECK(part_bytes(memory_plan(s, w, g, {16, 1}), "kv_cache") == part_bytes(memory_plan(s, w, g, {8, 1}), "kv_cache"));
}

TEST_CASE("fit: layouts keep tensor groups within a node and count the largest pipeline stage", "[fit]") {
  // Llama 2 13B: 40 heads and 40 KV heads split 5 ways, its MLP of 13,824 does not.
  CHECK(tensor_parallel_degrees(model("llama-2-13b"), 8) == std::vector<int>{1, 2, 4, 8});
  // A node of 6 holds one tensor group of 4: 6 nodes hold 6 such groups, not 9.
  const auto s = model("llama-3.1-405b");
  const auto w = inference(WeightFormat::bf16, 4096);
  const auto a = fit::fit(s, w, gpu("l4"), 6, 6);
  REQUIRE(a.given);
  CHECK_FALSE(a.fits());
  CHECK(a.given->layout.pipeline * a.given->layout.data <= 6 * (6 / a.given->layout.tensor));
  REQUIRE(a.needed);
  const auto& l = a.needed->layout;
  CHECK(a.nodes_needed == (l.pipeline * l.data + 6 / l.tensor - 1) / (6 / l.tensor));
  // Three stages of 126 layers: the largest holds 42, and the output layer.
  const auto plan = memory_plan(s, w, gpu("a100-sxm4-80gb"), {4, 3});
  const auto stage = *stage_weight_bytes(s, WeightFormat::bf16, 128, 3);
  CHECK(part_bytes(plan, "weights") == (stage + 3) / 4);
  const auto layer = (*weight_bytes(s, WeightFormat::bf16) - 2 * (2LL * 128256 * 16384 + 16384)) / 126;
  CHECK(stage == 42 * layer + 2 * (128256LL * 16384 + 16384));
  CHECK(*stage_weight_bytes(s, WeightFormat::bf16, 128, 1) == *weight_bytes(s, WeightFormat::bf16));
}

TEST_CASE("fit: training's link ceiling counts every tensor group's tokens", "[fit]") {
  // Megatron-LM: 4 all-reduces of the hidden state a layer and token in
  // training, a ring sending 2(t-1)/t of each; every stage's group carries
  // its own share of the layers, every data-parallel copy its own tokens.
  Workload w;
  w.mode = Mode::training;
  w.context = 4096;
  w.checkpointing = true;
  const auto s = model("llama-3.1-70b");
  const auto g = gpu("h100-sxm5-80gb");
  const auto a = fit::fit(s, w, g, 8, 8);
  REQUIRE(a.fits());
  const auto& l = a.given->layout;
  REQUIRE(l.tensor == 8);
  REQUIRE(l.pipeline > 1);
  const double per_token = 4.0 * 80 * 2 * 7.0 / 8 * 8192 * 2;
  for (const auto& b : a.bounds)
    if (b.phase == "link") CHECK(*b.tokens_per_second == Approx(g.link_gbs->value * 1e9 / per_token * l.pipeline * l.data));
}
