#include "fit/fit_report.hpp"

#include <algorithm>
#include <cstdio>
#include <set>

#include "fit/fit_numbers.hpp"

namespace gpucheck::fit {

namespace {

std::string layout_text(const Layout& l) {
  std::string out = std::to_string(l.gpus()) + (l.gpus() == 1 ? " GPU" : " GPUs");
  if (l.gpus() > 1) {
    out += " (";
    std::vector<std::string> parts;
    if (l.tensor > 1) parts.push_back("tensor parallel " + std::to_string(l.tensor));
    if (l.pipeline > 1) parts.push_back("pipeline parallel " + std::to_string(l.pipeline));
    if (l.data > 1) parts.push_back("data parallel " + std::to_string(l.data));
    for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? " x " : "") + parts[i];
    out += ")";
  }
  return out;
}

std::string padded(std::string s, std::size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

std::string right(std::string s, std::size_t width) {
  if (s.size() < width) s.insert(0, width - s.size(), ' ');
  return s;
}

std::string gpus_text(const FitQuestion& q) {
  std::string out = std::to_string(q.gpus_per_node * q.nodes) + " x " + q.gpu.name;
  if (q.nodes > 1) out += " (" + std::to_string(q.nodes) + " nodes of " + std::to_string(q.gpus_per_node) + ")";
  return out;
}

std::string workload_text(const Workload& w) {
  std::string out = w.mode == Mode::inference ? "inference" : (w.lora_rank > 0 ? "LoRA fine-tuning" : "training");
  out += ": " + weight_format_name(w.weights) + " weights";
  if (grouped(w.weights)) out += " (group " + std::to_string(w.group_size) + ")";
  out += ", " + count_text(w.context) + " tokens x " + std::to_string(w.batch) + (w.batch == 1 ? " sequence" : " sequences");
  if (w.mode == Mode::inference) out += ", KV cache in " + std::string(w.kv_bytes == 1 ? "fp8" : "16 bits");
  else {
    out += ", " + optimizer_name(w.optimizer);
    if (w.lora_rank > 0) out += ", rank " + std::to_string(w.lora_rank);
    if (w.checkpointing) out += ", activations recomputed";
    if (w.zero > 0) out += ", ZeRO stage " + std::to_string(w.zero);
  }
  return out;
}

std::string tokens_text(const std::optional<double>& v) { return v ? number_text(*v) + " tokens/s" : "unknown"; }

// The plan a reader acts on: the one that fits on the GPUs given, else the
// smallest that fits anywhere, else what the GPUs given hold.
const MemoryPlan* shown_plan(const FitAnswer& a) {
  if (!a.given) return nullptr;
  if (!a.given->fits() && a.needed) return &*a.needed;
  return &*a.given;
}

nlohmann::ordered_json layout_json(const Layout& l) {
  return {{"gpus", l.gpus()}, {"tensor_parallel", l.tensor}, {"pipeline_parallel", l.pipeline}, {"data_parallel", l.data}};
}

nlohmann::ordered_json plan_json(const MemoryPlan& p) {
  nlohmann::ordered_json parts = nlohmann::ordered_json::array();
  for (const auto& part : p.parts) {
    nlohmann::ordered_json j{{"part", part.name}, {"bytes", part.bytes}, {"estimate", part.estimate}, {"basis", part.basis}};
    if (!part.source.empty()) j["source"] = part.source;
    parts.push_back(std::move(j));
  }
  return {{"layout", layout_json(p.layout)},
          {"parts", std::move(parts)},
          {"total_bytes", p.total_bytes},
          {"capacity_bytes", p.capacity_bytes},
          {"fits", p.fits()}};
}

nlohmann::ordered_json bound_json(const Bound& b) {
  nlohmann::ordered_json j{{"phase", b.phase}};
  j["tokens_per_second"] = b.tokens_per_second ? nlohmann::ordered_json(*b.tokens_per_second) : nlohmann::ordered_json(nullptr);
  j["basis"] = b.basis;
  if (!b.figure_source.empty()) j["source"] = b.figure_source;
  j["per_sequence"] = b.per_sequence;
  j["binding"] = b.binding;
  return j;
}

nlohmann::ordered_json question_json(const FitQuestion& q) {
  const auto& s = q.shape;
  nlohmann::ordered_json shape{{"hidden_size", s.hidden},     {"num_hidden_layers", s.layers},  {"num_attention_heads", s.heads},
                               {"num_key_value_heads", s.kv_heads}, {"head_dim", s.head_dim},   {"intermediate_size", s.intermediate},
                               {"vocab_size", s.vocab},       {"tie_word_embeddings", s.tied_embeddings}};
  if (s.experts > 0) shape["num_local_experts"] = s.experts, shape["num_experts_per_tok"] = s.experts_per_token;
  nlohmann::ordered_json model{{"name", q.model_name}};
  if (!q.model_id.empty()) model["id"] = q.model_id;
  model["config"] = q.model_source;
  model["shape"] = std::move(shape);
  const auto& w = q.workload;
  nlohmann::ordered_json work{{"mode", w.mode == Mode::inference ? "inference" : "training"},
                              {"weights", weight_format_name(w.weights)},
                              {"context", w.context},
                              {"batch", w.batch}};
  if (grouped(w.weights)) work["group_size"] = w.group_size;
  if (w.mode == Mode::inference) work["kv_cache_bytes_per_element"] = w.kv_bytes;
  else {
    work["optimizer"] = w.optimizer == Optimizer::sgd ? "sgd" : w.optimizer == Optimizer::adamw_8bit ? "adamw-8bit" : "adamw";
    work["checkpointing"] = w.checkpointing;
    work["lora_rank"] = w.lora_rank;
    work["zero_stage"] = w.zero;
  }
  nlohmann::ordered_json gpus{{"name", q.gpu.name}};
  if (!q.gpu.id.empty()) gpus["id"] = q.gpu.id;
  gpus["origin"] = q.gpus_origin;
  gpus["per_node"] = q.gpus_per_node;
  gpus["nodes"] = q.nodes;
  gpus["memory_bytes"] = static_cast<std::int64_t>(q.gpu.memory_bytes.value);
  gpus["memory_note"] = q.gpu.memory_note;
  if (!q.gpu.memory_bytes.source.empty()) gpus["memory_source"] = q.gpu.memory_bytes.source;
  if (!q.gpu.link.empty()) gpus["link"] = q.gpu.link;
  return {{"model", std::move(model)}, {"workload", std::move(work)}, {"gpus", std::move(gpus)}};
}

}  // namespace

std::string verdict_word(const FitAnswer& a) {
  if (a.cannot_tell) return "cannot-tell";
  return a.fits() ? "fits" : "does-not-fit";
}

std::string render_fit_text(const FitQuestion& q, const FitAnswer& a) {
  std::string out;
  out += "Model     " + q.model_name + (a.parameters > 0 ? ", " + count_text(a.parameters) + " parameters" : "");
  if (q.shape.experts > 0 && a.active_parameters > 0) out += " (" + count_text(a.active_parameters) + " active)";
  out += "\n          " + q.model_source + "\n";
  out += "Workload  " + workload_text(q.workload) + "\n";
  out += "GPUs      " + gpus_text(q) + " (" + q.gpus_origin + "): " + gib_text(static_cast<std::int64_t>(q.gpu.memory_bytes.value)) +
         " each, " + q.gpu.memory_note + "\n";
  for (const auto& n : q.notes) out += "          " + n + "\n";
  out += "\n";
  std::set<std::string> sources;
  if (!q.gpu.memory_bytes.source.empty()) sources.insert(q.gpu.memory_bytes.source);
  if (const auto* plan = shown_plan(a)) {
    if (plan != &*a.given)
      out += "On " + layout_text(a.given->layout) + ": " + gib_text(a.given->total_bytes) + " a GPU, of " + gib_text(a.given->capacity_bytes) +
             ": does not fit.\n\n";
    out += "Memory a GPU on " + layout_text(plan->layout) + ":\n";
    for (const auto& p : plan->parts) {
      out += "  " + padded(p.name, 12) + right(gib_text(p.bytes), 10) + "  " + padded(p.estimate ? "estimate" : "exact", 9) + p.basis + "\n";
      if (!p.source.empty()) sources.insert(p.source);
    }
    out += "  " + padded("total", 12) + right(gib_text(plan->total_bytes), 10) + "  of " + gib_text(plan->capacity_bytes) + (plan->fits() ? "" : ": does not fit") + "\n\n";
    out += "Ceilings on " + layout_text(plan->layout) + ", from datasheet peaks (a real run reaches less):\n";
    for (const auto& b : a.bounds) {
      std::string rate = tokens_text(b.tokens_per_second);
      if (b.per_sequence && b.tokens_per_second) rate += " a sequence";
      out += "  " + padded(b.phase, 9) + padded(rate, 29) + (b.binding ? "the bound: " : "") + b.basis + "\n";
      if (!b.figure_source.empty()) sources.insert(b.figure_source);
    }
    out += "\n";
  }
  for (const auto& n : a.notes) out += "Note: " + n + "\n";
  if (!sources.empty()) {
    out += "Sources:\n";
    for (const auto& s : sources) out += "  " + s + "\n";
    out += "\n";
  }
  const std::string what = q.model_name + " (" + (q.workload.mode == Mode::inference ? "inference" : "training") + ", " +
                           weight_format_name(q.workload.weights) + ")";
  if (a.cannot_tell) out += "CANNOT TELL  " + *a.cannot_tell + "\n";
  else if (a.fits())
    out += "FITS  " + what + " on " + layout_text(a.given->layout) + " of the " + std::to_string(q.gpus_per_node * q.nodes) + " given\n";
  else if (a.needed) {
    out += "DOES NOT FIT  " + what + " on " + gpus_text(q) + "; it needs " + layout_text(a.needed->layout);
    if (a.nodes_needed > 1) out += ", " + std::to_string(a.nodes_needed) + " nodes of " + std::to_string(a.node_size);
    else out += " (--count " + std::to_string(a.needed->layout.gpus()) + ")";
    out += "\n";
  } else
    out += "DOES NOT FIT  " + what + " on any layout of " + q.gpu.name + "\n";
  return out;
}

nlohmann::ordered_json fit_json(const FitQuestion& q, const FitAnswer& a) {
  auto j = question_json(q);
  j["verdict"] = verdict_word(a);
  if (a.cannot_tell) j["reason"] = *a.cannot_tell;
  j["parameters"] = a.parameters;
  j["active_parameters"] = a.active_parameters;
  j["given"] = a.given ? plan_json(*a.given) : nlohmann::ordered_json(nullptr);
  j["needed"] = a.needed ? plan_json(*a.needed) : nlohmann::ordered_json(nullptr);
  if (a.needed) j["nodes_needed"] = a.nodes_needed;
  nlohmann::ordered_json bounds = nlohmann::ordered_json::array();
  for (const auto& b : a.bounds) bounds.push_back(bound_json(b));
  j["bounds"] = std::move(bounds);
  j["notes"] = a.notes;
  return j;
}

void sort_compare_rows(std::vector<CompareRow>& rows) {
  const auto key = [](const CompareRow& r) {
    const auto* p = shown_plan(r.answer);
    const int gpus = p && p->fits() ? p->layout.gpus() : 1 << 30;
    double decode = 0;
    for (const auto& b : r.answer.bounds)
      if (b.binding && b.tokens_per_second) decode = *b.tokens_per_second;
    return std::make_pair(gpus, -decode);
  };
  std::stable_sort(rows.begin(), rows.end(), [&](const CompareRow& a, const CompareRow& b) { return key(a) < key(b); });
}

std::string render_compare_text(const FitQuestion& q, const std::vector<CompareRow>& rows) {
  std::string out = "Model     " + q.model_name + "\n          " + q.model_source + "\nWorkload  " + workload_text(q.workload) +
                    "\n\nThe fewest GPUs of each model that hold it (tensor parallel within nodes of 8), with the ceilings there\n"
                    "(datasheet peaks; a real run reaches less):\n\n";
  const bool inference = q.workload.mode == Mode::inference;
  out += "  " + padded("GPU (--gpu)", 36) + right("memory", 10) + "  " + padded("needs", 46) +
         (inference ? right("bound a sequence", 19) + right("prefill", 19) : right("bound", 19)) + "\n";
  for (const auto& r : rows) {
    const auto* p = shown_plan(r.answer);
    std::string needs = r.answer.cannot_tell ? "cannot tell" : p && p->fits() ? layout_text(p->layout) : "does not fit";
    std::string first = "unknown", second = "unknown";
    for (const auto& b : r.answer.bounds) {
      if (b.binding) first = tokens_text(b.tokens_per_second);
      if (b.phase == "prefill") second = tokens_text(b.tokens_per_second);
    }
    out += "  " + padded(r.gpu.id, 36) + right(gib_text(static_cast<std::int64_t>(r.gpu.memory_bytes.value)), 10) + "  " + padded(needs, 46) +
           right(first, 19) + (inference ? right(second, 19) : "") + "\n";
  }
  return out;
}

nlohmann::ordered_json compare_json(const FitQuestion& q, const std::vector<CompareRow>& rows) {
  auto j = question_json(q);
  j.erase("gpus");
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const auto& r : rows) {
    nlohmann::ordered_json row{{"id", r.gpu.id}, {"name", r.gpu.name}, {"memory_bytes", static_cast<std::int64_t>(r.gpu.memory_bytes.value)},
                               {"verdict", verdict_word(r.answer)}};
    const auto* p = shown_plan(r.answer);
    row["layout"] = p && p->fits() ? layout_json(p->layout) : nlohmann::ordered_json(nullptr);
    nlohmann::ordered_json bounds = nlohmann::ordered_json::array();
    for (const auto& b : r.answer.bounds) bounds.push_back(bound_json(b));
    row["bounds"] = std::move(bounds);
    list.push_back(std::move(row));
  }
  j["gpus"] = std::move(list);
  return j;
}

}  // namespace gpucheck::fit
