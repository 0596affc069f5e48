#include "host/root_fs.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "util/strings.hpp"

namespace gpucheck {
namespace {


std::vector<std::string> components(const std::string& path) {
  std::vector<std::string> out;
  for (auto c : split(path, '/'))
    if (!c.empty() && c != ".") out.emplace_back(c);
  return out;
}

// "/a/b" of the components a, b, c: the lexical directory of a path.
std::string parent_of_parts(const std::vector<std::string>& parts) {
  std::string dir;
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) dir += "/" + parts[i];
  return dir;
}

}  // namespace

Problem problem_from_errno(int err, const std::string& where) {
  Reason r = Reason::failed;
  if (err == ENOENT || err == ENOTDIR) r = Reason::absent;
  else if (err == EACCES || err == EPERM) r = Reason::permission_denied;
  else if (err == ETIMEDOUT) r = Reason::timed_out;
  return Problem{r, where, std::strerror(err)};
}

namespace {

// Absolute, and no empty, "." or ".." component: what normalize_path returns.
bool is_normal(std::string_view path) {
  if (path.empty() || path.front() != '/') return false;
  if (path.size() == 1) return true;
  if (path.back() == '/') return false;
  for (std::size_t start = 1; start <= path.size();) {
    const auto end = std::min(path.find('/', start), path.size());
    const auto c = path.substr(start, end - start);
    if (c.empty() || c == "." || c == "..") return false;
    start = end + 1;
  }
  return true;
}

}  // namespace

std::string normalize_path(const std::string& path) {
  // Nearly every path a probe builds is normal already; the live host
  // normalises each one it opens or stats, a thousand in a plain run.
  if (is_normal(path)) return path;
  std::vector<std::string> stack;
  for (auto& c : components(path)) {
    if (c == "..") {
      if (!stack.empty()) stack.pop_back();
    } else {
      stack.push_back(c);
    }
  }
  std::string out;
  for (auto& c : stack) out += "/" + c;
  return out.empty() ? "/" : out;
}

RootFs::RootFs(std::string root) : root_(std::move(root)) {
  while (!root_.empty() && root_.back() == '/') root_.pop_back();
}

Result<std::string> RootFs::walk(const std::string& path, bool follow_last) const {
  if (root_.empty()) return normalize_path(path);  // the kernel resolves links itself
  auto parts = components(path);
  if (parts.empty()) return std::string("/");
  auto base = walk_dir(parent_of_parts(parts));
  if (!base) return base;
  return child(*base, parts.back(), follow_last, path);
}

// One component below a resolved directory. The common case (no link, or
// the last one and not to be followed) needs no split of the path.
Result<std::string> RootFs::child(const std::string& base, const std::string& name, bool follow,
                                  const std::string& path) const {
  if (name != "..") {
    std::string inside = base == "/" ? "/" + name : base + "/" + name;
    struct stat st {};
    if (::lstat((root_ + inside).c_str(), &st) != 0 || !S_ISLNK(st.st_mode) || !follow) return inside;
  }
  return step(components(base), {name}, follow, path);
}

// Walking a directory's path and then the last component ends where walking
// the whole path does: the walk's state after a prefix is that prefix resolved.
Result<std::string> RootFs::walk_dir(const std::string& dir) const {
  if (dir.empty()) return std::string("/");
  {
    std::lock_guard lock(dirs_->mutex);
    if (auto hit = dirs_->resolved.find(dir); hit != dirs_->resolved.end()) return hit->second;
  }
  const auto cut = dir.rfind('/');
  auto base = walk_dir(dir.substr(0, cut));
  if (!base) return base;
  auto inside = child(*base, dir.substr(cut + 1), true, dir);
  if (!inside) return inside;
  std::lock_guard lock(dirs_->mutex);
  dirs_->resolved.emplace(dir, *inside);
  return inside;
}

