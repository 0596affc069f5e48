// A forked child that streams its answers one line at a time, watched by a
// watchdog that restarts with every line: each step of a kernel check gets
// its own deadline, and the lines written before a hang or crash survive it.
// (host/process.hpp's run_isolated returns only a whole answer.) It forks:
// the kernel checks run after the probes, with no other thread alive.
#pragma once

#include <chrono>
#include <functional>
#include <string>

namespace gpucheck::kernels {

using Millis = std::chrono::milliseconds;

struct ChildEnd {
  enum class How { exited, signaled, timed_out, not_started } how = How::exited;
  int exit_code = 0;
  int signal = 0;
  std::string detail;  // in words: "killed after 10000 ms without an answer", "signal 11 (Segmentation fault)"
};

// Runs `body` in a forked child (its own process group), giving it a function
// that sends one line to the parent. The parent calls `on_line` for each line;
// its return value is the time the child has for the next line. A child
// silent past that, or past `overall`, is killed with its whole group.
ChildEnd run_streaming_child(const std::function<void(const std::function<void(const std::string&)>&)>& body,
                             const std::function<Millis(const std::string&)>& on_line, Millis first_line,
                             Millis overall);

}  // namespace gpucheck::kernels
