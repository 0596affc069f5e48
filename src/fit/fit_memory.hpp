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

enum class WeightFormat { fp32, bf16, fp16, fp8, int8, int4 };
std::optional<WeightFormat> weight_format_named(std::string_view name);  // "fp16", "int4", ...

// Every weight: embeddings, each layer's attention (q, k, v, o), MLP (gate,
// up, down; each expert's, and the router), both norms, the final norm and
// the output layer unless it is tied to the embeddings. nullopt past 2^63.
std::optional<std::int64_t> parameter_count(const ModelShape& s);
// Those one token passes through: experts_per_token of the experts.
std::optional<std::int64_t> active_parameter_count(const ModelShape& s);

// Bytes of the weights: 4, 2, 2, 1, 1 bytes a parameter; int4 half a byte
// and one fp16 scale per `group_size` parameters (GPTQ's and AWQ's layout).
std::optional<std::int64_t> weight_bytes(const ModelShape& s, WeightFormat f, std::int64_t group_size = 128);

// K and V, every layer, every KV head, for `tokens` tokens (batch x
// context), `element_bytes` each (2 for fp16/bf16, 1 for fp8).
std::optional<std::int64_t> kv_cache_bytes(const ModelShape& s, std::int64_t tokens, std::int64_t element_bytes);

}  // namespace gpucheck::fit