// Follows `todo` (in order) from the resolved directory `done`, one link at a
// time, absolute targets re-anchored at the root.
Result<std::string> RootFs::step(std::vector<std::string> done, std::vector<std::string> todo, bool follow_last,
                                 const std::string& path) const {
  std::reverse(todo.begin(), todo.end());
  int links = 0;
  while (!todo.empty()) {
    std::string c = std::move(todo.back());
    todo.pop_back();
    if (c == "..") {
      if (!done.empty()) done.pop_back();  // ".." at the root stays at the root
      continue;
    }
    std::string inside;
    for (auto& d : done) inside += "/" + d;
    inside += "/" + c;
    const bool last = todo.empty();
    struct stat st {};
    if (::lstat((root_ + inside).c_str(), &st) != 0 || !S_ISLNK(st.st_mode) || (last && !follow_last)) {
      done.push_back(std::move(c));
      continue;
    }
    if (++links > kMaxLinks) return Problem{Reason::malformed, path, "too many levels of symbolic links"};
    char buf[4096];
    const ssize_t n = ::readlink((root_ + inside).c_str(), buf, sizeof buf - 1);
    if (n < 0) return problem_from_errno(errno, path);
    const std::string target(buf, static_cast<std::size_t>(n));
    if (!target.empty() && target[0] == '/') done.clear();  // re-anchor at the root
    auto more = components(target);
    for (auto it = more.rbegin(); it != more.rend(); ++it) todo.push_back(*it);
  }
  std::string out;
  for (auto& d : done) out += "/" + d;
  return out.empty() ? std::string("/") : out;
}

Result<std::string> RootFs::resolve(const std::string& path) const {
  auto inside = walk(path, true);
  if (!inside) return inside;
  return root_ + *inside;
}

Result<std::string> RootFs::resolve_parent(const std::string& path) const {
  auto inside = walk(path, false);
  if (!inside) return inside;
  return root_ + *inside;
}

Result<std::string> RootFs::real_path(const std::string& path) const {
  if (root_.empty()) {
    char buf[PATH_MAX];
    if (!::realpath(path.c_str(), buf)) return problem_from_errno(errno, path);
    return std::string(buf);
  }
  auto inside = walk(path, true);
  if (!inside) return inside;
  struct stat st {};
  if (::stat((root_ + *inside).c_str(), &st) != 0) return problem_from_errno(errno, path);
  return inside;
}

// Opens the file `path` names inside the root. The directory comes from the
// cache; the file itself is opened without following a link (one lookup
// instead of lstat then open), and only a link takes the whole walk.
Result<int> RootFs::open_file(const std::string& path, int flags) const {
  if (!root_.empty()) {
    auto parts = components(path);
    if (!parts.empty() && parts.back() != "..") {
      auto base = walk_dir(parent_of_parts(parts));
      if (!base) return base.problem();
      const std::string direct = root_ + (*base == "/" ? "" : *base) + "/" + parts.back();
      const int fd = ::open(direct.c_str(), flags | O_NOFOLLOW);
      if (fd >= 0) return fd;
      if (errno != ELOOP) return problem_from_errno(errno, path);
    }
  }
  auto where = resolve(path);
  if (!where) return where.problem();
  const int fd = ::open(where->c_str(), flags);
  if (fd < 0) return problem_from_errno(errno, path);
  return fd;
}

