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

TEST_CASE("run_in_child returns what the function returned", "[process]") {
  auto r = gpucheck::run_in_child([] { return std::string("answer from the child"); }, Millis(2000), "test-call");
  REQUIRE(r);
  CHECK(*r == "answer from the child");

  // More than a pipe buffer holds: the parent must drain while the child writes.
  const std::string big(1 << 20, 'x');
  auto large = gpucheck::run_in_child([&] { return big; }, Millis(5000), "test-call");
  REQUIRE(large);
  CHECK(large->size() == big.size());
  CHECK(*large == big);
}

TEST_CASE("run_in_child reports a throwing function as failed with its message", "[process]") {
  auto r = gpucheck::run_in_child([]() -> std::string { throw std::runtime_error("driver said no"); },
                                  Millis(2000), "test-call");
  REQUIRE_FALSE(r);
  CHECK(r.problem().reason == Reason::failed);
  CHECK(r.problem().where == "test-call");
  CHECK(r.problem().detail == "driver said no");
}

TEST_CASE("run_in_child survives a child that dies by SIGSEGV", "[process]") {
  auto r = gpucheck::run_in_child(
      []() -> std::string {
        // The default action, as in an uninstrumented build: a sanitizer's
        // handler would otherwise report and exit instead of dying by signal.
        std::signal(SIGSEGV, SIG_DFL);
        std::raise(SIGSEGV);
        return "not reached";
      },
      Millis(2000), "test-call");
  REQUIRE_FALSE(r);
  CHECK(r.problem().reason == Reason::failed);
  CHECK_THAT(r.problem().detail, Catch::Contains("signal " + std::to_string(SIGSEGV)));
}

TEST_CASE("run_in_child kills a function that hangs", "[process]") {
  const auto start = Clock::now();
  auto r = gpucheck::run_in_child(
      []() -> std::string {
        for (;;) ::pause();
      },
      Millis(300), "test-call");
  const auto elapsed = Clock::now() - start;
  REQUIRE_FALSE(r);
  CHECK(r.problem().reason == Reason::timed_out);
  CHECK_THAT(r.problem().detail, Catch::Contains("300 ms"));
  CHECK(elapsed >= Millis(300) - kSlack);
  CHECK(elapsed < kBound);
}
