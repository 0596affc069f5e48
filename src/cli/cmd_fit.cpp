// `gpucheck fit`: will a model fit on these GPUs, in which layout, and what
// bounds it (docs/fit.md). Exit code 0 it fits, 1 it does not, 2 gpucheck
// cannot tell (no GPU to answer for, a figure missing, a bad input).
#include <filesystem>
#include <iostream>

#include "cli/app.hpp"
#include "cli/cli_errors.hpp"
#include "cli/cli_values.hpp"
#include "cli/fit_gpus.hpp"
#include "cli/report_output.hpp"
#include "fit/fit_report.hpp"
#include "matrix/lookup.hpp"
#include "report/matrix_json.hpp"
#include "util/files.hpp"
#include "util/strings.hpp"
#include "util/json_text.hpp"

namespace gpucheck {

namespace {

struct FitFlags {
  std::string model;
  std::string dtype = "bf16";
  long group_size = 128;
  long context = 0;  // 0: the model's own (inference), 4096 (training)
  long batch = 1;
  std::string kv_dtype = "16";
  bool train = false;
  long lora = 0;
  std::string optimizer = "adamw";
  bool checkpointing = false;
  long zero = 0;
  std::string gpu;
  long count = 0;  // 0: the host's, or 1 for a named GPU
  long nodes = 1;
  bool compare = false;
};

constexpr std::size_t kConfigMaxBytes = 4 << 20;  // a config.json is a few kB; a 4 MiB one is no config

// --model: a config.json (or a directory holding one) where the path
// exists, else a model the matrix names.
Result<fit::FitQuestion> read_model(const std::string& arg, const Matrix& m) {
  fit::FitQuestion q;
  std::error_code ec;
  if (std::filesystem::exists(arg, ec)) {
    const std::string path = std::filesystem::is_directory(arg, ec) ? (std::filesystem::path(arg) / "config.json").string() : arg;
    auto text = read_whole_file(path, kConfigMaxBytes, "config.json");
    if (!text) return text.problem();
    auto shape = fit::read_model_config(text.value(), path);
    if (!shape) return shape.problem();
    q.shape = shape.value();
    q.model_name = path;
    q.model_source = path;
    return q;
  }
  const auto* known = find_model(m, arg);
  if (!known) {
    std::vector<std::string> ids;
    for (const auto& k : m.models) ids.push_back(k.id);
    std::string detail = in_quotes(arg) + " is no file and no model gpucheck knows";
    if (const auto near = did_you_mean(arg, ids); !near.empty()) detail += " (did you mean \"" + near + "\"?)";
    return Problem{Reason::malformed, "--model", detail + "; give a Hugging Face config.json (or its directory), or one of: " + join(ids, ", ")};
  }
  q.shape = known->shape;
  q.model_name = known->name;
  q.model_id = known->id;
  q.model_source = known->sources.empty() ? known->repo : known->sources.front();
  return q;
}

fit::Workload workload_of(const FitFlags& f, const fit::ModelShape& s) {
  fit::Workload w;
  w.mode = f.train || f.lora > 0 ? fit::Mode::training : fit::Mode::inference;
  w.weights = *fit::weight_format_named(f.dtype);
  w.group_size = f.group_size;
  w.batch = f.batch;
  w.kv_bytes = f.kv_dtype == "fp8" ? 1 : 2;
  // vLLM's max_model_len defaults to the model's own context, and it must
  // hold one such sequence; training's sequence length is a choice.
  w.context = f.context > 0 ? f.context : w.mode == fit::Mode::inference && s.max_context > 0 ? s.max_context : 4096;
  w.optimizer = f.optimizer == "sgd" ? fit::Optimizer::sgd : f.optimizer == "adamw-8bit" ? fit::Optimizer::adamw_8bit : fit::Optimizer::adamw;
  w.checkpointing = f.checkpointing;
  w.lora_rank = f.lora;
  w.zero = static_cast<int>(f.zero);
  return w;
}

// What the arithmetic cannot take, said before it runs.
std::optional<std::string> workload_problem(const fit::Workload& w) {
  const bool sixteen_or_more = w.weights == fit::WeightFormat::fp32 || w.weights == fit::WeightFormat::bf16 || w.weights == fit::WeightFormat::fp16;
  if (w.zero > 0 && w.mode != fit::Mode::training) return "--zero shards training's model states; give --train (or --lora RANK) with it";
  if (w.mode == fit::Mode::training && w.lora_rank == 0 && !sixteen_or_more)
    return "--dtype " + fit::weight_format_name(w.weights) +
           ": training every weight keeps them in fp32, bf16 or fp16; to train over quantised weights, give --lora RANK (QLoRA)";
  return std::nullopt;
}

int usage_error(const std::string& where, const std::string& detail) {
  error_line() << where << ": " << detail << "\n";
  return kExitUsage;
}

}  // namespace

void add_fit_command(CLI::App& app, const GlobalOptions& g, CommandRun& action) {
  auto* cmd = app.add_subcommand(
      "fit",
      "Fit a model to these GPUs and name what bounds it. Memory a GPU by part (weights and "
      "KV cache exact from the model's config.json; activations and a runtime reserve as documented estimates), in the "
      "smallest tensor x pipeline parallel layout that fits, and each phase's ceiling: decoding by memory bandwidth, "
      "prefill and training by the tensor rate, tensor parallelism by the link. The GPUs are this host's (or --root's, "
      "or a --from report's), or named with --gpu. Exit code 0 it fits, 1 it does not, 2 gpucheck cannot tell.");
  auto f = std::make_shared<FitFlags>();
  auto output = std::make_shared<OutputFlags>();
  cmd->add_option("--model", f->model,
                  "The model: a Hugging Face config.json, the directory that holds one, or a well-known model's id, such as "
                  "llama-2-70b, llama-3.1-8b or mixtral-8x7b (a name it does not know lists those it does)")
      ->required()
      ->type_name("NAME|PATH");
  cmd->add_option("--dtype", f->dtype,
                  "The weights' format: fp32, bf16 (the default), fp16, fp8, int8, int4 (AWQ's packing) or int4-gptq "
                  "(GPTQ's, with its group index)")
      ->check(one_of({"fp32", "bf16", "fp16", "fp8", "int8", "int4", "int4-gptq"}))
      ->type_name("FORMAT");
  cmd->add_option("--group-size", f->group_size, "int4: weights per group, each with an fp16 scale and an int4 zero (128 by default, as AWQ and GPTQ)")
      ->check(whole_number(1, 1 << 20))
      ->type_name("N");
  cmd->add_option("--context", f->context,
                  "Tokens of one sequence: prompt and output (inference), or the sequence length (training). Default: the "
                  "model's max_position_embeddings for inference, as vLLM's max_model_len; 4096 for training")
      ->check(whole_number(1, 10'000'000))
      ->type_name("TOKENS");
  cmd->add_option("--batch", f->batch, "Sequences at once (training: the micro-batch); default 1")
      ->check(whole_number(1, 1'000'000))
      ->type_name("N");
  cmd->add_option("--kv-dtype", f->kv_dtype, "The KV cache's element: 16 bits (fp16 or bf16, the default) or fp8")
      ->check(one_of({"16", "fp16", "bf16", "fp8"}))
      ->type_name("FORMAT");
  cmd->add_flag("--train", f->train, "Training instead of inference: weights, gradients, optimizer states and activations");
  cmd->add_option("--lora", f->lora, "Train LoRA adapters of this rank on every linear layer, the weights frozen (implies --train)")
      ->check(whole_number(1, 65536))
      ->type_name("RANK");
  cmd->add_option("--optimizer", f->optimizer, "Training's optimizer: adamw (the default), adamw-8bit or sgd (with momentum)")
      ->check(one_of({"adamw", "adamw-8bit", "sgd"}))
      ->type_name("NAME");
  cmd->add_flag("--checkpointing", f->checkpointing, "Training: recompute activations in the backward pass (keep each layer's input only)");
  cmd->add_option("--zero", f->zero,
                  "Training: the ZeRO stage (DeepSpeed; FSDP's full sharding is stage 3) that shards model states over the data-parallel "
                  "copies: 1 the optimizer's, 2 and the gradients, 3 and the weights; 0 (the default) none")
      ->check(whole_number(0, 3))
      ->type_name("STAGE");
  cmd->add_option("--gpu", f->gpu, "Answer for this GPU instead of the host's: a matrix id (a100-sxm4-80gb) or words that name one model (\"h100 sxm\")")
      ->type_name("ID");
  cmd->add_option("--count", f->count, "GPUs in one node: 1 for a named GPU by default, the host's count otherwise")
      ->check(whole_number(1, 64))
      ->type_name("N");
  cmd->add_option("--nodes", f->nodes, "Nodes of --count GPUs each (pipeline stages may span nodes; tensor parallelism stays within one); default 1")
      ->check(whole_number(1, 4096))
      ->type_name("N");
  cmd->add_flag("--compare", f->compare,
                "Every GPU of the matrix whose memory it gives: the fewest of each that hold the model and the ceilings there, best first");
  add_output_options(cmd, *output, "Output format: text (for a person, the default); json (gpucheck.fit/1, docs/fit.md)", {"text", "json"});
  cmd->callback([&g, &action, f, output] {
    action = [&g, f, output]() -> int {
      auto knowledge = load_knowledge_or_report(g);
      if (!knowledge) return kExitUsage;
      const Matrix& matrix = knowledge->matrix;
      auto question = read_model(f->model, matrix);
      if (!question) return usage_error(question.problem().where, question.problem().detail);
      fit::FitQuestion q = question.value();
      q.workload = workload_of(*f, q.shape);
      if (const auto problem = workload_problem(q.workload)) {
        error_line() << *problem << "\n";
        return kExitUsage;
      }
      const auto emit = [&](const std::function<std::string()>& text, const std::function<nlohmann::ordered_json()>& json) {
        return emit_documents(*output, g, [&](const std::string& format, bool) {
          if (format == "text") return text();
          auto j = nlohmann::ordered_json{{"schema", "gpucheck.fit/1"}, {"gpucheck_version", GPUCHECK_VERSION}, {"matrix", matrix_json(matrix)}};
          j.update(json());
          return dump_json(j, 2) + "\n";
        });
      };
      if (f->compare) {
        std::vector<fit::CompareRow> rows;
        for (const auto& model : matrix.gpus) {
          if (!model.memory_gib) continue;
          auto spec = gpu_spec_of(model);
          // Nodes of eight, as many as a stage per layer takes: the fewest GPUs that hold it.
          rows.push_back({spec, fit::fit(q.shape, q.workload, spec, 8, static_cast<int>(q.shape.layers))});
        }
        fit::sort_compare_rows(rows);
        return emit([&] { return fit::render_compare_text(q, rows); }, [&] { return fit::compare_json(q, rows); }) ? kExitOk : kExitUsage;
      }
      if (!f->gpu.empty()) {
        auto named = named_gpu(matrix, f->gpu);
        if (!named) return usage_error(named.problem().where, named.problem().detail);
        q.gpu = gpu_spec_of(*named.value());
        if (q.gpu.memory_bytes.value <= 0)
          return usage_error("--gpu", "the matrix does not give the memory of " + named.value()->name + "; name another GPU");
        q.gpus_per_node = f->count > 0 ? static_cast<int>(f->count) : 1;
        q.gpus_origin = "named";
      } else {
        std::string origin;
        const auto facts = acquire_facts(g, g.probe_options(), &origin);
        if (!facts) return kExitUsage;
        const auto host = host_gpus(*facts, matrix);
        if (!host) {
          error_line() << origin << " shows no GPU; name one to answer for: --gpu ID (`gpucheck fit --model " << f->model
                       << " --compare` lists them)\n";
          return kExitUsage;
        }
        q.gpu = host->spec;
        q.notes = host->notes;
        q.gpus_per_node = f->count > 0 ? static_cast<int>(f->count) : host->count;
        q.gpus_origin = origin;
      }
      q.nodes = static_cast<int>(f->nodes);
      const auto answer = fit::fit(q.shape, q.workload, q.gpu, q.gpus_per_node, q.nodes);
      if (!emit([&] { return fit::render_fit_text(q, answer); }, [&] { return fit::fit_json(q, answer); })) return kExitUsage;
      return answer.cannot_tell ? kExitUsage : answer.fits() ? kExitOk : kExitFindings;
    };
  });
}

}  // namespace gpucheck
