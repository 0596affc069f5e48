#include "fit/fit_plan.hpp"

#include <algorithm>
#include <cmath>

#include "fit/fit_numbers.hpp"

namespace gpucheck::fit {

namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// Optimizer state bytes per trained parameter (ZeRO, section 3.1: mixed
// precision keeps an fp32 copy beside Adam's two fp32 moments; 8-bit Adam
// keeps one byte a moment; SGD one fp32 momentum). Training in fp32 needs
// no copy.
std::int64_t optimizer_bytes(Optimizer o, bool fp32) {
  switch (o) {
    case Optimizer::adamw: return fp32 ? 8 : 12;
    case Optimizer::adamw_8bit: return fp32 ? 2 : 6;
    case Optimizer::sgd: return fp32 ? 4 : 8;
  }
  return 12;
}

// How a quantised checkpoint stores what it does not quantise.
std::string format_detail(const Workload& w) {
  if (grouped(w.weights))
    return std::string(" (") + (w.weights == WeightFormat::int4 ? "AWQ's" : "GPTQ's") + " packing, groups of " + std::to_string(w.group_size) +
           "; embeddings, output layer and norms in 16 bits)";
  if (w.weights == WeightFormat::fp8 || w.weights == WeightFormat::int8)
    return " (the linear layers; embeddings, output layer and norms in 16 bits; the scales not counted)";
  return "";
}

MemoryPart part(std::string name, std::int64_t bytes, bool estimate, std::string basis, std::string source = {}) {
  return MemoryPart{std::move(name), bytes, estimate, std::move(basis), std::move(source)};
}

// The GPUs a stage's model state is split over: its tensor group; the
// data-parallel copies too from the ZeRO stage that shards it.
std::int64_t sharded(const Layout& l, bool by_zero) { return std::int64_t{l.tensor} * (by_zero ? l.data : 1); }

// "the largest of 3 stages, 27 of the 80 layers and the output layer": what a stage's figure counts.
std::string stage_text(const ModelShape& s, const Layout& l) {
  if (l.pipeline <= 1) return "";
  return " in the largest of " + std::to_string(l.pipeline) + " stages (" + std::to_string(stage_layers(s, l.pipeline)) + " of the " +
         std::to_string(s.layers) + " layers and the output layer)";
}

std::string gpus_word(std::int64_t n) { return std::to_string(n) + (n == 1 ? " GPU" : " GPUs"); }

std::string over(std::int64_t n) { return n == 1 ? "" : ", split over " + std::to_string(n) + " GPUs"; }

void inference_parts(const ModelShape& s, const Workload& w, Layout l, std::int64_t weights, std::int64_t params,
                     std::vector<MemoryPart>& out) {
  out.push_back(part("weights", ceil_div(weights, sharded(l, false)), false,
                     count_text(params) + " parameters in " + weight_format_name(w.weights) + format_detail(w) + stage_text(s, l) +
                         over(sharded(l, false))));
  const std::int64_t tokens = w.context * w.batch;
  const auto kv = kv_cache_bytes(s, tokens, w.kv_bytes).value_or(0) / s.layers * stage_layers(s, l.pipeline);
  const std::int64_t shards = std::min<std::int64_t>(l.tensor, s.kv_heads);
  std::string basis = "2 (K, V) x " + std::to_string(stage_layers(s, l.pipeline)) + " layers x " + std::to_string(s.kv_heads) + " KV heads x " +
                      std::to_string(s.head_dim) + " x " + count_text(tokens) + " tokens x " + std::to_string(w.kv_bytes) + " bytes";
  if (shards > 1) basis += ", split over " + std::to_string(shards);
  if (l.tensor > s.kv_heads) basis += " (each KV head held by " + std::to_string(l.tensor / s.kv_heads) + " GPUs)";
  out.push_back(part("kv_cache", ceil_div(kv, shards), false, basis));
}

void training_parts(const ModelShape& s, const Workload& w, Layout l, std::int64_t weights, std::int64_t params,
                    std::vector<MemoryPart>& out) {
  const bool fp32 = w.weights == WeightFormat::fp32;
  const std::int64_t wb = fp32 ? 4 : 2;  // the trained weights' bytes and their gradients'
  const std::int64_t ob = optimizer_bytes(w.optimizer, fp32);
  const auto nw = sharded(l, w.zero >= 3), ng = sharded(l, w.zero >= 2), no = sharded(l, w.zero >= 1);
  if (w.lora_rank > 0) {
    const auto adapters = lora_parameter_count(s, w.lora_rank).value_or(0) / s.layers * stage_layers(s, l.pipeline);
    out.push_back(part("weights", ceil_div(weights + adapters * wb, nw), false,
                       count_text(params) + " frozen parameters in " + weight_format_name(w.weights) + format_detail(w) + " and " + count_text(adapters) +
                           " adapter parameters (rank " + std::to_string(w.lora_rank) + ", every linear layer) x " + std::to_string(wb) +
                           " bytes" + stage_text(s, l) + over(nw)));
    out.push_back(part("gradients", ceil_div(adapters * wb, ng), false,
                       "the adapters' alone, " + std::to_string(wb) + " bytes each" + over(ng)));
    out.push_back(part("optimizer", ceil_div(adapters * ob, no), false,
                       optimizer_name(w.optimizer) + ", " + std::to_string(ob) + " bytes per adapter parameter" + over(no), kModelStatesSource));
  } else {
    out.push_back(part("weights", ceil_div(params * wb, nw), false,
                       count_text(params) + " parameters x " + std::to_string(wb) + " bytes" + stage_text(s, l) + over(nw)));
    out.push_back(part("gradients", ceil_div(params * wb, ng), false, std::to_string(wb) + " bytes per parameter" + over(ng)));
    out.push_back(part("optimizer", ceil_div(params * ob, no), false,
                       optimizer_name(w.optimizer) + (fp32 ? "" : " with an fp32 master copy") + ", " + std::to_string(ob) +
                           " bytes per parameter" + over(no),
                       kModelStatesSource));
  }
  // Korthikanti et al.: 34 s b h bytes a layer with sequence parallelism and
  // no attention scores kept (flash attention), over t GPUs; the first
  // pipeline stage holds p micro-batches of L/p layers, so every layer's.
  const std::int64_t sbh = w.context * w.batch * s.hidden;
  const std::int64_t stored = w.checkpointing ? s.layers * 2 * sbh + 34 * sbh : s.layers * 34 * sbh;
  out.push_back(part("activations", ceil_div(stored, l.tensor), true,
                     w.checkpointing ? "each layer's input, 2 s b h bytes, and one layer recomputed, 34 s b h"
                                     : "34 s b h bytes a layer (s " + count_text(w.context) + ", b " + std::to_string(w.batch) + ", h " +
                                           std::to_string(s.hidden) + ")" + (l.tensor > 1 ? ", over " + std::to_string(l.tensor) : ""),
                     kActivationsSource));
  out.push_back(part("logits", ceil_div(w.context * w.batch * s.vocab * 4, l.tensor), true,
                     count_text(w.context * w.batch) + " tokens x " + count_text(s.vocab) + " vocabulary x 4 bytes (fp32 for the loss)",
                     kActivationsSource));
}

}  // namespace

