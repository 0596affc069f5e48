#include "fit/model_shape.hpp"

#include <nlohmann/json.hpp>
#include <optional>

namespace gpucheck::fit {

namespace {

// Past any published model's dimension: a larger one is a broken file.
constexpr std::int64_t kMaxDimension = 10'000'000;

class Fields {
 public:
  Fields(const nlohmann::json& j, const std::string& where) : j_(j), where_(where) {}
  // The field as a whole number in [lo, kMaxDimension]; `fallback` when absent
  // (none: required).
  std::int64_t whole(const char* name, std::int64_t lo, std::optional<std::int64_t> fallback = std::nullopt) {
    const auto it = j_.find(name);
    if (it == j_.end() || it->is_null()) {
      if (!fallback) fail(name, "missing");
      return fallback.value_or(0);
    }
    if (!it->is_number_integer() || it->get<std::int64_t>() < lo || it->get<std::int64_t>() > kMaxDimension) {
      fail(name, it->dump());
      return 0;
    }
    return it->get<std::int64_t>();
  }
  bool flag(const char* name, bool fallback) {
    const auto it = j_.find(name);
    if (it == j_.end() || it->is_null()) return fallback;
    if (!it->is_boolean()) fail(name, it->dump());
    return it->is_boolean() ? it->get<bool>() : fallback;
  }
  void check(bool ok, const std::string& what) {
    if (!ok && !problem_) problem_ = Problem{Reason::malformed, where_, what};
  }
  const std::optional<Problem>& problem() const { return problem_; }

 private:
  void fail(const char* name, const std::string& got) {
    check(false, std::string(name) + ": expected a whole number from its lower bound to 10^7, got " + (got.size() > 40 ? got.substr(0, 40) + "..." : got));
  }
  const nlohmann::json& j_;
  std::string where_;
  std::optional<Problem> problem_;
};

}  // namespace

Result<ModelShape> read_model_config(std::string_view json_text, const std::string& where) {
  const auto j = nlohmann::json::parse(json_text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return Problem{Reason::malformed, where, "not a JSON object (a Hugging Face config.json)"};
  return read_model_shape(j, where);
}

Result<ModelShape> read_model_shape(const nlohmann::json& j, const std::string& where) {
  if (!j.is_object()) return Problem{Reason::malformed, where, "not a JSON object (a Hugging Face config.json)"};
  // Mixture-of-experts with shared experts and their own expert width
  // (DeepSeek, Qwen-MoE) and latent attention count weights differently.
  for (const char* other : {"n_routed_experts", "moe_intermediate_size", "kv_lora_rank", "n_shared_experts"})
    if (j.contains(other))
      return Problem{Reason::malformed, where,
                     std::string(other) + ": this architecture (shared or routed experts of their own width, latent attention) is not "
                                          "read yet; gpucheck fit reads Llama-family decoders, dense or Mixtral-style"};
  if (!j.contains("hidden_size") && j.contains("text_config"))
    return Problem{Reason::malformed, where, "hidden_size: missing; the decoder's fields are under \"text_config\": give that object as the config"};
  Fields f(j, where);
  ModelShape s;
  s.hidden = f.whole("hidden_size", 1);
  s.layers = f.whole("num_hidden_layers", 1);
  s.heads = f.whole("num_attention_heads", 1);
  s.kv_heads = f.whole("num_key_value_heads", 1, s.heads);
  s.head_dim = f.whole("head_dim", 1, s.heads > 0 ? s.hidden / s.heads : 0);
  s.intermediate = f.whole("intermediate_size", 1);
  s.vocab = f.whole("vocab_size", 1);
  s.tied_embeddings = f.flag("tie_word_embeddings", false);
  s.experts = f.whole("num_local_experts", 0, 0);
  s.experts_per_token = f.whole("num_experts_per_tok", 0, s.experts > 0 ? 2 : 0);
  s.max_context = f.whole("max_position_embeddings", 1, 0);
  if (f.problem()) return *f.problem();
  f.check(s.heads % s.kv_heads == 0, "num_key_value_heads: " + std::to_string(s.kv_heads) + " does not divide num_attention_heads (" +
                                         std::to_string(s.heads) + ")");
  f.check(s.head_dim > 0, "head_dim: hidden_size / num_attention_heads is 0; give head_dim");
  f.check(s.experts_per_token <= s.experts, "num_experts_per_tok: more than num_local_experts (" + std::to_string(s.experts) + ")");
  if (f.problem()) return *f.problem();
  return s;
}

}  // namespace gpucheck::fit
