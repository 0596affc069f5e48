// Records what the probes read and lays it out as a snapshot directory.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>
#include <filesystem>
#include <fstream>

#include "host/hosts.hpp"
#include "host/snapshot_leftovers.hpp"
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
  // The reader's rules (RootFs): at most 40 links for each component of the
  // path as given, counting the components its links expand to; past that
  // the reader refuses the path, so nothing below it is recorded.
  struct Part {
    std::string name;
    bool given;  // a component of `path` itself, not of a link's target
  };
  std::vector<Part> todo;
  const std::string normal = normalize_path(path);
  for (auto c : split(normal, '/'))
    if (!c.empty()) todo.insert(todo.begin(), Part{std::string(c), true});
  std::string done = "/";
  int links = 0;
  while (!todo.empty()) {
    Part c = std::move(todo.back());
    todo.pop_back();
    if (c.given) links = 0;
    if (c.name == "..") {
      done = dir_of(done);
      continue;
    }
    const std::string here = child_of(done, c.name);
    auto target = inner_.read_link(here);
    if (!target) {
      done = here;
      continue;
    }
    if (++links > kMaxLinks) return here;
    links_[here] = *target;
    if (!target->empty() && (*target)[0] == '/') done.assign(1, '/');  // assign, not = "/": GCC 12's -Wrestrict misfires at -O3
    auto parts = split(*target, '/');
    for (auto it = parts.rbegin(); it != parts.rend(); ++it)
      if (!it->empty() && *it != ".") todo.push_back(Part{std::string(*it), false});
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
  // Keyed below the parent's real place, as every other recording: a link
  // read through another (sysfs's devices/X/driver) is written where the
  // reader will look, never through the link the writer recreates.
  const std::string normal = normalize_path(path);
  const std::string parent = trace(dir_of(normal));
  if (r) links_[child_of(parent, base_of(normal))] = *r;
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

namespace {

// A directory below `base` (an open directory), created as needed, walked
// one component at a time without following a link: whatever the recorded
// paths say, nothing is written outside the snapshot or through a link it
// holds. -1 with errno set (ELOOP, ENOTDIR: a link or file on the way).
int open_dir_below(int base, const std::string& rel) {
  int cur = ::fcntl(base, F_DUPFD_CLOEXEC, 0);
  for (auto part : split(rel, '/')) {
    if (part.empty() || part == ".") continue;
    const std::string name(part);
    if (name == "..") {
      ::close(cur);
      errno = EINVAL;
      return -1;
    }
    int next = ::openat(cur, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (next < 0 && errno == ENOENT && ::mkdirat(cur, name.c_str(), 0755) == 0)
      next = ::openat(cur, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    const int err = errno;
    ::close(cur);
    if (next < 0) {
      errno = err;
      return -1;
    }
    cur = next;
  }
  return cur;
}

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  bool ok() const { return fd_ >= 0; }

 private:
  int fd_;
};

bool write_all(int fd, std::string_view text, off_t offset) {
  while (!text.empty()) {
    const ssize_t n = ::pwrite(fd, text.data(), text.size(), offset);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    text.remove_prefix(static_cast<std::size_t>(n));
    offset += n;
  }
  return true;
}

}  // namespace

Result<RecordingHost::WrittenSnapshot> RecordingHost::write_snapshot(const std::string& out, const std::string& description) const {
  std::error_code ec;
  if (struct stat st {}; ::lstat(out.c_str(), &st) == 0)
    return Problem{Reason::failed, out, "already exists; choose a new --out directory"};
  const fs::path final_dir = fs::absolute(out, ec).lexically_normal();
  // A fresh directory of our own beside the target: an X.tmp-* already there
  // is left alone unless its name says its writer is gone.
  const std::size_t leftovers = remove_dead_snapshot_leftovers(final_dir.parent_path().string());
  // Named for its writer from the moment it exists, so a kill at any point
  // leaves a directory the next run can recognise as dead.
  const auto me = this_snapshot_writer();
  std::string tmpl = (final_dir.parent_path() / (me ? snapshot_temp_name(final_dir.filename().string(), *me)
                                                    : final_dir.filename().string() + ".tmp-XXXXXX"))
                         .string();
  if (me ? ::mkdir(tmpl.c_str(), 0700) != 0 : !::mkdtemp(tmpl.data()))
    return Problem{Reason::failed, tmpl, std::string("cannot create: ") + std::strerror(errno)};
  const fs::path tmp = tmpl;
  const Fd base(::open(tmpl.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  auto fail = [&](const std::string& where, const std::string& why) {
    fs::remove_all(tmp, ec);
    return Problem{Reason::failed, where, why};
  };
  if (!base.ok()) return fail(tmpl, std::strerror(errno));
  auto parent_of = [&](const std::string& p) { return Fd(open_dir_below(base.get(), dir_of(p))); };
  auto why_not = [](const std::string& what) {
    return what + ": " + std::strerror(errno) + (errno == ELOOP || errno == ENOTDIR ? " (a link or a file on the way: not written through)" : "");
  };
  // A file once: the recorded content wins over a listing's placeholder.
  auto create = [&](const std::string& p, std::string_view content, bool exclusive) -> std::optional<Problem> {
    const Fd dir = parent_of(p);
    if (!dir.ok()) return fail(p, why_not("cannot create its directory"));
    const int flags = O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC | (exclusive ? O_EXCL : 0);
    const Fd f(::openat(dir.get(), base_of(p).c_str(), flags, 0644));
    if (!f.ok()) {
      if (!exclusive && (errno == EEXIST || errno == EISDIR)) return std::nullopt;  // a placeholder: something is there
      return fail(p, why_not("cannot write file"));
    }
    if (!write_all(f.get(), content, 0)) return fail(p, why_not("cannot write file"));
    return std::nullopt;
  };

  for (auto& [p, target] : links_) {
    const Fd dir = parent_of(p);
    if (!dir.ok()) return fail(p, why_not("cannot create its directory"));
    if (::symlinkat(target.c_str(), dir.get(), base_of(p).c_str()) != 0 && errno != EEXIST)
      return fail(p, why_not("cannot create link"));
  }
  for (auto& [p, entries] : dirs_) {
    if (links_.count(p)) continue;
    if (!Fd(open_dir_below(base.get(), p)).ok()) return fail(p, why_not("cannot create directory"));
  }
  for (auto& [p, content] : files_)
    if (auto e = create(p, content, true)) return *e;
  // Ranges of large files land at their offsets in a sparse file.
  for (auto& [p, ranges] : ranges_) {
    if (files_.count(p)) continue;
    const Fd dir = parent_of(p);
    if (!dir.ok()) return fail(p, why_not("cannot create its directory"));
    const Fd f(::openat(dir.get(), base_of(p).c_str(), O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644));
    if (!f.ok()) return fail(p, why_not("cannot write file"));
    for (auto& [offset, bytes] : ranges)
      if (!write_all(f.get(), bytes, static_cast<off_t>(offset))) return fail(p, why_not("cannot write file"));
  }
  // Entries a listing showed but nobody read still have to be listed on replay.
  for (auto& [p, entries] : dirs_) {
    if (links_.count(p)) continue;
    for (auto& e : entries) {
      // A listing types a link by what it points at; the recorded link
      // already stands for it, and nothing is written through it.
      const std::string c = child_of(p, e.name);
      if (links_.count(c)) continue;
      if (e.type == EntryType::directory) {
        if (!Fd(open_dir_below(base.get(), c)).ok()) return fail(c, why_not("cannot create directory"));
      } else if (e.type == EntryType::file) {
        if (auto err = create(c, "", false)) return *err;
      }
    }
  }
  // Deepest first: a directory known only to exist (real_path of a toolkit
  // root) must not become an empty file before what was found below it.
  for (auto it = placeholders_.rbegin(); it != placeholders_.rend(); ++it)
    if (auto e = create(*it, "", false)) return *e;

  Manifest m = m_;
  m.description = description;
  // The manifest's own directory must be a real one of ours, not a link a
  // recorded path put there.
  if (!Fd(open_dir_below(base.get(), std::string(kManifestDir) + "/commands")).ok())
    return fail(kManifestDir, why_not("cannot create"));
  auto text = write_manifest(m, tmpl + kManifestDir);
  if (!text) return fail(text.problem().where, text.problem().detail);
  if (auto e = create(std::string(kManifestDir) + "/manifest.json", *text, true)) return *e;
  // Never onto a directory that appeared since the check above (another
  // run's: rename would replace an empty one); the loser of that race is
  // told as the check would have told it.
  int moved = ::renameat2(AT_FDCWD, tmpl.c_str(), AT_FDCWD, final_dir.c_str(), RENAME_NOREPLACE);
  if (moved != 0 && errno == EINVAL) moved = ::rename(tmpl.c_str(), final_dir.c_str());  // a file system without NOREPLACE
  if (moved != 0) {
    const int err = errno;
    if (err == EEXIST || err == ENOTEMPTY) return fail(out, "already exists (another run wrote it first); choose a new --out directory");
    return fail(final_dir.string(), std::strerror(err));
  }
  return WrittenSnapshot{final_dir.string(), leftovers};
}

}  // namespace gpucheck