std::string compute_precision(WeightFormat f) {
  switch (f) {
    case WeightFormat::fp32: return "fp32";
    case WeightFormat::bf16: return "bf16";
    case WeightFormat::fp16:
    case WeightFormat::int4:
    case WeightFormat::int4_gptq: return "fp16";
    case WeightFormat::fp8: return "fp8";
    case WeightFormat::int8: return "int8";
  }
  return "fp16";
}

std::string optimizer_name(Optimizer o) {
  switch (o) {
    case Optimizer::adamw: return "AdamW";
    case Optimizer::adamw_8bit: return "8-bit AdamW";
    case Optimizer::sgd: return "SGD with momentum";
  }
  return "AdamW";
}

std::vector<int> tensor_parallel_degrees(const ModelShape& s, int at_most) {
  std::vector<int> out;
  for (int t = 1; t <= at_most && t <= s.heads; ++t)
    if (s.heads % t == 0 && (s.kv_heads % t == 0 || t % s.kv_heads == 0) && s.intermediate % t == 0) out.push_back(t);
  return out;
}

MemoryPlan memory_plan(const ModelShape& s, const Workload& w, const GpuSpec& g, Layout layout) {
  MemoryPlan plan;
  plan.layout = layout;
  plan.capacity_bytes = static_cast<std::int64_t>(g.memory_bytes.value);
  // The largest pipeline stage's share: every figure below is per stage.
  const auto params = stage_parameter_count(s, layout.pipeline).value_or(0);
  const auto weights = stage_weight_bytes(s, w.weights, w.group_size, layout.pipeline).value_or(0);
  if (w.mode == Mode::inference) inference_parts(s, w, layout, weights, params, plan.parts);
  else training_parts(s, w, layout, weights, params, plan.parts);
  plan.parts.push_back(part("reserve", static_cast<std::int64_t>(kReserveFraction * g.memory_bytes.value), true,
                            "a tenth of the GPU: the CUDA context, buffers, the allocator's slack (as vLLM's default "
                            "gpu_memory_utilization 0.9 leaves)",
                            kReserveSource));
  for (const auto& p : plan.parts) plan.total_bytes += p.bytes;
  return plan;
}

