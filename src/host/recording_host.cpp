// Records what the probes read and lays it out as a snapshot directory.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>

#include "host/hosts.hpp"
#include "util/paths.hpp"
#include "util/strings.hpp"

namespace gpucheck {
namespace {

namespace fs = std::filesystem;

std::string child_of(const std::string& dir, const std::string& name) {
  return dir == "/" ? "/" + name : dir + "/" + name;
}

}  // namespace

std::string RecordingHost::trace(const std::string& path) const {
  std::vector<std::string> todo;
  const std::string normal = normalize_path(path);
  for (auto c : split(normal, '/'))
    if (!c.empty()) todo.insert(todo.begin(), std::string(c));
  std::string done = "/";
  int links = 0;
  while (!todo.empty()) {
    std::string c = std::move(todo.back());
    todo.pop_back();
    if (c == "..") {
      done = dir_of(done);
      continue;
    }
    const std::string here = child_of(done, c);
    auto target = inner_.read_link(here);
    if (!target || ++links > 40) {
      done = here;
      continue;
    }
    links_[here] = *target;
    if (!target->empty() && (*target)[0] == '/') done = "/";
    auto parts = split(*target, '/');
    for (auto it = parts.rbegin(); it != parts.rend(); ++it)
      if (!it->empty() && *it != ".") todo.emplace_back(*it);
  }
  return done;
}

void RecordingHost::note_problem(const std::string& path, const Problem& p) const {
  // Absence reproduces itself in the snapshot; every other failure is kept.
  if (p.reason != Reason::absent) m_.unreadable[normalize_path(path)] = p;
}

Result<std::string> RecordingHost::read_file(const std::string& path, std::size_t max_bytes) const {
  std::lock_guard lock(record_mutex_);
  auto r = inner_.read_file(path, max_bytes);
  const auto canon = trace(path);
  if (r) files_[canon] = *r;
  else note_problem(path, r.problem());
  return r;
}

Result<std::string> RecordingHost::read_range(const std::string& path, std::uint64_t offset, std::size_t length) const {
  std::lock_guard lock(record_mutex_);
  auto r = inner_.read_range(path, offset, length);
  const auto canon = trace(path);
  if (r) ranges_[canon][offset] = *r;
  else note_problem(path, r.problem());
  return r;
}

Result<std::vector<DirEntry>> RecordingHost::list_dir(const std::string& path) const {
  std::lock_guard lock(record_mutex_);
  auto r = inner_.list_dir(path);
  const auto canon = trace(path);
  if (r) dirs_[canon] = *r;
  else note_problem(path, r.problem());
  return r;
}

Result<std::string> RecordingHost::read_link(const std::string& path) const {
  std::lock_guard lock(record_mutex_);
  auto r = inner_.read_link(path);
  trace(dir_of(normalize_path(path)));
  if (r) links_[normalize_path(path)] = *r;
  else note_problem(path, r.problem());
  return r;
}

Result<std::string> RecordingHost::real_path(const std::string& path) const {
  std::lock_guard lock(record_mutex_);
  auto r = inner_.real_path(path);
  trace(path);
  if (r) placeholders_.insert(*r);
  else note_problem(path, r.problem());
  return r;
}

bool RecordingHost::exists(const std::string& path) const {
  std::lock_guard lock(record_mutex_);
  const bool e = inner_.exists(path);
  const auto canon = trace(path);
  if (e) placeholders_.insert(canon);
  return e;
}

std::optional<std::string> RecordingHost::env(const std::string& name) const {
  auto v = inner_.env(name);
  std::lock_guard lock(record_mutex_);
  m_.env[name] = v;
  return v;
}

Result<Uname> RecordingHost::uname() const {
  auto u = inner_.uname();
  std::lock_guard lock(record_mutex_);
  if (u) m_.uname = *u;
  return u;
}

Result<CommandResult> RecordingHost::run(const Command& cmd) const {
  auto r = inner_.run(cmd);
  std::lock_guard lock(record_mutex_);
  m_.commands.insert_or_assign(cmd.key(), r);
  return r;
}

Result<std::string> RecordingHost::isolated_call(const IsolatedCall& call, Millis deadline) const {
  auto r = inner_.isolated_call(call, deadline);
  std::lock_guard lock(record_mutex_);
  m_.calls.insert_or_assign(call.key, r);
  return r;
}

Result<std::string> RecordingHost::write_snapshot(const std::string& out, const std::string& description) const {
  std::error_code ec;
  if (fs::exists(out, ec)) return Problem{Reason::failed, out, "already exists; choose a new --out directory"};
  const fs::path final_dir = fs::absolute(out, ec);
  const fs::path tmp = final_dir.parent_path() / (final_dir.filename().string() + ".tmp-" + std::to_string(::getpid()));
  fs::remove_all(tmp, ec);
  if (!fs::create_directories(tmp, ec)) return Problem{Reason::failed, tmp.string(), ec.message()};
  const std::string base = tmp.string();

  auto fail = [&](const std::string& where, const std::string& why) {
    fs::remove_all(tmp, ec);
    return Problem{Reason::failed, where, why};
  };
  // Canonical paths hold no links, so creating their parents never follows one.
  auto make_parents = [&](const std::string& p) {
    std::error_code e;
    fs::create_directories(base + dir_of(p), e);
    return !e;
  };
  auto present = [&](const std::string& p) {
    struct stat st {};
    return ::lstat((base + p).c_str(), &st) == 0;
  };

  for (auto& [p, target] : links_) {
    if (!make_parents(p)) return fail(p, "cannot create parent directory");
    if (::symlink(target.c_str(), (base + p).c_str()) != 0 && errno != EEXIST)
      return fail(p, "cannot create link");
  }
  for (auto& [p, entries] : dirs_) {
    if (links_.count(p)) continue;
    fs::create_directories(base + p, ec);
  }
  for (auto& [p, content] : files_) {
    if (!make_parents(p)) return fail(p, "cannot create parent directory");
    std::ofstream f(base + p, std::ios::binary);
    f << content;
    if (!f) return fail(p, "cannot write file");
  }
  // Ranges of large files land at their offsets in a sparse file.
  for (auto& [p, ranges] : ranges_) {
    if (files_.count(p)) continue;
    if (!make_parents(p)) return fail(p, "cannot create parent directory");
    const int fd = ::open((base + p).c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return fail(p, "cannot write file");
    for (auto& [offset, bytes] : ranges)
      if (::pwrite(fd, bytes.data(), bytes.size(), static_cast<off_t>(offset)) != static_cast<ssize_t>(bytes.size())) {
        ::close(fd);
        return fail(p, "cannot write file");
      }
    ::close(fd);
  }
  // Entries a listing showed but nobody read still have to be listed on replay.
  for (auto& [p, entries] : dirs_) {
    for (auto& e : entries) {
      const std::string c = child_of(p, e.name);
      if (present(c)) continue;
      if (e.type == EntryType::directory) fs::create_directories(base + c, ec);
      else if (e.type == EntryType::file) std::ofstream(base + c).flush();
    }
  }
  for (auto& p : placeholders_) {
    if (present(p)) continue;
    if (!make_parents(p)) return fail(p, "cannot create parent directory");
    std::ofstream(base + p).flush();
  }

  Manifest m = m_;
  m.description = description;
  fs::create_directories(base + kManifestDir + "/commands", ec);
  auto text = write_manifest(m, base + kManifestDir);
  if (!text) return fail(text.problem().where, text.problem().detail);
  std::ofstream mf(base + kManifestDir + "/manifest.json", std::ios::binary);
  mf << *text;
  if (!mf) return fail("manifest.json", "cannot write");
  mf.close();
  fs::rename(tmp, final_dir, ec);
  if (ec) return fail(final_dir.string(), ec.message());
  return final_dir.string();
}

}  // namespace gpucheck
