// Will a model fit on these GPUs, in which layout, and what bounds it
// (`gpucheck fit`, docs/fit.md): memory per GPU by part, the smallest
// tensor-parallel x pipeline-parallel layout that fits, and the ceiling each
// phase meets (decoding: memory bandwidth; prefill and training: the tensor
// rate; tensor parallelism: the link). Pure arithmetic over plain inputs:
// the command fills them from the matrix, the host or a report.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "fit/fit_memory.hpp"
#include "fit/model_shape.hpp"

namespace gpucheck::fit {

enum class Mode { inference, training };
enum class Optimizer { adamw, adamw_8bit, sgd };

struct Workload {
  Mode mode = Mode::inference;
  WeightFormat weights = WeightFormat::fp16;
  std::int64_t group_size = 128;  // int4: parameters per fp16 scale
  std::int64_t context = 4096;    // tokens of one sequence (inference: prompt and output; training: sequence length)
  std::int64_t batch = 1;         // sequences at once (training: the micro-batch)
  std::int64_t kv_bytes = 2;      // a KV cache element: 2 (fp16, bf16) or 1 (fp8)
  Optimizer optimizer = Optimizer::adamw;
  bool checkpointing = false;     // activations recomputed in the backward pass
  std::int64_t lora_rank = 0;     // 0: every weight trained
  int zero = 0;                   // ZeRO stage over the data-parallel copies: 1 optimizer, 2 and gradients, 3 and weights
};

// What a named figure is and where it was read ("datasheet", a URL, "nvidia-smi").
struct Figure {
  double value = 0;
  std::string source;
};

// One kind of GPU and how its GPUs are joined.
struct GpuSpec {
  std::string id;    // the matrix's id; empty when the matrix does not know it
  std::string name;  // "NVIDIA A100-SXM4-80GB"
  Figure memory_bytes;      // source: the datasheet's URL; empty for what the GPU reports
  std::string memory_note;  // "the datasheet's 80 GB", "as the CUDA driver reports it"
  std::optional<Figure> bandwidth_gbs;          // memory, GB/s
  std::map<std::string, Figure> tensor_tflops;  // dense, by precision: "fp16", "bf16", "fp8", "int8", "fp32"
  std::optional<Figure> link_gbs;               // between two GPUs, each way, GB/s
  std::string link;                             // "NVLink 3", "PCIe 4.0 x16"; empty: unknown
};

struct Layout {
  int tensor = 1;    // tensor-parallel degree: within one node
  int pipeline = 1;  // pipeline stages
  int data = 1;      // data-parallel copies that share their model states (ZeRO); 1 without
  int gpus() const { return tensor * pipeline * data; }
};

// One part of a GPU's memory.
struct MemoryPart {
  std::string name;       // "weights", "kv_cache", "activations", "gradients", "optimizer", "logits", "reserve"
  std::int64_t bytes = 0;
  bool estimate = false;  // exact from the shape, or a documented estimate
  std::string basis;      // how it was computed, in words with the numbers
  std::string source;     // the URL the method or the figure comes from
};

struct MemoryPlan {
  Layout layout;
  std::vector<MemoryPart> parts;
  std::int64_t total_bytes = 0;
  std::int64_t capacity_bytes = 0;
  bool fits() const { return total_bytes <= capacity_bytes; }
};

// A ceiling on throughput, from one figure.
struct Bound {
  std::string phase;    // "decode", "prefill", "training", "link"
  std::optional<double> tokens_per_second;  // at most; nullopt when a figure is missing
  std::string basis;    // the arithmetic, in words
  std::string figure_source;
  bool binding = false;  // the lowest ceiling of decoding (bandwidth or link)
  bool per_sequence = false;  // decoding's ceilings are one sequence's; the others count every token
};

struct FitAnswer {
  std::int64_t parameters = 0, active_parameters = 0;
  int gpus_per_node = 1, nodes = 1;
  std::optional<MemoryPlan> given;   // on the GPUs given: the smallest layout within them that fits, else all of them
  std::optional<MemoryPlan> needed;  // the smallest layout that fits, when the GPUs given do not hold it
  int node_size = 0;                 // GPUs a node for `needed`: gpus_per_node, or 8 when one GPU was given
  int nodes_needed = 0;              // nodes of node_size for `needed`, each tensor group within one
  std::vector<Bound> bounds;         // for the layout that fits
  std::vector<std::string> notes;
  std::optional<std::string> cannot_tell;  // why no verdict (a figure missing, the arithmetic past its range)
  bool fits() const { return !cannot_tell && given && given->fits(); }
};

// Where each estimate comes from (docs/fit.md cites the same).
inline constexpr const char* kReserveSource = "https://docs.vllm.ai/en/v0.8.1/serving/engine_args.html";
inline constexpr const char* kModelStatesSource = "https://arxiv.org/abs/1910.02054";  // ZeRO, section 3.1 and figure 1
inline constexpr const char* kActivationsSource = "https://arxiv.org/abs/2205.05198";
inline constexpr const char* kFlopsSource = "https://arxiv.org/abs/2001.08361";
inline constexpr const char* kTrainingFlopsSource = "https://arxiv.org/abs/2104.04473";
inline constexpr const char* kTensorParallelSource = "https://arxiv.org/abs/1909.08053";
inline constexpr double kReserveFraction = 0.10;

// The precision the tensor cores run for these weights: int4 weights are
// widened to fp16 before the multiply (GPTQ's and AWQ's kernels).
std::string compute_precision(WeightFormat f);
std::string optimizer_name(Optimizer o);

// The memory of one GPU of `layout`.
MemoryPlan memory_plan(const ModelShape& s, const Workload& w, const GpuSpec& g, Layout layout);

// The whole answer for `gpus_per_node` x `nodes` GPUs of one kind.
FitAnswer fit(const ModelShape& s, const Workload& w, const GpuSpec& g, int gpus_per_node, int nodes);

// The tensor-parallel degrees a model splits into: its attention heads
// divide evenly, and its KV heads divide evenly or are copied whole.
std::vector<int> tensor_parallel_degrees(const ModelShape& s, int at_most);

}  // namespace gpucheck::fit
