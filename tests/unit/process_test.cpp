// Programs and isolated calls with deadlines (src/host/process.hpp): output
// captured per stream, exit codes and signals reported, hangs killed in time.
// /bin/sh is used here only to script the child's behaviour; the product never
// runs a shell.
#include <signal.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <fstream>
#include <stdexcept>
#include <string>
#include <thread>

#include "host/process.hpp"

using gpucheck::Millis;
using gpucheck::Reason;
using Clock = std::chrono::steady_clock;

namespace {

// A bound that catches a missed deadline, generous enough for a loaded CI box.
constexpr auto kBound = std::chrono::seconds(5);
// The kill comes at the deadline, not at once. process.cpp rounds the time
// left down to whole milliseconds, so it may fire up to 1 ms early.
constexpr auto kSlack = Millis(10);

// True once `pid` is gone or only a zombie waiting for its new parent.
bool dead(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return true;
  const auto paren = line.rfind(')');
  return paren != std::string::npos && paren + 2 < line.size() && line[paren + 2] == 'Z';
}

}  // namespace

TEST_CASE("run_process reports output and exit code", "[process]") {
  auto r = gpucheck::run_process("/bin/sh", {"-c", "echo hi; exit 3"}, Millis(2000));
  REQUIRE(r);
  CHECK(r->exit_code == 3);
  CHECK(r->signal == 0);
  CHECK_FALSE(r->timed_out);
  CHECK(r->out == "hi\n");
  CHECK(r->err.empty());
  CHECK(r->resolved == "/bin/sh");
}

TEST_CASE("run_process keeps stdout and stderr apart", "[process]") {
  auto r = gpucheck::run_process("/bin/sh", {"-c", "echo to-out; echo to-err >&2; echo more-out"}, Millis(2000));
  REQUIRE(r);
  CHECK(r->exit_code == 0);
  CHECK(r->out == "to-out\nmore-out\n");
  CHECK(r->err == "to-err\n");
}

TEST_CASE("run_process kills a program that outlives its deadline", "[process]") {
  const auto start = Clock::now();
  auto r = gpucheck::run_process("/bin/sleep", {"100"}, Millis(300));
  const auto elapsed = Clock::now() - start;
  REQUIRE(r);
  CHECK(r->timed_out);
  CHECK(r->signal == SIGKILL);
  CHECK(r->exit_code == -1);
  CHECK(elapsed >= Millis(300) - kSlack);
  CHECK(elapsed < kBound);
  CHECK(r->elapsed < kBound);
}

TEST_CASE("run_process returns by the deadline when a grandchild holds stdout open", "[process]") {
  // sh exits at once, but the background sleep inherits the pipe: waiting for
  // EOF alone would take 100 s. Shortly after sh exits, its group is killed and
  // the result is sh's own: not a timeout.
  const auto start = Clock::now();
  auto r = gpucheck::run_process("/bin/sh", {"-c", "sleep 100 & echo $!"}, Millis(5000));
  const auto elapsed = Clock::now() - start;
  REQUIRE(r);
  CHECK(elapsed < Millis(2000));  // well before the 5 s deadline
  CHECK_FALSE(r->timed_out);
  CHECK(r->exit_code == 0);
  const pid_t sleeper = static_cast<pid_t>(std::stol(r->out));
  REQUIRE(sleeper > 0);
  bool gone = dead(sleeper);
  for (int i = 0; i < 100 && !gone; ++i) {
    std::this_thread::sleep_for(Millis(20));
    gone = dead(sleeper);
  }
  CHECK(gone);  // the grandchild was killed with its group, not left running
}

TEST_CASE("run_process says absent for a program that does not exist", "[process]") {
  auto r = gpucheck::run_process("/nonexistent/gpucheck-no-such-program", {}, Millis(1000));
  REQUIRE_FALSE(r);
  CHECK(r.problem().reason == Reason::absent);
  CHECK(r.problem().where == "/nonexistent/gpucheck-no-such-program");
}

TEST_CASE("an isolated call returns what its function returned", "[process]") {
  auto r = gpucheck::run_isolated({"test-echo", {"answer", "from the child"}}, Millis(20000));
  REQUIRE(r);
  CHECK(*r == "answer from the child");

  auto large = gpucheck::run_isolated({"test-echo", {"big"}}, Millis(20000));
  REQUIRE(large);
  CHECK(large->size() == std::size_t{1} << 20);
  CHECK(large->find_first_not_of('x') == std::string::npos);

  auto unknown = gpucheck::run_isolated({"no-such-call", {}}, Millis(20000));
  REQUIRE_FALSE(unknown);
  CHECK(unknown.problem().reason == Reason::failed);
  CHECK_THAT(unknown.problem().detail, Catch::Contains("no isolated call named no-such-call"));
}

TEST_CASE("an isolated call that throws is failed with its message", "[process]") {
  auto r = gpucheck::run_isolated({"test-throw", {}}, Millis(20000));
  REQUIRE_FALSE(r);
  CHECK(r.problem().reason == Reason::failed);
  CHECK(r.problem().where == "test-throw");
  CHECK(r.problem().detail == "driver said no");
}

TEST_CASE("an isolated call that dies by SIGSEGV is failed, and we survive", "[process]") {
  auto r = gpucheck::run_isolated({"test-segv", {}}, Millis(20000));
  REQUIRE_FALSE(r);
  CHECK(r.problem().reason == Reason::failed);
  CHECK_THAT(r.problem().detail, Catch::Contains("signal " + std::to_string(SIGSEGV)));
}

TEST_CASE("an isolated call that hangs is killed at its deadline", "[process]") {
  // The child is this test binary started again: its start-up (a second or
  // so under a sanitizer) is inside the deadline.
  const auto start = Clock::now();
  auto r = gpucheck::run_isolated({"test-hang", {}}, Millis(3000));
  const auto elapsed = Clock::now() - start;
  REQUIRE_FALSE(r);
  CHECK(r.problem().reason == Reason::timed_out);
  CHECK_THAT(r.problem().detail, Catch::Contains("3000 ms"));
  CHECK(elapsed >= Millis(3000) - kSlack);
  CHECK(elapsed < Millis(3000) + kBound);
}