Result<std::string> RootFs::read_file(const std::string& path, std::size_t max_bytes) const {
  // Only regular files are read (sysfs and /proc files are), and on the live
  // machine the one device a probe asks for: opening a device can act (a
  // watchdog starts counting, a tape rewinds), and a FIFO or socket has no
  // end. A snapshot holds regular files only, whatever it claims.
  if (auto where = resolve(path); where) {
    struct stat st {};
    if (::stat(where->c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode) &&
        !(root_.empty() && S_ISCHR(st.st_mode) && normalize_path(path) == "/dev/kmsg"))
      return Problem{Reason::malformed, path,
                     S_ISFIFO(st.st_mode)   ? "is a FIFO, not a regular file: not read"
                     : S_ISSOCK(st.st_mode) ? "is a socket, not a regular file: not read"
                                            : "is a device, not a regular file: not read"};
  }
  // O_NONBLOCK: a character device such as /dev/kmsg ends with EAGAIN
  // instead of waiting for the next message.
  auto opened = open_file(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (!opened) return opened.problem();
  const int fd = *opened;
  std::unique_ptr<int, void (*)(int*)> guard(new int(fd), [](int* p) { ::close(*p); delete p; });
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) return Problem{Reason::malformed, path, "is a directory"};
  // A regular file is read in one go; /proc files (size 0) and devices in
  // chunks, each with room for a whole /dev/kmsg record. The buffer is left
  // uninitialised: zeroing 64 KiB for every /proc file and every kmsg record
  // cost more than the reads themselves.
  const bool sized = S_ISREG(st.st_mode) && st.st_size > 0;
  const std::size_t chunk = sized ? std::min(static_cast<std::size_t>(st.st_size), max_bytes) + 1 : 64 * 1024;
  const auto buffer = std::make_unique_for_overwrite<char[]>(chunk);
  std::string out;
  if (sized) out.reserve(chunk);
  while (out.size() < max_bytes) {
    const ssize_t n = ::read(fd, buffer.get(), chunk);
    if (n > 0) {
      out.append(buffer.get(), static_cast<std::size_t>(n));
      continue;
    }
    if (n == 0) break;
    if (errno == EINTR) continue;
    if (errno == EAGAIN) break;
    if (errno == EPIPE) continue;  // kmsg: the record was overwritten; take the next
    return problem_from_errno(errno, path);
  }
  if (out.size() > max_bytes) out.resize(max_bytes);
  return out;
}

Result<std::string> RootFs::read_range(const std::string& path, std::uint64_t offset, std::size_t length) const {
  auto where = resolve(path);
  if (!where) return where.problem();
  const int fd = ::open(where->c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return problem_from_errno(errno, path);
  std::string out(length, '\0');
  std::size_t got = 0;
  while (got < length) {
    const ssize_t n = ::pread(fd, out.data() + got, length - got, static_cast<off_t>(offset + got));
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      ::close(fd);
      return problem_from_errno(err, path);
    }
    got += static_cast<std::size_t>(n);
  }
  ::close(fd);
  out.resize(got);
  return out;
}

Result<std::vector<DirEntry>> RootFs::list_dir(const std::string& path) const {
  auto where = resolve(path);
  if (!where) return where.problem();
  DIR* d = ::opendir(where->c_str());
  if (!d) return problem_from_errno(errno, path);
  // Subdirectories that are no links are resolved already: the probes read
  // files in them next (every dist-info of a site-packages).
  std::string lexical;
  for (auto& c : components(path)) lexical += "/" + c;
  const std::string inside = root_.empty() ? std::string() : where->substr(root_.size());
  std::vector<std::pair<std::string, std::string>> plain_dirs;
  std::vector<DirEntry> out;
  while (auto* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    EntryType type = EntryType::other;
    if (e->d_type == DT_REG) type = EntryType::file;
    else if (e->d_type == DT_DIR) {
      type = EntryType::directory;
      if (!root_.empty()) plain_dirs.emplace_back(lexical + "/" + name, (inside == "/" ? "" : inside) + "/" + name);
    }
    else if (e->d_type == DT_LNK || e->d_type == DT_UNKNOWN) {
      // Report what the link leads to, resolved inside the root.
      auto target = resolve(path + "/" + name);
      struct stat st {};
      if (target && ::stat(target->c_str(), &st) == 0)
        type = S_ISDIR(st.st_mode) ? EntryType::directory : S_ISREG(st.st_mode) ? EntryType::file : EntryType::other;
    }
    out.push_back({name, type});
  }
  ::closedir(d);
  if (!plain_dirs.empty()) {
    std::lock_guard lock(dirs_->mutex);
    for (auto& [lex, in] : plain_dirs) dirs_->resolved.emplace(std::move(lex), std::move(in));
  }
  std::sort(out.begin(), out.end());
  return out;
}

Result<std::string> RootFs::read_link(const std::string& path) const {
  auto where = resolve_parent(path);
  if (!where) return where.problem();
  char buf[4096];
  const ssize_t n = ::readlink(where->c_str(), buf, sizeof buf - 1);
  if (n < 0) return problem_from_errno(errno, path);
  return std::string(buf, static_cast<std::size_t>(n));
}

bool RootFs::exists(const std::string& path) const {
  auto where = resolve(path);
  struct stat st {};
  return where && ::stat(where->c_str(), &st) == 0;
}

}  // namespace gpucheck
