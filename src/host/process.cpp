#include "host/process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <dirent.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <string_view>

#include "host/root_fs.hpp"
#include "util/json_text.hpp"
#include "util/strings.hpp"

extern char** environ;

namespace gpucheck {
namespace {

using Clock = std::chrono::steady_clock;

struct Pipe {
  int fd[2] = {-1, -1};
  bool open() { return ::pipe2(fd, O_CLOEXEC) == 0; }
  void close_read() { if (fd[0] >= 0) ::close(fd[0]); fd[0] = -1; }
  void close_write() { if (fd[1] >= 0) ::close(fd[1]); fd[1] = -1; }
  ~Pipe() { close_read(); close_write(); }
};

int remaining_ms(Clock::time_point end) {
  // Rounded up: a deadline must never fire before its time.
  const auto left = std::chrono::ceil<Millis>(end - Clock::now()).count();
  return left > 0 ? static_cast<int>(left) : 0;
}

enum class DrainEnd { eof, deadline, owner_exited };

// Once the program has exited, what a background child of it still writes to
// the inherited pipes is read for this long, then the pipes are abandoned.
constexpr Millis kExitGrace{100};

// Reads every fd until EOF, the deadline, or shortly after `exited` first
// says the program is gone (a daemon it started may hold the pipe forever).
DrainEnd drain(std::vector<int> fds, std::vector<std::string*> sinks, Clock::time_point end, std::size_t cap,
               const std::function<bool()>& exited = {}) {
  char buf[65536];
  std::optional<Clock::time_point> grace_end;
  while (true) {
    std::vector<pollfd> pfds;
    for (int fd : fds)
      if (fd >= 0) pfds.push_back({fd, POLLIN, 0});
    if (pfds.empty()) return DrainEnd::eof;
    if (exited && !grace_end && exited()) grace_end = Clock::now() + kExitGrace;
    if (grace_end && Clock::now() >= *grace_end) return DrainEnd::owner_exited;
    int left = remaining_ms(grace_end ? std::min(end, *grace_end) : end);
    if (!grace_end && remaining_ms(end) == 0) return DrainEnd::deadline;
    if (exited) left = std::min(left, 50);  // wake up to look at the program
    const int r = ::poll(pfds.data(), pfds.size(), left);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return DrainEnd::eof;
    if (r == 0) {
      if (remaining_ms(end) == 0) return DrainEnd::deadline;
      continue;
    }
    for (auto& p : pfds) {
      if (!(p.revents & (POLLIN | POLLHUP | POLLERR))) continue;
      for (std::size_t i = 0; i < fds.size(); ++i) {
        if (fds[i] != p.fd) continue;
        const ssize_t n = ::read(p.fd, buf, sizeof buf);
        if (n > 0) {
          if (sinks[i]->size() < cap) sinks[i]->append(buf, std::min<std::size_t>(n, cap - sinks[i]->size()));
        } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
          fds[i] = -1;
        }
      }
    }
  }
}

std::string signal_name(int sig) {
  const char* d = ::strsignal(sig);
  return "signal " + std::to_string(sig) + (d ? std::string(" (") + d + ")" : "");
}

}  // namespace

