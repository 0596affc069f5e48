// The command line: parses arguments and wires host, probes and reports.
// No logic of its own beyond that; each subcommand lives in cmd_<name>.cpp.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "host/host.hpp"
#include "probe.hpp"
#include "cli/run_app.hpp"
#include "rules/knowledge.hpp"
#include "rules/outcome.hpp"
#include "util/dates.hpp"
#include "util/deadline.hpp"

namespace gpucheck {

namespace kernels {
struct KernelRequest;
}

// Exit codes are an API for launchers (docs/exit-codes.md).
inline constexpr int kExitOk = 0;
inline constexpr int kExitFindings = 1;  // check, verify, kernels, matrix validate: what was judged failed
inline constexpr int kExitUsage = 2;     // gpucheck itself could not run
inline constexpr int kExitIncomplete = 3;  // check --from: the paste does not show what a verdict needs
inline int exit_code(Outcome o) { return o == Outcome::fail ? kExitFindings : o == Outcome::incomplete ? kExitIncomplete : kExitOk; }

// A node's own matrix layers (a team's rules), read when the directory exists.
inline constexpr const char* kSystemMatrixDir = "/etc/gpucheck/matrix.d";

struct GlobalOptions {
  std::string root = "/";
  std::string from;    // another tool's report (or gpucheck's JSON) instead of probing
  std::vector<std::string> matrices;  // --matrix PATH, repeatable: layers over the embedded matrix
  double timeout_s = 30;
  // The run's deadline for what is not a probe (reading a report, a
  // fleet): --timeout from when the process started.
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
  Deadline deadline() const {
    return Deadline(started + std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(timeout_s)));
  }
  std::string color = "auto";
  int level = 2;  // --level: 1 files only, 2 (default) + driver API and programs, 3 + kernel checks (check)
  ProbeOptions probe_options() const;
  // What is laid over the embedded matrix, in order: the system's layer
  // directory when it exists (GPUCHECK_MATRIX_DIR, else
  // /etc/gpucheck/matrix.d), then each --matrix.
  std::vector<std::string> matrix_layers() const;
  bool use_color() const;
};

// What a subcommand's callback returns: the exit code.
using CommandRun = std::function<int()>;

void add_probe_command(CLI::App& app, const GlobalOptions& g, CommandRun& action);
void add_snapshot_command(CLI::App& app, const GlobalOptions& g, CommandRun& action);
void add_kernels_command(CLI::App& app, const GlobalOptions& g, CommandRun& action);
void add_check_command(CLI::App& app, const GlobalOptions& g, CommandRun& action);
void add_recommend_command(CLI::App& app, const GlobalOptions& g, CommandRun& action);
void add_explain_command(CLI::App& app, const GlobalOptions& g, CommandRun& action);
void add_matrix_command(CLI::App& app, const GlobalOptions& g, CommandRun& action);
// update, export, sign, verify: under `matrix` (cmd_matrix_bundle.cpp).
void add_matrix_bundle_commands(CLI::App* matrix, const GlobalOptions& g, CommandRun& action);
void add_lock_command(CLI::App& app, const GlobalOptions& g, CommandRun& action);
void add_verify_command(CLI::App& app, const GlobalOptions& g, CommandRun& action);
void add_fleet_command(CLI::App& app, const GlobalOptions& g, CommandRun& action);
void add_fit_command(CLI::App& app, const GlobalOptions& g, CommandRun& action);
// completion (and the hidden manpage): from `app` as it stands when they run.
void add_completion_command(CLI::App& app, CommandRun& action);
// help [COMMAND...]: the --help of gpucheck or of that command.
void add_help_command(CLI::App& app, CommandRun& action);

// Opens --root, or prints why it cannot and returns nullptr.
std::unique_ptr<Host> open_root_or_report(const GlobalOptions& g);

// The facts a verdict is about: probed from --root (the live host by
// default), or read from --from FILE. Prints why on failure (exit code 2).
// `origin`, when given, receives what they are of, for reports: "this host",
// "--root DIR", "--from FILE (PyTorch collect_env)".
std::optional<Facts> acquire_facts(const GlobalOptions& g, const ProbeOptions& opts, std::string* origin = nullptr);

// For what runs on the live machine only: false, after saying why, under
// --root or --from.
bool live_only(const GlobalOptions& g, const std::string& what);

// How the kernel checks run, as `kernels` and `check --kernels` both take it:
// one definition of each option, so the two commands cannot drift apart.
struct KernelFlags {
  std::vector<std::string> precisions;  // --precision; empty: every check
  double step_timeout_s = 10;           // --step-timeout
  double duration_s = 0;                // --duration; 0: no sustained run
  bool portable = false;                // --portable
};
// --precision NAME (repeatable): only these kernel checks.
CLI::Option* add_precision_option(CLI::App* cmd, std::vector<std::string>& precisions);
// --step-timeout SECONDS: how long a kernel check's process may stay silent before it is killed.
CLI::Option* add_step_timeout_option(CLI::App* cmd, double& seconds);
// --duration SECONDS, the kernel checks' sustained mode.
CLI::Option* add_duration_option(CLI::App* cmd, double& seconds);
// --python: more interpreters (or environment prefixes) to look at.
CLI::Option* add_python_option(CLI::App* cmd, std::vector<std::string>& pythons);
// All four (with --portable), bound to `f`; returned so a command can make them need a flag.
std::vector<CLI::Option*> add_kernel_options(CLI::App* cmd, KernelFlags& f);
// Puts the flags (and the --timeout bound) into a request built by kernels::request_for.
void apply_kernel_flags(const KernelFlags& f, const GlobalOptions& g, kernels::KernelRequest& req);
// Runs the checks; on a terminal, a line on standard error says which GPU,
// which precision and, sustained, how long is left (nothing otherwise).
KernelFacts run_kernels_with_progress(kernels::KernelRequest req);

// The matrix in use: the embedded one or a newer cached one
// (update/matrix_source.hpp), with the layers (matrix_layers) laid over it.
Result<Knowledge> load_matrix_in_use(const GlobalOptions& g);
// The same, or prints why not (exit code 2); prints a note when a damaged
// cache was passed over, unless the command reports that itself (`matrix show`).
std::optional<Knowledge> load_knowledge_or_report(const GlobalOptions& g, bool note_passed_over = true);

// Both of the above for a verdict: the matrix is read on a second thread
// while the probes run (independent, and together most of a prolog's time).
// Either's failure is printed, the facts' first; nullopt then.
struct KnowledgeAndFacts {
  Knowledge knowledge;
  Facts facts;
};
std::optional<KnowledgeAndFacts> load_knowledge_and_facts(const GlobalOptions& g, const ProbeOptions& opts,
                                                          std::string* origin = nullptr);

// The day a run judges the matrix's age on: GPUCHECK_TODAY (YYYY-MM-DD,
// for reproducible reports and tests) when set, else today in UTC. Prints
// why and returns nullopt when GPUCHECK_TODAY does not read.
std::optional<Day> judgement_day_or_report();

}  // namespace gpucheck
