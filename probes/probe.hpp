// What every probe gets: the host to read, the run's deadline, the facts
// gathered so far (data flows in registry order), and a place for notes.
#pragma once

#include <future>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "facts/facts.hpp"
#include "host/host.hpp"
#include "host/library_locator.hpp"
#include "util/deadline.hpp"

namespace gpucheck {

struct ProbeOptions {
  Millis timeout{30000};            // the whole run
  Millis command_timeout{10000};    // each spawned program
  Millis driver_timeout{10000};     // the isolated CUDA driver API call
  bool deep = false;                // import the frameworks (probes/deep_probe.py)
  Millis deep_timeout{60000};       // the deep probe, per interpreter
  std::vector<std::string> pythons; // --python: interpreters to look at besides the found ones
};

class ProbeContext {
 public:
  ProbeContext(const Host& host, const ProbeOptions& opts) : host_(host), opts_(opts), deadline_(opts.timeout) {}
  const Host& host() const { return host_; }
  const ProbeOptions& options() const { return opts_; }
  const Deadline& deadline() const { return deadline_; }
  const LibraryLocator& locator() {
    if (!locator_) locator_ = std::make_unique<LibraryLocator>(host_);
    return *locator_;
  }
  Facts& facts() { return facts_; }
  void note(std::string subject, std::string item, Problem p) {
    facts_.notes.push_back({std::move(subject), std::move(item), std::move(p)});
  }
  // Reads a small text file; on failure records a note and returns nullopt.
  std::optional<std::string> read_text(const std::string& subject, const std::string& item, const std::string& path);

  // Programs take tens to hundreds of milliseconds to start and answer, the
  // rest of a probe run about as long: start() puts a command at once, on its
  // own thread, and run() of the same command (by key) later takes the answer.
  void start(const Command& cmd);
  Result<CommandResult> run(const Command& cmd);

 private:
  const Host& host_;
  ProbeOptions opts_;
  Deadline deadline_;
  std::unique_ptr<LibraryLocator> locator_;
  Facts facts_;
  std::map<std::string, std::future<Result<CommandResult>>> started_;  // by Command::key()
};

using ProbeFn = void (*)(ProbeContext&);

struct ProbeInfo {
  const char* name;
  const char* reads;  // for docs and --help: the files, commands and libraries it reads
  ProbeFn run;
  ProbeFn start = nullptr;  // before any probe runs: start() the commands it will run
};

// Each probe owns one subject (probes/<name>_probe.cpp).
void probe_system(ProbeContext&);
void probe_pci(ProbeContext&);
void probe_nvidia_kernel(ProbeContext&);
void probe_nvidia_userspace(ProbeContext&);
void probe_cuda_driver_api(ProbeContext&);
void probe_nvidia_smi(ProbeContext&);
void start_nvidia_smi(ProbeContext&);
void probe_services(ProbeContext&);
void probe_kernel_log(ProbeContext&);
void probe_cuda_toolkits(ProbeContext&);
void probe_python(ProbeContext&);
void start_python(ProbeContext&);
void probe_gpu_libraries(ProbeContext&);
void probe_loader(ProbeContext&);
void probe_rocm(ProbeContext&);
void probe_container_runtime(ProbeContext&);

// The registry, in the order they run: a plain array, no self-registration.
const std::vector<ProbeInfo>& all_probes();

// Runs every probe against `host` and returns the facts.
Facts run_probes(const Host& host, const ProbeOptions& opts);

}  // namespace gpucheck
