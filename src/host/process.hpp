// Running things on the live machine with a deadline: programs (no shell)
// and driver calls in a child process, so a hang or crash never reaches us.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "host/host.hpp"

namespace gpucheck {

// Runs `path` with `args`, stdin from /dev/null, working directory "/", in
// its own process group; at the deadline the whole group is killed and
// timed_out is set.
Result<CommandResult> run_process(const std::string& path, const std::vector<std::string>& args,
                                  Millis timeout, std::size_t max_output = kMaxFileBytes);

// A driver call (IsolatedCall, host.hpp) made where its crash or hang
// cannot reach us: in a fresh gpucheck process (this binary re-executed),
// never in a fork of this one, whose other threads may hold a lock (the
// allocator's) that a fork would copy held forever.
using IsolatedFn = std::string (*)(const std::vector<std::string>& args);
struct IsolatedEntry {
  const char* key;
  IsolatedFn fn;
};
inline constexpr const char* kIsolatedCallArg = "--gpucheck-isolated-call";

// Runs `call` in the child (/proc/self/exe kIsolatedCallArg key args…) and
// returns what its function returned. One that outlives the deadline is
// killed with everything it started (Reason::timed_out); one that dies by a
// signal or throws is Reason::failed with the cause.
Result<std::string> run_isolated(const IsolatedCall& call, Millis deadline);

// The child's side, first thing in main(): when argv[1] is kIsolatedCallArg,
// runs the entry argv[2] names and exits; otherwise returns. The child is a
// subreaper (what daemonises stays below it and is killed before it
// answers), and its standard input and output are /dev/null: standard
// output is the report's, so a library that prints must not reach it.
void serve_isolated_call(int argc, char** argv, const std::vector<IsolatedEntry>& entries);

// How a watched child ended.
struct ChildEnd {
  enum class How { exited, signaled, timed_out, not_started } how = How::exited;
  int exit_code = 0;
  int signal = 0;
  std::string detail;  // in words: "no answer within 10000 ms; the child was killed", "signal 11 (Segmentation fault)"
};

// A forked child that streams its answers one line at a time, for the kernel
// checks: each step gets its own deadline, and the lines written before a
// hang or crash survive it (run_isolated returns only a whole answer). It
// forks, so call it only with no other thread alive (the kernel checks run
// after the probes). The child is set up and cleaned up as run_isolated's,
// in its own process group; `body` gets a function that sends one line. The
// parent calls `on_line` for each line; its return value is the time the
// child has for the next one. A child silent past that, or past `overall`,
// is killed with everything it started.
using LineSender = std::function<void(const std::string&)>;
ChildEnd run_streaming_child(const std::function<void(const LineSender&)>& body,
                             const std::function<Millis(const std::string&)>& on_line, Millis first_line,
                             Millis overall);

// Looks `name` up in a PATH-style list of directories, inside `root`.
std::optional<std::string> find_program(const std::string& name, const std::string& path_list,
                                        const std::string& root = "");

}  // namespace gpucheck
