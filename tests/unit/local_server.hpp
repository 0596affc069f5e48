// A test server on 127.0.0.1 (tests/net/*.py) that the test starts and
// stops itself: the script prints "PORT <n>" once it listens, and the
// server is killed, with its process group, when this object goes.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace gpucheck::test {

class LocalServer {
 public:
  // python3 SCRIPT ARGS…; waits up to `wait_ms` for the port line.
  LocalServer(const std::string& script, const std::vector<std::string>& args, int wait_ms = 30000) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
    std::vector<std::string> argv{"python3", script};
    argv.insert(argv.end(), args.begin(), args.end());
    pid_ = ::fork();
    if (pid_ == 0) {
      ::setpgid(0, 0);
      ::dup2(fds[1], 1);
      std::vector<char*> raw;
      for (auto& a : argv) raw.push_back(a.data());
      raw.push_back(nullptr);
      ::execvp("python3", raw.data());
      ::_exit(127);
    }
    ::close(fds[1]);
    std::string line;
    pollfd p{fds[0], POLLIN, 0};
    while (line.find('\n') == std::string::npos && ::poll(&p, 1, wait_ms) > 0) {
      char buf[256];
      const ssize_t n = ::read(fds[0], buf, sizeof buf);
      if (n <= 0) break;
      line.append(buf, static_cast<std::size_t>(n));
    }
    ::close(fds[0]);
    if (line.rfind("PORT ", 0) != 0) {
      stop();
      throw std::runtime_error("the test server did not start: " + line);
    }
    port_ = std::stoi(line.substr(5));
  }
  ~LocalServer() { stop(); }
  LocalServer(const LocalServer&) = delete;
  LocalServer& operator=(const LocalServer&) = delete;

  int port() const { return port_; }

 private:
  void stop() {
    if (pid_ <= 0) return;
    ::kill(-pid_, SIGKILL);
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }
  pid_t pid_ = -1;
  int port_ = 0;
};

}  // namespace gpucheck::test