std::optional<std::string> find_program(const std::string& name, const std::string& path_list,
                                        const std::string& root) {
  if (name.find('/') != std::string::npos) return name;
  for (auto dir : split(path_list, ':')) {
    if (dir.empty() || dir[0] != '/') continue;  // a relative PATH entry is never trusted
    const std::string candidate = std::string(dir) + "/" + name;
    struct stat st {};
    if (::stat((root + candidate).c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
        (root.empty() ? ::access(candidate.c_str(), X_OK) == 0 : true))
      return candidate;
  }
  return std::nullopt;
}

namespace {

// Every live process below `root`, read from /proc (a parent id per
// process). The tree may change while it is read; callers kill and look again.
std::vector<pid_t> descendants_of(pid_t root) {
  std::multimap<pid_t, pid_t> children;  // parent -> child
  if (DIR* d = ::opendir("/proc")) {
    while (const dirent* e = ::readdir(d)) {
      const auto pid = parse_int(e->d_name);
      if (!pid) continue;
      char buf[512];
      const int fd = ::open(("/proc/" + std::string(e->d_name) + "/stat").c_str(), O_RDONLY | O_CLOEXEC);
      if (fd < 0) continue;
      const ssize_t n = ::read(fd, buf, sizeof buf - 1);
      ::close(fd);
      if (n <= 0) continue;
      // "pid (comm) state ppid …": comm may hold spaces and parentheses.
      const std::string_view stat(buf, static_cast<std::size_t>(n));
      const auto close = stat.rfind(')');
      if (close == std::string_view::npos || close + 4 >= stat.size()) continue;
      const auto fields = split(stat.substr(close + 2), ' ');
      if (fields.size() < 2) continue;
      if (const auto ppid = parse_int(fields[1])) children.emplace(static_cast<pid_t>(*ppid), static_cast<pid_t>(*pid));
    }
    ::closedir(d);
  }
  std::vector<pid_t> out;
  std::vector<pid_t> todo{root};
  while (!todo.empty()) {
    const pid_t p = todo.back();
    todo.pop_back();
    auto [lo, hi] = children.equal_range(p);
    for (auto it = lo; it != hi; ++it) {
      out.push_back(it->second);
      todo.push_back(it->second);
    }
  }
  return out;
}

void kill_descendants(pid_t root) {
  for (int round = 0; round < 4; ++round) {
    const auto pids = descendants_of(root);
    if (pids.empty()) return;
    for (pid_t p : pids) ::kill(p, SIGKILL);
  }
}

// Descendants first: were the child killed first, what it daemonised (in
// another group, below it as its subreaper) would be orphaned out of reach.
void kill_tree(pid_t pid) {
  kill_descendants(pid);
  ::kill(-pid, SIGKILL);
  ::kill(pid, SIGKILL);
}

}  // namespace

namespace {

Problem not_started(const std::string& what) {
  return Problem{Reason::timed_out, what, "not started: the run's --timeout was spent"};
}

}  // namespace

Result<CommandResult> run_process(const std::string& path, const std::vector<std::string>& args,
                                  Millis timeout, std::size_t max_output) {
  if (timeout.count() <= 0) return not_started(path);
  const auto start = Clock::now();
  const auto end = start + timeout;
  Pipe out, err;
  if (!out.open() || !err.open()) return problem_from_errno(errno, path);

  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, out.fd[1], 1);
  posix_spawn_file_actions_adddup2(&fa, err.fd[1], 2);
  // Not the user's directory: with `python -c`, sys.path[0] is the working
  // directory, and a json.py or site.py there would run before our script.
  posix_spawn_file_actions_addchdir_np(&fa, "/");
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setpgroup(&attr, 0);  // its own group, so a kill reaches its children too
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);

  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(path.c_str()));
  for (auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);

  pid_t pid = 0;
  const int rc = ::posix_spawn(&pid, path.c_str(), &fa, &attr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) return problem_from_errno(rc, path);
  out.close_write();
  err.close_write();

  CommandResult res;
  res.resolved = path;
  int status = 0;
  bool reaped = false;
  auto exited = [&] {
    if (!reaped && ::waitpid(pid, &status, WNOHANG) == pid) reaped = true;
    return reaped;
  };
  const DrainEnd how = drain({out.fd[0], err.fd[0]}, {&res.out, &res.err}, end, max_output, exited);
  if (how != DrainEnd::eof) kill_tree(pid);  // the program, or what it left holding our pipes
  res.timed_out = how == DrainEnd::deadline && !reaped;
  // The pipes closed, but the program may still be running: wait, bounded.
  while (!reaped) {
    const pid_t w = ::waitpid(pid, &status, res.timed_out ? 0 : WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) break;
    if (w == 0) {
      if (remaining_ms(end) == 0) {
        kill_tree(pid);
        res.timed_out = true;
      } else {
        ::usleep(1000);
      }
    }
  }
  if (WIFEXITED(status)) res.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) res.signal = WTERMSIG(status);
  res.elapsed = std::chrono::duration_cast<Millis>(Clock::now() - start);
  return res;
}

