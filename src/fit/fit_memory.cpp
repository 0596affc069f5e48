#include "fit/fit_memory.hpp"

#include <algorithm>
#include <initializer_list>
#include <utility>
#include <vector>

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

constexpr std::pair<WeightFormat, std::string_view> kFormatNames[] = {
    {WeightFormat::fp32, "fp32"}, {WeightFormat::bf16, "bf16"}, {WeightFormat::fp16, "fp16"},          {WeightFormat::fp8, "fp8"},
    {WeightFormat::int8, "int8"}, {WeightFormat::int4, "int4"}, {WeightFormat::int4_gptq, "int4-gptq"}};

struct Linear {
  std::int64_t in, out, copies;
};

// Every linear layer of one block, with how many of it there are.
std::vector<Linear> block_linears(const ModelShape& s) {
  const std::int64_t q = s.heads * s.head_dim, kv = s.kv_heads * s.head_dim, experts = s.experts > 0 ? s.experts : 1;
  return {{s.hidden, q, 1}, {s.hidden, kv, 2}, {q, s.hidden, 1}, {s.hidden, s.intermediate, 2 * experts}, {s.intermediate, s.hidden, experts}};
}

// One int4 linear layer as AutoAWQ packs it (GPTQ adds the group index).
std::optional<std::int64_t> int4_linear_bytes(const Linear& l, std::int64_t group, bool gptq) {
  const std::int64_t groups = (l.in + group - 1) / group, packed_out = (l.out + 7) / 8;
  return sum({product({l.in, packed_out, 4}),      // qweight: eight int4 a int32
              product({groups, packed_out, 4}),    // qzeros
              product({groups, l.out, 2}),         // scales, fp16
              gptq ? product({l.in, 4}) : std::optional<std::int64_t>(0)});  // g_idx, int32
}

}  // namespace

std::optional<WeightFormat> weight_format_named(std::string_view name) {
  for (const auto& [f, n] : kFormatNames)
    if (n == name) return f;
  return std::nullopt;
}

std::string weight_format_name(WeightFormat f) {
  for (const auto& [format, n] : kFormatNames)
    if (format == f) return std::string(n);
  return "fp16";
}

std::optional<std::int64_t> linear_parameter_count(const ModelShape& s) {
  std::optional<std::int64_t> per_layer = 0;
  for (const auto& l : block_linears(s)) per_layer = sum({per_layer, product({l.in, l.out, l.copies})});
  return per_layer ? product({s.layers, *per_layer}) : std::nullopt;
}

std::optional<std::int64_t> parameter_count(const ModelShape& s) { return parameters_with(s, s.experts > 0 ? s.experts : 1); }

std::optional<std::int64_t> active_parameter_count(const ModelShape& s) {
  return parameters_with(s, s.experts > 0 ? s.experts_per_token : 1);
}

std::optional<std::int64_t> lora_parameter_count(const ModelShape& s, std::int64_t rank) {
  std::optional<std::int64_t> per_layer = 0;
  for (const auto& l : block_linears(s)) per_layer = sum({per_layer, product({rank, l.in + l.out, l.copies})});
  return per_layer ? product({s.layers, *per_layer}) : std::nullopt;
}

std::optional<std::int64_t> weight_bytes(const ModelShape& s, WeightFormat f, std::int64_t group_size) {
  const auto n = parameter_count(s), linear = linear_parameter_count(s);
  if (!n || !linear) return std::nullopt;
  const auto rest = product({*n - *linear, 2});  // embeddings, output layer, norms, routers: 16-bit
  switch (f) {
    case WeightFormat::fp32: return product({*n, 4});
    case WeightFormat::bf16:
    case WeightFormat::fp16: return product({*n, 2});
    case WeightFormat::fp8:
    case WeightFormat::int8: return sum({*linear, rest});
    case WeightFormat::int4:
    case WeightFormat::int4_gptq: {
      if (group_size <= 0) return std::nullopt;
      std::optional<std::int64_t> per_layer = 0;
      for (const auto& l : block_linears(s)) {
        const auto one = int4_linear_bytes(l, group_size, f == WeightFormat::int4_gptq);
        per_layer = sum({per_layer, one ? product({*one, l.copies}) : std::nullopt});
      }
      return sum({per_layer ? product({s.layers, *per_layer}) : std::nullopt, rest});
    }
  }
  return std::nullopt;
}

namespace {

// The parameters outside the layers: embeddings, output layer, final norm.
std::int64_t end_parameters(const ModelShape& s) { return s.vocab * s.hidden * (s.tied_embeddings ? 1 : 2) + s.hidden; }
// The last stage's: the final norm and an output layer (its own, or a tied copy).
std::int64_t last_stage_ends(const ModelShape& s) { return s.vocab * s.hidden + s.hidden; }

// From the whole model's count to its largest stage's.
std::optional<std::int64_t> stage_share(const ModelShape& s, std::optional<std::int64_t> whole, std::int64_t ends_whole,
                                        std::int64_t ends_stage, std::int64_t stages) {
  if (!whole || stages <= 1) return whole;
  const auto per_layer = (*whole - ends_whole) / s.layers;
  return sum({product({stage_layers(s, stages), per_layer}), ends_stage});
}

}  // namespace

std::int64_t stage_layers(const ModelShape& s, std::int64_t stages) { return (s.layers + stages - 1) / std::max<std::int64_t>(stages, 1); }

std::optional<std::int64_t> stage_parameter_count(const ModelShape& s, std::int64_t stages) {
  return stage_share(s, parameter_count(s), end_parameters(s), last_stage_ends(s), stages);
}

std::optional<std::int64_t> stage_weight_bytes(const ModelShape& s, WeightFormat f, std::int64_t group_size, std::int64_t stages) {
  const std::int64_t end_bytes = f == WeightFormat::fp32 ? 4 : 2;
  return stage_share(s, weight_bytes(s, f, group_size), end_parameters(s) * end_bytes, last_stage_ends(s) * end_bytes, stages);
}

std::optional<std::int64_t> kv_cache_bytes(const ModelShape& s, std::int64_t tokens, std::int64_t element_bytes) {
  return product({2, s.layers, s.kv_heads, s.head_dim, tokens, element_bytes});
}

}  // namespace gpucheck::fit