namespace {

// The smallest layout with at most `max_tensor` per node and at most
// `max_gpus` in all that fits; among equal counts, the widest tensor split.
// Data-parallel copies only help when ZeRO shards over them: then powers
// of two, and all the GPUs there are.
std::vector<std::int64_t> data_degrees(const Workload& w, std::int64_t at_most) {
  std::vector<std::int64_t> out{1};
  if (w.mode != Mode::training || w.zero == 0) return out;
  for (std::int64_t d = 2; d <= at_most; d *= 2) out.push_back(d);
  if (at_most > out.back()) out.push_back(at_most);
  return out;
}

// A tensor-parallel group stays within a node: `nodes` of `node_size` hold
// nodes x (node_size / t) groups of t.
std::optional<MemoryPlan> smallest_fitting(const ModelShape& s, const Workload& w, const GpuSpec& g, int node_size, std::int64_t nodes) {
  std::optional<MemoryPlan> best;
  const auto better = [&](const MemoryPlan& p) {
    const auto& l = p.layout;
    if (!best) return true;
    const auto& b = best->layout;
    if (l.gpus() != b.gpus()) return l.gpus() < b.gpus();
    return l.tensor > b.tensor || (l.tensor == b.tensor && l.data > b.data);  // fewer pipeline stages
  };
  for (int t : tensor_parallel_degrees(s, node_size)) {
    const std::int64_t groups = nodes * (node_size / t);
    for (const auto d : data_degrees(w, groups)) {
      const auto max_p = std::min<std::int64_t>(s.layers, groups / d);
      const auto at = [&](std::int64_t p) { return memory_plan(s, w, g, {t, static_cast<int>(p), static_cast<int>(d)}); };
      if (max_p < 1 || !at(max_p).fits()) continue;
      std::int64_t lo = 1, hi = max_p;  // the fewest stages that fit: totals only fall with more
      while (lo < hi) {
        const auto mid = (lo + hi) / 2;
        if (at(mid).fits()) hi = mid;
        else lo = mid + 1;
      }
      auto plan = at(lo);
      if (better(plan)) best = std::move(plan);
    }
  }
  return best;
}

// The tensor rate these weights run at, and its precision: weights in a
// format the GPU has no tensor rate for are widened to fp16 first (vLLM's
// weight-only fp8 on Ampere, int8 weight-only kernels).
std::pair<std::optional<Figure>, std::string> rate_for(const GpuSpec& g, WeightFormat f) {
  for (const auto& p : {compute_precision(f), std::string("fp16")}) {
    const auto it = g.tensor_tflops.find(p);
    if (it != g.tensor_tflops.end()) return {it->second, p};
  }
  return {std::nullopt, compute_precision(f)};
}

void add_bounds(const ModelShape& s, const Workload& w, const GpuSpec& g, const Layout& l, std::int64_t active, FitAnswer& a) {
  const double t = l.tensor, n = l.gpus();
  const double attention = 2.0 * static_cast<double>(s.layers) * static_cast<double>(w.context) * static_cast<double>(s.heads * s.head_dim);
  const double forward = 2.0 * static_cast<double>(active) + attention;  // Kaplan et al., Table 1
  const auto [rate, precision] = rate_for(g, w.weights);
  if (w.mode == Mode::inference) {
    const double weights = static_cast<double>(weight_bytes(s, w.weights, w.group_size).value_or(0)) * static_cast<double>(active) /
                           static_cast<double>(std::max<std::int64_t>(a.parameters, 1));
    const double kv = static_cast<double>(kv_cache_bytes(s, w.context * w.batch, w.kv_bytes).value_or(0));
    Bound b{"decode", std::nullopt, "", "", false, true};
    if (g.bandwidth_gbs) {
      b.tokens_per_second = g.bandwidth_gbs->value * 1e9 * t / (weights + kv);  // a step reads it all for every sequence at once
      b.figure_source = g.bandwidth_gbs->source;
      b.basis = "memory bandwidth " + number_text(g.bandwidth_gbs->value) + " GB/s x " + gpus_word(l.tensor) + " over " +
                bytes_text(weights + kv) + " read per token (the weights" + (s.experts > 0 ? " of the active experts" : "") +
                ", and the KV cache at full context)";
    } else {
      b.basis = "the GPU's memory bandwidth is not in the matrix";
    }
    a.bounds.push_back(b);
    Bound p{"prefill", std::nullopt, "", "", false, false};
    if (rate) {
      p.tokens_per_second = rate->value * 1e12 * n / forward;
      p.figure_source = rate->source;
      p.basis = precision + " tensor rate " + number_text(rate->value) + " TFLOPS x " + gpus_word(l.gpus()) + " over " +
                flops_text(forward) + " a token (2 x active parameters + attention)";
    } else {
      p.basis = "the GPU's " + precision + " tensor rate is not in the matrix";
    }
    a.bounds.push_back(p);
  } else {
    // 2N forward, 4N backward (6N), another forward when recomputing
    // (Narayanan et al.); LoRA's backward skips the weights' gradients.
    const double passes = (w.lora_rank > 0 ? 2.0 : 3.0) + (w.checkpointing ? 1.0 : 0.0);
    Bound b{"training", std::nullopt, "", "", false, false};
    if (rate) {
      b.tokens_per_second = rate->value * 1e12 * n / (passes * forward);
      b.figure_source = rate->source;
      b.basis = precision + " tensor rate " + number_text(rate->value) + " TFLOPS x " + gpus_word(l.gpus()) + " over " +
                flops_text(passes * forward) + " a token (" + number_text(passes) + " x the forward pass)";
    } else {
      b.basis = "the GPU's " + precision + " tensor rate is not in the matrix";
    }
    a.bounds.push_back(b);
  }
  if (l.tensor > 1) {
    // Megatron-LM's tensor parallelism: two all-reduces of the activations a
    // layer in the forward pass, two more in the backward; a ring all-reduce
    // sends 2(t-1)/t of them from each GPU.
    const double reduces = w.mode == Mode::inference ? 2.0 : 4.0;
    const double per_token = reduces * static_cast<double>(s.layers) * 2.0 * (t - 1) / t * static_cast<double>(s.hidden) * 2.0;
    // Decoding steps every sequence of the batch at once: one sequence's
    // ceiling is the link's tokens over the batch, as the bandwidth's is.
    const bool inference = w.mode == Mode::inference;
    Bound k{"link", std::nullopt, "", "", false, inference};
    if (g.link_gbs) {
      // Training: every tensor group (one a stage and data-parallel copy)
      // carries its own tokens, each through its stage's share of layers.
      k.tokens_per_second = g.link_gbs->value * 1e9 / per_token * (inference ? 1.0 / static_cast<double>(w.batch) : n / t);
      k.figure_source = g.link_gbs->source;
      k.basis = g.link + ", " + number_text(g.link_gbs->value) + " GB/s each way, over " + bytes_text(per_token) +
                " of all-reduce a token (" + std::to_string(l.tensor) + "-way tensor parallelism)";
    } else {
      k.basis = "the link between the GPUs is not known: " + bytes_text(per_token) + " of all-reduce a token";
    }
    a.bounds.push_back(k);
  }
  // Decoding (or a training step) meets the lower ceiling: memory or tensor rate, or the link.
  Bound* lowest = nullptr;
  for (auto& b : a.bounds)
    if (b.phase != "prefill" && b.tokens_per_second && (!lowest || *b.tokens_per_second < *lowest->tokens_per_second)) lowest = &b;
  if (lowest) lowest->binding = true;
}

}  // namespace

