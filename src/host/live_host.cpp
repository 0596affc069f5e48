// The live machine and the snapshot replay, side by side: both read files
// through RootFs; they differ only in where commands, environment and
// library answers come from.
#include <sys/stat.h>
#include <sys/utsname.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "host/hosts.hpp"
#include "host/own_env.hpp"
#include "host/process.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {
constexpr const char* kDefaultPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
}

std::string Command::key() const {
  std::string k = program;
  for (auto& a : args) k += " " + a;
  return k;
}

// --- live ---

Result<std::string> LiveHost::read_file(const std::string& path, std::size_t max_bytes) const {
  return fs_.read_file(path, max_bytes);
}
Result<std::string> LiveHost::read_range(const std::string& path, std::uint64_t offset, std::size_t length) const {
  return fs_.read_range(path, offset, length);
}
Result<std::vector<DirEntry>> LiveHost::list_dir(const std::string& path) const { return fs_.list_dir(path); }
Result<std::string> LiveHost::read_link(const std::string& path) const { return fs_.read_link(path); }
Result<std::string> LiveHost::real_path(const std::string& path) const { return fs_.real_path(path); }
bool LiveHost::exists(const std::string& path) const { return fs_.exists(path); }

// The live machine's environment is this process's own.
std::optional<std::string> LiveHost::env(const std::string& name) const { return own_env(name); }

Result<Uname> LiveHost::uname() const {
  struct utsname u {};
  if (::uname(&u) != 0) return problem_from_errno(errno, "uname(2)");
  return Uname{u.sysname, u.nodename, u.release, u.version, u.machine};
}

Result<CommandResult> LiveHost::run(const Command& cmd) const {
  const auto path = env("PATH").value_or(kDefaultPath);
  const auto program = find_program(cmd.program, path);
  if (!program) return Problem{Reason::absent, cmd.program, "not found on PATH (" + path + ")"};
  return run_process(*program, cmd.args, cmd.timeout);
}

Result<std::string> LiveHost::isolated_call(const IsolatedCall& call, Millis deadline) const {
  return run_isolated(call, deadline);
}

// --- snapshot ---

const Problem* SnapshotHost::unreadable(const std::string& path) const {
  if (m_.unreadable.empty()) return nullptr;
  auto it = m_.unreadable.find(normalize_path(path));
  return it == m_.unreadable.end() ? nullptr : &it->second;
}

Result<std::string> SnapshotHost::read_file(const std::string& path, std::size_t max_bytes) const {
  if (auto p = unreadable(path)) return *p;
  return fs_.read_file(path, max_bytes);
}
Result<std::string> SnapshotHost::read_range(const std::string& path, std::uint64_t offset, std::size_t length) const {
  if (auto p = unreadable(path)) return *p;
  return fs_.read_range(path, offset, length);
}
Result<std::vector<DirEntry>> SnapshotHost::list_dir(const std::string& path) const {
  if (auto p = unreadable(path)) return *p;
  return fs_.list_dir(path);
}
Result<std::string> SnapshotHost::read_link(const std::string& path) const {
  if (auto p = unreadable(path)) return *p;
  return fs_.read_link(path);
}
Result<std::string> SnapshotHost::real_path(const std::string& path) const {
  if (auto p = unreadable(path)) return *p;
  return fs_.real_path(path);
}
bool SnapshotHost::exists(const std::string& path) const { return fs_.exists(path); }

std::optional<std::string> SnapshotHost::env(const std::string& name) const {
  auto it = m_.env.find(name);
  return it == m_.env.end() ? std::nullopt : it->second;
}

Result<Uname> SnapshotHost::uname() const {
  if (!m_.uname) return Problem{Reason::not_recorded, "uname", "the snapshot's manifest has no uname"};
  return *m_.uname;
}

Result<CommandResult> SnapshotHost::run(const Command& cmd) const {
  auto it = m_.commands.find(cmd.key());
  if (it == m_.commands.end())
    return Problem{Reason::not_recorded, cmd.key(), "the snapshot holds no output for this command"};
  return it->second;
}

Result<std::string> SnapshotHost::isolated_call(const IsolatedCall& call, Millis) const {
  auto it = m_.calls.find(call.key);
  if (it == m_.calls.end()) return Problem{Reason::not_recorded, call.key, "the snapshot holds no answer for this call"};
  return it->second;
}

Result<std::unique_ptr<Host>> open_host(const std::string& given) {
  if (given.empty()) return Problem{Reason::absent, "\"\"", "an empty path names no directory"};
  // A relative root is the same directory as its absolute path ("." is not
  // "/"), so both judge the same snapshot.
  std::error_code ec;
  const std::string root = std::filesystem::absolute(given, ec).lexically_normal().string();
  if (ec) return Problem{Reason::absent, given, ec.message()};
  if (normalize_path(root) == "/") return std::unique_ptr<Host>(std::make_unique<LiveHost>());
  RootFs fs(root);
  if (!std::filesystem::is_directory(root, ec)) return Problem{Reason::absent, given, "no such directory"};
  const std::string dir = fs.root() + kManifestDir;
  Manifest m;
  // The manifest and what it names are read as themselves, never through a
  // link: a snapshot is untrusted input and must not reach outside itself.
  if (struct stat st {}; ::lstat(dir.c_str(), &st) == 0) {
    if (!S_ISDIR(st.st_mode)) return Problem{Reason::malformed, dir, "is not a directory (a link?): a snapshot's .gpucheck must be one"};
    if (::lstat((dir + "/manifest.json").c_str(), &st) == 0) {
      auto text = read_manifest_file(dir + "/manifest.json");
      if (!text) return text.problem();
      auto parsed = parse_manifest(*text, dir);
      if (!parsed) return parsed.problem();
      m = std::move(parsed).value();
    }
  }
  return std::unique_ptr<Host>(std::make_unique<SnapshotHost>(root, std::move(m)));
}

}  // namespace gpucheck