namespace {

// The setup every isolated child does first: its own group, a subreaper (what
// daemonises stays below it), standard input and output on /dev/null.
void enter_isolated_child() {
  ::setpgid(0, 0);
  ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
  if (const int null = ::open("/dev/null", O_RDWR | O_CLOEXEC); null >= 0) {
    ::dup2(null, STDIN_FILENO);
    ::dup2(null, STDOUT_FILENO);
  }
}

void leave_isolated_child() {
  int r;
  while ((r = ::waitpid(-1, nullptr, WNOHANG)) > 0) {}
  if (r != 0) return;  // no child left (the common case): nothing to read in /proc
  kill_descendants(::getpid());
  while (::waitpid(-1, nullptr, 0) > 0) {}
}

const std::string& self_executable() {
  static const std::string path = [] {
    std::error_code ec;
    auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::string("/proc/self/exe") : p.string();
  }();
  return path;
}

// All of `text` to `fd` (a child's answer pipe), retrying on EINTR.
void write_all(int fd, std::string_view text) {
  while (!text.empty()) {
    const ssize_t n = ::write(fd, text.data(), text.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    text.remove_prefix(static_cast<std::size_t>(n));
  }
}

}  // namespace

Result<std::string> run_isolated(const IsolatedCall& call, Millis deadline) {
  std::vector<std::string> args{kIsolatedCallArg, call.key};
  args.insert(args.end(), call.args.begin(), call.args.end());
  auto r = run_process(self_executable(), args, deadline);
  if (!r) {
    auto p = r.problem();
    p.where = call.key;
    return p;
  }
  if (r->timed_out)
    return Problem{Reason::timed_out, call.key, "no answer within " + std::to_string(deadline.count()) + " ms; the call was killed"};
  if (r->signal) return Problem{Reason::failed, call.key, "the isolated call died by " + signal_name(r->signal)};
  if (r->exit_code != 0) return Problem{Reason::failed, call.key, r->out.empty() ? "the isolated call failed" : r->out};
  return r->out;
}

void serve_isolated_call(int argc, char** argv, const std::vector<IsolatedEntry>& entries) {
  if (argc < 3 || std::string_view(argv[1]) != kIsolatedCallArg) return;
  const int answer = ::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
  enter_isolated_child();
  const std::string_view key = argv[2];
  const std::vector<std::string> args(argv + 3, argv + argc);
  int code = 2;
  std::string result = "no isolated call named " + std::string(key);
  for (const auto& e : entries) {
    if (key != e.key) continue;
    try {
      result = e.fn(args);
      code = 0;
    } catch (const std::exception& ex) {
      result = ex.what();
      code = 3;
    }
  }
  leave_isolated_child();
  write_all(answer, result);
  ::_exit(code);  // no static destructors or leak report: the answer is all this process says
}


ChildEnd run_streaming_child(const std::function<void(const LineSender&)>& body,
                             const std::function<Millis(const std::string&)>& on_line, Millis first_line,
                             Millis overall) {
  Pipe answers;
  if (!answers.open()) return {ChildEnd::How::not_started, -1, 0, std::string("pipe: ") + std::strerror(errno)};
  const pid_t pid = ::fork();
  if (pid < 0) return {ChildEnd::How::not_started, -1, 0, std::string("fork: ") + std::strerror(errno)};
  if (pid == 0) {
    enter_isolated_child();
    answers.close_read();
    int code = 0;
    try {
      body([&](const std::string& line) { write_all(answers.fd[1], line + "\n"); });
    } catch (const std::exception& e) {
      write_all(answers.fd[1], dump_json(nlohmann::json{{"child_exception", e.what()}}) + "\n");
      code = 3;
    }
    leave_isolated_child();
    ::_exit(code);  // no atexit handlers or static destructors in the child
  }
  ::setpgid(pid, pid);
  answers.close_write();
  const auto end_all = Clock::now() + overall;
  auto end_line = std::min(end_all, Clock::now() + first_line);
  Millis waited_for = first_line;
  std::string buf;
  bool timed_out = false;
  char chunk[4096];
  while (true) {
    const int left = remaining_ms(end_line);
    if (left == 0) {
      timed_out = true;
      break;
    }
    pollfd p{answers.fd[0], POLLIN, 0};
    const int r = ::poll(&p, 1, left);
    if (r < 0 && errno == EINTR) continue;
    if (r == 0) continue;  // the loop top decides
    const ssize_t n = ::read(answers.fd[0], chunk, sizeof chunk);
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
  answers.close_read();
  ChildEnd end;
  if (timed_out) {
    kill_tree(pid);
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
    end.detail = signal_name(end.signal);
  } else {
    end.exit_code = WEXITSTATUS(status);
    end.detail = "exit code " + std::to_string(end.exit_code);
  }
  return end;
}

}  // namespace gpucheck
