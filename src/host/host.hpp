// The only door to the machine. Probes ask a Host for files, directory
// listings, links, commands, environment variables and isolated library calls;
// a live Host answers from the running system, a snapshot Host from a
// recorded directory, so every probe runs unchanged on both.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "util/result.hpp"

namespace gpucheck {

using Millis = std::chrono::milliseconds;

// A link is reported as what it leads to (inside the root); a dangling one as other.
enum class EntryType { file, directory, other };

struct DirEntry {
  std::string name;
  EntryType type;
  bool operator<(const DirEntry& o) const { return name < o.name; }
};

struct Command {
  std::string program;            // a name looked up on the host's PATH, or an absolute path
  std::vector<std::string> args;  // no shell: each argument passed as is
  Millis timeout{5000};
  std::string key() const;        // "program arg1 arg2": identifies it in a snapshot
};

struct CommandResult {
  std::string resolved;  // the absolute path that ran
  int exit_code = -1;    // -1 when killed by a signal or not started
  int signal = 0;
  bool timed_out = false;
  std::string out;
  std::string err;
  Millis elapsed{0};
  // A record may say both (a snapshot's hand-written manifest, a program
  // that printed and then crashed): a signal is a failure whatever the code.
  bool succeeded() const { return !timed_out && signal == 0 && exit_code == 0; }
  // "killed by signal 11" or "exit code 9", for a note.
  std::string status_text() const {
    return signal ? "killed by signal " + std::to_string(signal) : "exit code " + std::to_string(exit_code);
  }
};

struct Uname {
  std::string sysname, nodename, release, version, machine;
};

// The largest file we read whole; /proc and sysfs files are tiny, the
// largest legitimate input is nvidia-smi XML for a big node (~1 MB).
inline constexpr std::size_t kMaxFileBytes = 32u << 20;

// A function of the driver probes, by name, with its arguments: what runs
// in the isolated child (host/process.hpp, probes' isolated_calls()), and
// the key of its answer in a snapshot.
struct IsolatedCall {
  std::string key;
  std::vector<std::string> args;
};

// Every method may be called from several threads at once: probes put
// questions to programs and read many files in parallel.
class Host {
 public:
  virtual ~Host() = default;

  // Paths are absolute as on the machine ("/proc/driver/nvidia/version").
  virtual Result<std::string> read_file(const std::string& path, std::size_t max_bytes = kMaxFileBytes) const = 0;
  // Up to `length` bytes from `offset`: for headers of large files (ELF
  // objects of a gigabyte), never read whole. Short at the end of the file.
  virtual Result<std::string> read_range(const std::string& path, std::uint64_t offset, std::size_t length) const = 0;
  virtual Result<std::vector<DirEntry>> list_dir(const std::string& path) const = 0;
  virtual Result<std::string> read_link(const std::string& path) const = 0;
  // The final target of a path after following every link, inside the root.
  virtual Result<std::string> real_path(const std::string& path) const = 0;
  virtual bool exists(const std::string& path) const = 0;
  virtual std::optional<std::string> env(const std::string& name) const = 0;
  virtual Result<Uname> uname() const = 0;
  virtual Result<CommandResult> run(const Command& cmd) const = 0;
  // Runs a driver call where a crash or hang cannot reach us (a child process
  // on a live host, host/process.hpp) and returns its answer; a snapshot
  // answers from its record of the same key.
  virtual Result<std::string> isolated_call(const IsolatedCall& call, Millis deadline) const = 0;
  // True when library calls reach the real machine (not a replay).
  virtual bool is_live() const = 0;
};

}  // namespace gpucheck
