// What every probe gets: the host to read, the run's deadline, the facts
// gathered so far (data flows in registry order), and a place for notes.
// What may hang (a program, a driver call) starts early on its own thread
// with its own deadline and is answered in the probe's finish step, after
// every probe ran: a hung nvidia-smi or cuInit costs only its own facts.
#pragma once

#include <any>
#include <functional>
#include <future>
#include <optional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "facts/facts.hpp"
#include "host/host.hpp"
#include "host/library_locator.hpp"
#include "host/process.hpp"
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

  // The same for an isolated driver call (Host::isolated_call): started now,
  // answered by take_call in the probe's finish step; nullopt if never started.
  struct CallAnswer {
    Result<std::string> answer;
    Millis deadline;      // what it was given
    std::string library;  // what it loaded, for the notes
  };
  void start_call(IsolatedCall call, Millis deadline, std::string library);
  std::optional<CallAnswer> take_call(const std::string& key);
  // What a probe's start step hands to its run step, by the probe's name:
  // work done once, not again when the programs it started have answered.
  // Empty when the start step did not run (a test calling one probe).
  std::any& handover(const std::string& probe) { return handovers_[probe]; }

 private:
  const Host& host_;
  ProbeOptions opts_;
  Deadline deadline_;
  std::unique_ptr<LibraryLocator> locator_;
  Facts facts_;
  std::map<std::string, std::future<Result<CommandResult>>> started_;  // by Command::key()
  struct StartedCall {
    std::future<Result<std::string>> answer;
    Millis deadline;
    std::string library;
  };
  std::map<std::string, StartedCall> calls_;  // by call key
  std::map<std::string, std::any> handovers_;
};

using ProbeFn = void (*)(ProbeContext&);

struct ProbeInfo {
  const char* name;
  const char* reads;  // for docs and --help: the files, commands and libraries it reads
  ProbeFn run;
  ProbeFn start = nullptr;   // before any probe runs: start() the commands it will run
  ProbeFn finish = nullptr;  // after every probe ran: take the answers of what it started
};

// Each probe owns one subject (probes/<name>_probe.cpp).
void probe_system(ProbeContext&);
void probe_pci(ProbeContext&);
void probe_nvidia_kernel(ProbeContext&);
void probe_nvidia_userspace(ProbeContext&);
void probe_cuda_driver_api(ProbeContext&);
void finish_cuda_driver_api(ProbeContext&);
void probe_nvidia_smi(ProbeContext&);
void start_nvidia_smi(ProbeContext&);
// Where nvidia-smi is absent or did not answer: the same facts from NVML
// (nvml_probe.cpp), called by probe_nvidia_smi.
void health_from_nvml(ProbeContext&);
void probe_services(ProbeContext&);
void probe_kernel_log(ProbeContext&);
void probe_cuda_toolkits(ProbeContext&);
void probe_python(ProbeContext&);
void start_python(ProbeContext&);
void probe_gpu_libraries(ProbeContext&);
void probe_loader(ProbeContext&);
void probe_rocm(ProbeContext&);
void finish_rocm(ProbeContext&);
void probe_container_runtime(ProbeContext&);
void probe_topology(ProbeContext&);
void probe_network(ProbeContext&);
void probe_nvlink(ProbeContext&);
void finish_nvlink(ProbeContext&);

// The registry, in the order they run: a plain array, no self-registration.
const std::vector<ProbeInfo>& all_probes();

// The driver calls the probes make in an isolated child, by key (main()
// serves them: host/process.hpp, serve_isolated_call).
extern const IsolatedEntry kCudaDriverCall;  // cuda_driver_probe.cpp
extern const IsolatedEntry kRocmSmiCall;     // rocm_probe.cpp
extern const IsolatedEntry kNvmlCall;        // nvml_probe.cpp
extern const IsolatedEntry kNvLinkCall;      // nvlink_probe.cpp
const std::vector<IsolatedEntry>& isolated_calls();

// Runs every probe against `host` and returns the facts.
Facts run_probes(const Host& host, const ProbeOptions& opts);

}  // namespace gpucheck
