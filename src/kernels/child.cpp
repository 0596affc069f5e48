// Fork, pipe, poll: see child.hpp.
#include "kernels/child.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "host/process.hpp"
#include "util/json_text.hpp"

namespace gpucheck::kernels {
namespace {

using Clock = std::chrono::steady_clock;

}  // namespace

ChildEnd run_streaming_child(const std::function<void(const std::function<void(const std::string&)>&)>& body,
                             const std::function<Millis(const std::string&)>& on_line, Millis first_line,
                             Millis overall) {
  int fd[2];
  if (::pipe2(fd, O_CLOEXEC) != 0)
    return {ChildEnd::How::not_started, -1, 0, std::string("pipe: ") + std::strerror(errno)};
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fd[0]);
    ::close(fd[1]);
    return {ChildEnd::How::not_started, -1, 0, std::string("fork: ") + std::strerror(errno)};
  }
  if (pid == 0) {
    enter_isolated_child();
    ::close(fd[0]);
    int code = 0;
    try {
      body([&](const std::string& line) { write_all(fd[1], line + "\n"); });
    } catch (const std::exception& e) {
      write_all(fd[1], dump_json(nlohmann::json{{"child_exception", e.what()}}) + "\n");
      code = 3;
    }
    leave_isolated_child();
    ::_exit(code);  // no atexit handlers or static destructors in the child
  }
  ::setpgid(pid, pid);
  ::close(fd[1]);
  const auto end_all = Clock::now() + overall;
  auto end_line = std::min(end_all, Clock::now() + first_line);
  Millis waited_for = first_line;
  std::string buf;
  bool timed_out = false;
  char chunk[4096];
  while (true) {
    const auto left = std::chrono::ceil<Millis>(end_line - Clock::now()).count();
    if (left <= 0) {
      timed_out = true;
      break;
    }
    pollfd p{fd[0], POLLIN, 0};
    const int r = ::poll(&p, 1, static_cast<int>(left));
    if (r < 0 && errno == EINTR) continue;
    if (r == 0) continue;  // the loop top decides
    const ssize_t n = ::read(fd[0], chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // EOF: the child is gone (or closed its end)
    buf.append(chunk, static_cast<std::size_t>(n));
    std::size_t nl;
    while ((nl = buf.find('\n')) != std::string::npos) {
      const std::string line = buf.substr(0, nl);
      buf.erase(0, nl + 1);
      waited_for = on_line(line);
      end_line = std::min(end_all, Clock::now() + waited_for);
    }
  }
  ::close(fd[0]);
  ChildEnd end;
  if (timed_out) {
    kill_isolated_child(pid);
    ::waitpid(pid, nullptr, 0);
    end.how = ChildEnd::How::timed_out;
    end.detail = "no answer within " + std::to_string(waited_for.count()) + " ms; the child was killed";
    return end;
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  ::kill(-pid, SIGKILL);  // anything it left behind in its group
  if (WIFSIGNALED(status)) {
    end.how = ChildEnd::How::signaled;
    end.signal = WTERMSIG(status);
    const char* d = ::strsignal(end.signal);
    end.detail = "signal " + std::to_string(end.signal) + (d ? std::string(" (") + d + ")" : "");
  } else {
    end.exit_code = WEXITSTATUS(status);
    end.detail = "exit code " + std::to_string(end.exit_code);
  }
  return end;
}

}  // namespace gpucheck::kernels
