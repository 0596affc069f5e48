// A decoder-only transformer's shape, as a Hugging Face config.json gives
// it (issue 35, `gpucheck fit`): what its weights and KV cache take is
// computed from this exactly (fit_memory.hpp). Dense models and
// mixture-of-experts ones whose experts are whole MLPs (Mixtral) are read;
// the Llama family's names, which Mistral, Mixtral and Qwen2 share.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "util/result.hpp"

namespace gpucheck::fit {

struct ModelShape {
  std::int64_t hidden = 0;              // hidden_size
  std::int64_t layers = 0;              // num_hidden_layers
  std::int64_t heads = 0;               // num_attention_heads
  std::int64_t kv_heads = 0;            // num_key_value_heads (grouped-query attention); heads when absent
  std::int64_t head_dim = 0;            // head_dim; hidden / heads when absent
  std::int64_t intermediate = 0;        // intermediate_size: each MLP's (each expert's)
  std::int64_t vocab = 0;               // vocab_size
  bool tied_embeddings = false;         // tie_word_embeddings: the output layer is the input embedding
  std::int64_t experts = 0;             // num_local_experts; 0: a dense model
  std::int64_t experts_per_token = 0;   // num_experts_per_tok
  std::int64_t max_context = 0;         // max_position_embeddings; 0 when absent
  bool operator==(const ModelShape&) const = default;
};

// Reads config.json's text; `where` names it in a problem. A field that is
// missing, not a whole number, or past what any model has (10^7) is a
// problem naming that field and what was expected.
Result<ModelShape> read_model_config(std::string_view json_text, const std::string& where);
// The same fields of an object already parsed (the matrix's "models" entries
// hold them under "config", spelt as config.json spells them).
Result<ModelShape> read_model_shape(const nlohmann::json& config, const std::string& where);

}  // namespace gpucheck::fit
