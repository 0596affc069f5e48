#include "fit/fit_memory.hpp"

#include <initializer_list>

namespace gpucheck::fit {

namespace {

// Products and sums that say so when they pass what an int64 holds: a
// config.json is untrusted, its dimensions each up to 10^7.
std::optional<std::int64_t> product(std::initializer_list<std::int64_t> factors) {
  std::int64_t out = 1;
  for (auto f : factors)
    if (__builtin_mul_overflow(out, f, &out)) return std::nullopt;
  return out;
}

std::optional<std::int64_t> sum(std::initializer_list<std::optional<std::int64_t>> terms) {
  std::int64_t out = 0;
  for (auto t : terms)
    if (!t || __builtin_add_overflow(out, *t, &out)) return std::nullopt;
  return out;
}

// One layer's weights with `experts` of its MLPs counted.
std::optional<std::int64_t> layer_parameters(const ModelShape& s, std::int64_t experts) {
  const std::int64_t q_width = s.heads * s.head_dim, kv_width = s.kv_heads * s.head_dim;
  return sum({product({s.hidden, q_width}),               // q
              product({2, s.hidden, kv_width}),           // k, v
              product({q_width, s.hidden}),               // o
              product({experts, 3, s.hidden, s.intermediate}),  // gate, up, down
              s.experts > 0 ? product({s.hidden, s.experts}) : std::optional<std::int64_t>(0),  // the router
              product({2, s.hidden})});                   // the two norms
}

std::optional<std::int64_t> parameters_with(const ModelShape& s, std::int64_t experts) {
  const auto embeddings = product({s.vocab, s.hidden});
  const auto layers = layer_parameters(s, experts);
  return sum({embeddings, layers ? product({s.layers, *layers}) : std::nullopt, s.hidden,
              s.tied_embeddings ? std::optional<std::int64_t>(0) : embeddings});
}

}  // namespace

std::optional<WeightFormat> weight_format_named(std::string_view name) {
  if (name == "fp32") return WeightFormat::fp32;
  if (name == "bf16") return WeightFormat::bf16;
  if (name == "fp16") return WeightFormat::fp16;
  if (name == "fp8") return WeightFormat::fp8;
  if (name == "int8") return WeightFormat::int8;
  if (name == "int4") return WeightFormat::int4;
  return std::nullopt;
}

std::optional<std::int64_t> parameter_count(const ModelShape& s) { return parameters_with(s, s.experts > 0 ? s.experts : 1); }

std::optional<std::int64_t> active_parameter_count(const ModelShape& s) {
  return parameters_with(s, s.experts > 0 ? s.experts_per_token : 1);
}

std::optional<std::int64_t> weight_bytes(const ModelShape& s, WeightFormat f, std::int64_t group_size) {
  const auto n = parameter_count(s);
  if (!n) return std::nullopt;
  switch (f) {
    case WeightFormat::fp32: return product({*n, 4});
    case WeightFormat::bf16:
    case WeightFormat::fp16: return product({*n, 2});
    case WeightFormat::fp8:
    case WeightFormat::int8: return *n;
    case WeightFormat::int4:
      if (group_size <= 0) return std::nullopt;
      return sum({(*n + 1) / 2, product({(*n + group_size - 1) / group_size, 2})});
  }
  return std::nullopt;
}

std::optional<std::int64_t> kv_cache_bytes(const ModelShape& s, std::int64_t tokens, std::int64_t element_bytes) {
  return product({2, s.layers, s.kv_heads, s.head_dim, tokens, element_bytes});
}

}  // namespace gpucheck::fit