// GPUs a search for the smallest layout reaches at least: a training
// cluster's size (or a stage per layer, where that is more).
constexpr std::int64_t kSearchedGpus = 16384;

// What the parts count stays within int64 when every part is at most 2^56
// bytes (64 PiB, far past any cluster): checked in floating point first,
// since a config's dimensions and a batch multiply past int64 otherwise.
constexpr double kMostBytes = static_cast<double>(std::int64_t{1} << 56);

bool within_range(const ModelShape& s, const Workload& w) {
  const double tokens = static_cast<double>(w.context) * static_cast<double>(w.batch);
  const double h = static_cast<double>(s.hidden), layers = static_cast<double>(s.layers);
  const double experts = static_cast<double>(std::max<std::int64_t>(s.experts, 1));
  const double linear_width = 4 * (h + static_cast<double>(s.heads * s.head_dim)) + experts * 3 * (h + static_cast<double>(s.intermediate));
  const double kv = 2 * layers * static_cast<double>(s.kv_heads * s.head_dim) * tokens * static_cast<double>(w.kv_bytes);
  return tokens * h * 36 * layers <= kMostBytes && tokens * static_cast<double>(s.vocab) * 4 <= kMostBytes &&
         layers * static_cast<double>(w.lora_rank) * linear_width * 16 <= kMostBytes && kv <= kMostBytes;
}

