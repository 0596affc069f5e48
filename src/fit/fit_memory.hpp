// What a model's weights and KV cache take on GPUs, computed exactly from
// its shape (model_shape.hpp): the parameters a Llama-family decoder has,
// their bytes in a weights format, and the K and V every layer keeps per
// token. Estimates (activations, a runtime's margin) are not here: only
// what follows from the shape without assumption (docs/fit.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "fit/model_shape.hpp"

namespace gpucheck::fit {

// int4 is AWQ's layout, int4_gptq GPTQ's (the same, and each input row's
// group index); both, and fp8 and int8, quantise the blocks' linear layers
// only: embeddings, the output layer, norms and routers stay 16-bit.
enum class WeightFormat { fp32, bf16, fp16, fp8, int8, int4, int4_gptq };
std::optional<WeightFormat> weight_format_named(std::string_view name);  // "fp16", "int4", "int4-gptq", ...
std::string weight_format_name(WeightFormat f);
// int4's two packings: weights in groups, each with its scale and zero.
inline bool grouped(WeightFormat f) { return f == WeightFormat::int4 || f == WeightFormat::int4_gptq; }

// Every weight: embeddings, each layer's attention (q, k, v, o), MLP (gate,
// up, down; each expert's, and the router), both norms, the final norm and
// the output layer unless it is tied to the embeddings. nullopt past 2^63.
std::optional<std::int64_t> parameter_count(const ModelShape& s);
// Those one token passes through: experts_per_token of the experts.
std::optional<std::int64_t> active_parameter_count(const ModelShape& s);

// The parameters of the blocks' linear layers (attention's q, k, v, o; each
// MLP's or expert's gate, up, down): what the quantised formats quantise.
std::optional<std::int64_t> linear_parameter_count(const ModelShape& s);

// LoRA's adapters of `rank` on every one of those layers (QLoRA's choice):
// rank x (inputs + outputs) each.
std::optional<std::int64_t> lora_parameter_count(const ModelShape& s, std::int64_t rank);

// Bytes of the weights as a checkpoint stores them: 4 or 2 bytes a
// parameter; fp8 and int8 one byte a linear layer's weight (their scales,
// a few per layer, not counted); int4 as AutoAWQ and AutoGPTQ pack a
// linear layer of `in` x `out`: in x out / 2 bytes of weights, and per
// `group_size` inputs a row of int4 zeros and of fp16 scales (GPTQ: and an
// int32 group index per input).
std::optional<std::int64_t> weight_bytes(const ModelShape& s, WeightFormat f, std::int64_t group_size = 128);

// The largest of `stages` pipeline stages: ceil(layers / stages) layers and,
// past one stage, the last stage's final norm and output layer (no smaller
// than the first's embeddings; a tied output layer is a copy there). Its
// parameters, and its bytes in a format (the ends 16-bit, or 32).
std::optional<std::int64_t> stage_parameter_count(const ModelShape& s, std::int64_t stages);
std::optional<std::int64_t> stage_weight_bytes(const ModelShape& s, WeightFormat f, std::int64_t group_size, std::int64_t stages);
std::int64_t stage_layers(const ModelShape& s, std::int64_t stages);  // ceil(layers / stages)

// K and V, every layer, every KV head, for `tokens` tokens (batch x
// context), `element_bytes` each (2 for fp16/bf16, 1 for fp8).
std::optional<std::int64_t> kv_cache_bytes(const ModelShape& s, std::int64_t tokens, std::int64_t element_bytes);

}  // namespace gpucheck::fit
