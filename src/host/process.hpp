// Running things on the live machine with a deadline: programs (no shell)
// and functions in a forked child, so a hang or crash never reaches us.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "host/host.hpp"

namespace gpucheck {

// Runs `path` with `args`, stdin from /dev/null, in its own process group;
// at the deadline the whole group is killed and timed_out is set.
Result<CommandResult> run_process(const std::string& path, const std::vector<std::string>& args,
                                  Millis timeout, std::size_t max_output = kMaxFileBytes);

// Forks, runs fn in the child and returns what it returned. A child that
// outlives the deadline is killed (Reason::timed_out); one that dies by a
// signal or throws is Reason::failed with the cause.
// First thing in a forked child: its own process group, so a deadline's
// kill reaches whatever it starts; a subreaper, so what daemonises
// (setsid, double fork) stays below it; standard input and output on
// /dev/null: standard output is the report's (`--json`), so a library that
// prints must not reach it, nor may one that reads standard input block.
void enter_isolated_child();
// Last thing in it, before _exit: kills what it started that still runs
// (a driver's helper holding our pipe would keep the answer from arriving).
void leave_isolated_child();
// From the parent: kills the child, its group and every descendant.
void kill_isolated_child(int pid);

Result<std::string> run_in_child(const std::function<std::string()>& fn, Millis deadline,
                                 const std::string& what);

// Looks `name` up in a PATH-style list of directories, inside `root`.
std::optional<std::string> find_program(const std::string& name, const std::string& path_list,
                                        const std::string& root = "");

}  // namespace gpucheck