FitAnswer fit(const ModelShape& s, const Workload& w, const GpuSpec& g, int gpus_per_node, int nodes) {
  FitAnswer a;
  a.gpus_per_node = gpus_per_node;
  a.nodes = nodes;
  const auto params = parameter_count(s), active = active_parameter_count(s), weights = weight_bytes(s, w.weights, w.group_size),
             kv = kv_cache_bytes(s, w.context * w.batch, w.kv_bytes);
  if (!params || !active || !weights || !kv || static_cast<double>(*weights) > kMostBytes || !within_range(s, w)) {
    a.cannot_tell = "the model and its workload exceed what this arithmetic holds (64 PiB a part)";
    return a;
  }
  a.parameters = *params;
  a.active_parameters = *active;
  if (g.memory_bytes.value <= 0) {
    a.cannot_tell = "the memory of " + g.name + " is not known";
    return a;
  }
  a.given = smallest_fitting(s, w, g, gpus_per_node, nodes);
  if (!a.given) {
    const auto degrees = tensor_parallel_degrees(s, gpus_per_node);
    const int t = degrees.empty() ? 1 : degrees.back();
    const std::int64_t groups = std::int64_t{nodes} * (gpus_per_node / t);
    const auto p = std::clamp<std::int64_t>(groups, 1, s.layers);
    const auto d = w.mode == Mode::training && w.zero > 0 ? std::max<std::int64_t>(1, groups / p) : 1;
    a.given = memory_plan(s, w, g, {t, static_cast<int>(p), static_cast<int>(d)});
    const int node_size = gpus_per_node > 1 ? gpus_per_node : 8;
    a.node_size = node_size;
    a.needed = smallest_fitting(s, w, g, node_size, std::max<std::int64_t>(s.layers, kSearchedGpus / node_size));
    if (a.needed) {
      const auto& l = a.needed->layout;
      a.nodes_needed = static_cast<int>(ceil_div(std::int64_t{l.pipeline} * l.data, node_size / l.tensor));
    }
    else
      a.notes.push_back("no layout fits: with " + std::to_string(node_size) + "-way tensor parallelism and a stage per layer, what does not "
                        "split (activations, logits, the reserve) still passes the GPU; lower the batch or context" +
                        std::string(w.mode == Mode::training && !w.checkpointing ? ", or recompute activations (--checkpointing)" : ""));
  }
  const MemoryPlan& shown = a.given->fits() || !a.needed ? *a.given : *a.needed;
  add_bounds(s, w, g, shown.layout, *active, a);
  if (w.mode == Mode::inference && s.experts > 0 && w.batch > 1)
    a.notes.push_back("a batch routes its tokens to more experts than one token does: decoding reads more than the active experts' weights");
  return a;
}

}  // namespace gpucheck::fit
