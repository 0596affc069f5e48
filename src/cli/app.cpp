#include "cli/app.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <iostream>

#include "cli/build_info.hpp"
#include "cli/cli_errors.hpp"
#include "cli/cli_values.hpp"
#include "cli/help_text.hpp"
#include "cli/safe_output.hpp"
#include "host/hosts.hpp"
#include "host/own_env.hpp"
#include "importers/import_report.hpp"
#include "facts/fact_limits.hpp"
#include "kernels/run.hpp"
#include "report/format_text.hpp"
#include "update/matrix_source.hpp"
#include "util/files.hpp"
#include "util/strings.hpp"

namespace gpucheck {

ProbeOptions GlobalOptions::probe_options() const {
  ProbeOptions o;
  o.timeout = Millis(static_cast<long>(timeout_s * 1000));
  o.command_timeout = std::min(o.command_timeout, o.timeout);
  o.driver_timeout = std::min(o.driver_timeout, o.timeout);
  return o;
}

bool GlobalOptions::use_color() const {
  if (color == "always") return true;
  if (color == "never") return false;
  // https://no-color.org: any non-empty NO_COLOR disables colour.
  if (const auto no_color = own_env("NO_COLOR"); no_color && !no_color->empty()) return false;
  if (own_env("TERM") == "dumb") return false;
  return ::isatty(STDOUT_FILENO) == 1;
}

std::unique_ptr<Host> open_root_or_report(const GlobalOptions& g) {
  auto host = open_host(g.root);
  if (!host) {
    const auto& p = host.problem();
    error_line() << "cannot use --root " << g.root << ": " << p.where << ": " << p.detail << "\n";
    return nullptr;
  }
  return std::move(host).value();
}

namespace {

// A pasted report is small (facts/fact_limits.hpp); a file is read only
// when it is a regular one, standard input only until the run's deadline.
std::optional<std::string> read_report(const std::string& path, const Deadline& deadline) {
  if (path == "-" && ::isatty(STDIN_FILENO))
    std::cerr << "gpucheck: note: reading the report from standard input; paste it, then press Ctrl-D\n";
  auto text = path == "-" ? read_stream(STDIN_FILENO, kMaxReportBytes, deadline, "standard input") : read_whole_file(path, kMaxReportBytes, "report");
  if (!text) {
    const auto& p = text.problem();
    error_line() << "--from " << p.where << ": " << p.detail << "\n";
    return std::nullopt;
  }
  return std::move(text).value();
}

// The interpreter --python names, as a path on the host: a relative path
// is taken from the working directory and a bare name is looked up on PATH,
// as a shell would (the live host only: inside --root the path is the
// snapshot's, absolute). An error says what was expected.
std::optional<std::string> resolve_python(const Host& host, const std::string& p, bool live, std::string& error) {
  const auto not_found = [&](const std::string& where) {
    error = "--python " + p + ": no such file or directory" + (where.empty() ? "" : " " + where) +
            " (expected an interpreter, or an environment's prefix)";
    return std::nullopt;
  };
  if (!p.empty() && p.front() == '/') {
    if (host.exists(p)) return p;
    return not_found(live ? "" : "inside the --root snapshot");
  }
  if (!live) {
    error = "--python " + p + ": with --root, give the interpreter's absolute path inside the snapshot";
    return std::nullopt;
  }
  if (p.find('/') != std::string::npos) {
    const std::string abs = std::filesystem::absolute(p).lexically_normal().string();
    if (host.exists(abs)) return abs;
    return not_found("(from " + std::filesystem::current_path().string() + ")");
  }
  const std::string path = host.env("PATH").value_or("");
  for (auto dir : split(path, ':')) {
    if (dir.empty() || dir.front() != '/') continue;
    const std::string candidate = std::string(dir) + "/" + p;
    if (host.exists(candidate)) return candidate;
  }
  return not_found("on PATH");
}

}  // namespace

std::optional<Facts> acquire_facts(const GlobalOptions& g, const ProbeOptions& opts, std::string* origin) {
  if (!g.from.empty()) {
    if (g.root != "/") {
      error_line() << "--from and --root cannot be used together: the facts come from one or the other\n";
      return std::nullopt;
    }
    auto text = read_report(g.from, g.deadline());
    if (!text) return std::nullopt;
    auto imported = import_report(*text, g.from == "-" ? "<stdin>" : g.from, g.deadline());
    if (!imported) {
      const auto& p = imported.problem();
      error_line() << "--from " << p.where << ": " << p.detail << "\n";
      return std::nullopt;
    }
    if (origin) *origin = "--from " + g.from + " (" + std::string(to_string(imported->format)) + ")";
    Facts facts = std::move(imported).value().facts;
    facts.from_report = true;
    return facts;
  }
  auto host = open_root_or_report(g);
  if (!host) return std::nullopt;
  // An interpreter the user named is checked, as --root and --from are: a
  // typo must not switch the Python checks off on every node.
  ProbeOptions resolved = opts;
  for (auto& p : resolved.pythons) {
    std::string error;
    auto path = resolve_python(*host, p, g.root == "/", error);
    if (!path) {
      error_line() << error << "\n";
      return std::nullopt;
    }
    p = *path;
  }
  if (origin) *origin = (g.root == "/" ? "this host" : "--root " + g.root) + (g.level == 1 ? ", --level 1 (files only)" : "");
  if (g.level == 1) return run_probes(FilesOnlyHost(*host), resolved);
  return run_probes(*host, resolved);
}

bool live_only(const GlobalOptions& g, const std::string& what) {
  if (g.root == "/" && g.from.empty()) return true;
  error_line() << what << " on the live machine only, not on "
            << (g.from.empty() ? "--root " + g.root : "a --from report") << "\n";
  return false;
}

CLI::Option* add_python_option(CLI::App* cmd, std::vector<std::string>& pythons) {
  return cmd
      ->add_option("--python", pythons,
                   "Also look at this interpreter, or an environment's prefix; repeatable. A relative path is the "
                   "working directory's and a bare name is looked up on PATH, as a shell does; inside --root, an absolute "
                   "path in the snapshot. One that does not exist stops the run (exit 2)")
      ->allow_extra_args(false)
      ->type_name("PATH");
}

CLI::Option* add_duration_option(CLI::App* cmd, double& seconds) {
  return cmd
      ->add_option("--duration", seconds,
                   "Sustained mode, this long on each GPU: after the checks, one tensor-core throughput kernel (bf16, "
                   "else fp16, else fp32 FMA) runs (90, 90s, 10m: more than 0, at most 1 h), sampling the rate, clocks, "
                   "temperature, power and clock-event (throttle) reasons every 0.5 s (NVML; without it, rates only)")
      ->transform(duration_within(0, 3600, true))
      ->type_name("DURATION");
}

CLI::Option* add_precision_option(CLI::App* cmd, std::vector<std::string>& precisions) {
  std::vector<std::string> known = kernels::all_precisions();
  known.push_back("bandwidth");
  known.push_back("p2p");
  return cmd->add_option("--precision", precisions,
                         "Only these kernel checks: repeatable; all of them by default (bandwidth: memory and PCIe; "
                         "p2p: the copies between GPUs)")
      ->check(one_of(known))
      ->allow_extra_args(false)
      ->type_name("NAME");
}

CLI::Option* add_step_timeout_option(CLI::App* cmd, double& seconds) {
  return cmd
      ->add_option("--step-timeout", seconds,
                   "How long a kernel check's process may stay silent (one step, or one sustained-mode sample) "
                   "before it is killed: 10 (seconds, the default), 500ms, 2m; 0.5 s to 10 min")
      ->transform(duration_within(0.5, 600))
      ->type_name("DURATION");
}

std::vector<CLI::Option*> add_kernel_options(CLI::App* cmd, KernelFlags& f) {
  return {add_precision_option(cmd, f.precisions), add_step_timeout_option(cmd, f.step_timeout_s),
          add_duration_option(cmd, f.duration_s),
          cmd->add_flag("--portable", f.portable,
                        "Only kernels whose PTX target every later GPU runs too: mma.sync instead of Hopper's "
                        "wgmma (sm_90a); no FP4/FP6 (sm_120f, sm_100f). For comparing the two paths, or a driver whose "
                        "JIT fails the architecture-specific ones")};
}

void apply_kernel_flags(const KernelFlags& f, const GlobalOptions& g, kernels::KernelRequest& req) {
  req.precisions = f.precisions;
  req.portable = f.portable;
  req.step_timeout = Millis(static_cast<long>(f.step_timeout_s * 1000));
  req.session.sustained_s = f.duration_s;
  // A sample is the line that feeds the per-step watchdog: keep several within one step timeout.
  req.session.sample_s = std::min(0.5, f.step_timeout_s / 4);
  req.overall = Millis(static_cast<long>(g.timeout_s * 1000)) * 10;  // a per-GPU loop: --timeout bounds each step's start
}

KernelFacts run_kernels_with_progress(kernels::KernelRequest req) {
  if (::isatty(STDERR_FILENO) != 1) return kernels::run_kernel_checks(req);
  // Straight to the terminal: the line's own \r and erase sequence would be
  // escaped by the safe stream; the GPU's name, from the driver, is made safe here.
  const auto raw = [](const std::string& s) {
    std::cerr.flush();
    for (std::size_t done = 0; done < s.size();) {
      const auto n = ::write(STDERR_FILENO, s.data() + done, s.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return;
      done += static_cast<std::size_t>(n);
    }
  };
  req.progress = [&raw](const kernels::KernelProgress& p) {
    std::string line = "\r\033[Kgpucheck: GPU " + std::to_string(p.gpu) + "/" + std::to_string(p.gpus) + " (" + safe_line(p.name) +
                       "): " + safe_line(p.step);
    if (p.seconds_left) line += ", " + std::to_string(static_cast<long>(*p.seconds_left + 0.5)) + " s left";
    raw(line);
  };
  auto facts = kernels::run_kernel_checks(req);
  raw("\r\033[K");
  return facts;
}

std::vector<std::string> GlobalOptions::matrix_layers() const {
  std::vector<std::string> out;
  const auto dir = own_env("GPUCHECK_MATRIX_DIR");
  const std::string system = dir && !dir->empty() ? *dir : kSystemMatrixDir;
  std::error_code ec;
  if (std::filesystem::is_directory(system, ec)) out.push_back(system);
  out.insert(out.end(), matrices.begin(), matrices.end());
  return out;
}

Result<Knowledge> load_matrix_in_use(const GlobalOptions& g) {
  auto base = load_base_knowledge();
  if (!base) return base;
  return lay_knowledge(std::move(base).value(), g.matrix_layers());
}

namespace {

std::optional<Knowledge> report_knowledge(Result<Knowledge> k, bool note_passed_over = true) {
  if (!k) {
    const auto& p = k.problem();
    error_line() << "the matrix is not valid, nothing was judged: " << p.where << ": " << p.detail << "\n";
    return std::nullopt;
  }
  // A damaged cache is passed over, never silently: the run goes on, on the
  // matrix named here.
  if (const Matrix& m = k->matrix; note_passed_over && !m.provenance.note.empty())
    std::cerr << "gpucheck: note: " << m.provenance.note << "; using matrix " << m.version << " (" << m.origin << ")\n";
  return std::move(k).value();
}

}  // namespace

std::optional<Knowledge> load_knowledge_or_report(const GlobalOptions& g, bool note_passed_over) {
  return report_knowledge(load_matrix_in_use(g), note_passed_over);
}

std::optional<KnowledgeAndFacts> load_knowledge_and_facts(const GlobalOptions& g, const ProbeOptions& opts,
                                                          std::string* origin) {
  auto matrix = std::async(std::launch::async, [&g] { return load_matrix_in_use(g); });
  auto facts = acquire_facts(g, opts, origin);
  auto knowledge = report_knowledge(matrix.get());
  if (!knowledge || !facts) return std::nullopt;
  return KnowledgeAndFacts{std::move(*knowledge), std::move(*facts)};
}

std::optional<Day> judgement_day_or_report() {
  const auto given = own_env("GPUCHECK_TODAY");
  if (!given || given->empty()) return today_utc();
  if (auto d = parse_iso_date(*given)) return d;
  error_line() << "GPUCHECK_TODAY=\"" << *given << "\": expected a day as YYYY-MM-DD, like 2026-12-01 (or unset it)\n";
  return std::nullopt;
}

namespace {

// The summary line is the man page's NAME (what `apropos gpu` finds); the
// examples and exit codes are help_text.cpp's.
constexpr const char* kAbout =
    "gpucheck: pre-flight check of a GPU machine's driver, CUDA and framework stack\n\n"
    "Will a training job run on this machine, at full speed, on the stack your team pinned? gpucheck reads the GPUs, "
    "the NVIDIA driver, the CUDA driver API, nvidia-smi, the CUDA toolkits and libraries and the Python frameworks "
    "(without importing them), judges them against a built-in compatibility matrix of known-bad combinations, and says "
    "what to fix. Any Linux host, with or without a GPU.";

// "gpucheck 0.1.0 (commit …)" and the matrix in use, its version and date.
std::string version_text(const GlobalOptions& g) {
  std::string out = std::string("gpucheck ") + GPUCHECK_VERSION + " (commit " + kGitCommit + ")\n";
  const auto k = load_matrix_in_use(g);
  if (!k) return out + "matrix: not valid: " + k.problem().where + ": " + k.problem().detail + "\n";
  const Matrix& m = k->matrix;
  return out + "matrix " + m.version + " (" + m.date + "), " + (m.origin == "embedded" || m.provenance.source == "cached" ? m.origin : "from " + m.origin) + "\n";
}

}  // namespace

int run_app(int argc, char** argv) {
  serve_isolated_call(argc, argv, isolated_calls());  // returns unless this process is a driver call's child
  SafeStandardStreams streams;
  CLI::App app{kAbout, "gpucheck"};
  GlobalOptions g;
  bool version = false;
  // Before any command is added: each inherits -h (a summary) and --help (in full).
  app.set_help_flag("-h", "Print a summary of the options; --help prints them in full");
  app.set_help_all_flag("--help", "Print every option in full");
  app.add_flag("-V,--version", version, "Print gpucheck's version and commit, and the matrix's version and date")
      ->group(kRootOnlyGroup);
  bool json = false;
  app.add_flag("--json", json, "With no command: the same as `gpucheck check --json`")->group(kRootOnlyGroup);
  app.add_option("--root", g.root,
                 "Read the machine from this directory: a snapshot (see `gpucheck snapshot`) or a mounted image")
      ->type_name("DIR");
  app.add_option("--timeout", g.timeout_s,
                 "Deadline for the whole run: 30 (seconds, the default), 30s, 500ms, 2m; at least 0.1 s, at most 1 h. Each "
                 "command and driver call gets the smaller of its own limit (10 s) and what is left")
      ->transform(duration_within(0.1, 3600))
      ->type_name("DURATION");
  app.add_option("--from", g.from,
                 "Judge another tool's report instead of this machine: PyTorch's or vLLM's collect_env, nvidia-smi "
                 "(-q, -q -x or the table), gpucheck's own JSON; the format is recognised from the content; - reads standard input")
      ->type_name("FILE");
  app.add_option("--matrix", g.matrices,
                 "Lay this matrix layer (a JSON file or a directory of them) over the built-in matrix: its rules and "
                 "entries add to or replace those of the same id; repeatable, later ones win. A file with its own "
                 "version and date is a whole matrix and replaces what is below it. /etc/gpucheck/matrix.d is laid "
                 "first when present. Format: docs/matrix.md")
      ->type_name("PATH")
      ->allow_extra_args(false);
  app.add_option("--level", g.level,
                 "How much runs: 1 reads files only (no program, no driver call: the cheapest prolog); 2, the default, "
                 "also asks the CUDA driver API, nvidia-smi and the Python interpreters; 3 also runs the kernel checks "
                 "(check only: the same as --kernels). Costs: docs/PERFORMANCE.md, Levels")
      ->check(one_of({"1", "2", "3"}))
      ->type_name("LEVEL");
  app.add_option("--color", g.color, "Colour the text report: auto (on a terminal, unless NO_COLOR is set), always, never")
      ->check(one_of({"auto", "always", "never"}))
      ->type_name("WHEN");
  app.require_subcommand(0, 1);
  app.fallthrough();

  CommandRun action;
  add_check_command(app, g, action);
  add_recommend_command(app, g, action);
  add_explain_command(app, g, action);
  add_fit_command(app, g, action);
  add_matrix_command(app, g, action);
  add_probe_command(app, g, action);
  add_snapshot_command(app, g, action);
  add_kernels_command(app, g, action);
  add_lock_command(app, g, action);
  add_verify_command(app, g, action);
  add_completion_command(app, action);
  add_fleet_command(app, g, action);
  add_help_command(app, action);

  // Every answer on standard output must arrive: a launcher that reads a
  // lost report as a verdict would pass a node nobody judged.
  const auto written = [&streams](int rc) {
    const int err = streams.finish_output();
    if (err == 0) return rc;
    error_line() << "cannot write standard output: " << std::strerror(err) << "\n";
    return kExitUsage;
  };
  const auto help = [&](bool full) {
    std::vector<std::string> path;
    for (const CLI::App* a = &selected_command(app); a->get_parent(); a = a->get_parent()) path.insert(path.begin(), a->get_name());
    std::cout << render_help(describe_cli(app), path, full, help_width());
    return written(kExitOk);
  };
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    return help(false);
  } catch (const CLI::CallForAllHelp&) {
    return help(true);
  } catch (const CLI::ParseError& e) {
    error_line() << parse_error_text(app, e) << "\n";
    return written(kExitUsage);
  }
  if (json && &selected_command(app) != &app) {
    // Taken by the root only because the command has no --json of its own, or it came first.
    error_line() << "--json before a command means `gpucheck check --json`; give it after the command, as `"
                 << command_path(selected_command(app)) << " --json`, where the command has it\n";
    return written(kExitUsage);
  }
  streams.keep_colour(g.use_color());
  if (version) {
    std::cout << version_text(g);
    return written(kExitOk);
  }
  if (!action) {
    // A bare `gpucheck` is `gpucheck check`.
    CLI::App* check = app.get_subcommand("check");
    std::vector<std::string> args;
    if (json) args.push_back("--json");
    check->parse(args);
    if (!action) return kExitUsage;
  }
  return written(action());
}

}  // namespace gpucheck
