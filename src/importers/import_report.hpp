// Other tools' reports read into Facts, so every command works on what a
// user pasted (`--from FILE`): gpucheck's own JSON, or any text, split into
// the blocks of the outputs gpucheck reads (collect_env, nvidia-smi, pip
// list, …; paste.hpp). The format is recognised from the content, never
// the file name. What a report does not contain is left absent, with a
// note; what it read and did not understand is Facts::report
// (docs/report-formats.md).
#pragma once

#include <string_view>

#include "facts/facts.hpp"
#include "util/deadline.hpp"

namespace gpucheck {

enum class ReportFormat {
  gpucheck_json,      // gpucheck probe --json
  torch_collect_env,  // python -m torch.utils.collect_env
  vllm_collect_env,   // vLLM's collect_env.py
  nvidia_smi_xml,     // nvidia-smi -q -x
  nvidia_smi_query,   // nvidia-smi -q
  nvidia_smi_table,   // nvidia-smi
  paste,              // several blocks, or one of a kind above none of these
};

std::string_view to_string(ReportFormat f);

struct ImportedReport {
  ReportFormat format;
  Facts facts;
};

// `name` is where the text came from (a path, "<stdin>"): it is the Problem's
// `where` and the prefix of every fact's source. Errors (Reason::malformed):
// empty or binary input, a format it does not know (the detail lists those
// it does), or a known format it cannot read (with the field or line); a
// report past a limit of facts/fact_limits.hpp (lines, GPUs). Reading stops
// with Reason::timed_out, naming the line it reached, once `deadline` passes.
Result<ImportedReport> import_report(std::string_view text, std::string_view name, const Deadline& deadline = Deadline::none());

}  // namespace gpucheck
