#include "cli/app.hpp"

#include <unistd.h>

#include <cstdlib>
#include <iostream>

#include "host/hosts.hpp"

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
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color && *no_color) return false;
  const char* term = std::getenv("TERM");
  if (term && std::string(term) == "dumb") return false;
  return ::isatty(STDOUT_FILENO) == 1;
}

std::unique_ptr<Host> open_root_or_report(const GlobalOptions& g) {
  auto host = open_host(g.root);
  if (!host) {
    const auto& p = host.problem();
    std::cerr << "gpucheck: cannot use --root " << g.root << ": " << p.where << ": " << p.detail << "\n";
    return nullptr;
  }
  return std::move(host).value();
}

std::optional<Facts> acquire_facts(const GlobalOptions& g, const ProbeOptions& opts) {
  auto host = open_root_or_report(g);
  if (!host) return std::nullopt;
  return run_probes(*host, opts);
}

int run_app(int argc, char** argv) {
  CLI::App app{
      "gpucheck: will a training job run on this machine, at full speed, on the stack your team pinned?\n\n"
      "Reads the GPUs, the NVIDIA driver (kernel module and userspace), the CUDA driver API and\n"
      "nvidia-smi, without importing any framework. Works on any Linux host, with or without a GPU.\n\n"
      "Examples:\n"
      "  gpucheck probe                      what this machine has, for a person\n"
      "  gpucheck probe --json               the same as JSON (schema: docs/facts-schema.md)\n"
      "  gpucheck snapshot --out node17      record what the probes read, for a bug report\n"
      "  gpucheck probe --root node17        replay a snapshot as if on that machine\n",
      "gpucheck"};
  app.set_version_flag("--version", std::string("gpucheck ") + GPUCHECK_VERSION);
  GlobalOptions g;
  app.add_option("--root", g.root,
                 "Read the machine from this directory: a snapshot (see `gpucheck snapshot`) or a mounted image")
      ->type_name("DIR");
  app.add_option("--timeout", g.timeout_s, "Deadline for the whole run, in seconds; each command and driver call gets the smaller of its own limit (10 s) and what is left")
      ->check(CLI::Range(0.1, 3600.0))
      ->type_name("SECONDS");
  app.add_option("--color", g.color, "Colour the text report: auto (on a terminal, unless NO_COLOR is set), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  app.require_subcommand(0, 1);
  app.fallthrough();

  Action action;
  add_probe_command(app, g, action);
  add_snapshot_command(app, g, action);
  add_lock_command(app, g, action);
  add_verify_command(app, g, action);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? kExitOk : kExitUsage;
  }
  if (!action) {
    // A bare `gpucheck` shows what the machine has.
    CLI::App* probe = app.get_subcommand("probe");
    probe->parse(std::vector<std::string>{});
    if (!action) return kExitUsage;
  }
  return action();
}

}  // namespace gpucheck
