#include "util/files.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

namespace gpucheck {

Result<std::string> read_whole_file(const std::string& path, std::size_t max_bytes, std::string_view what) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    const int err = errno;
    if (err == ENOENT || err == ENOTDIR) return Problem{Reason::absent, path, "no such " + std::string(what)};
    return Problem{err == EACCES ? Reason::permission_denied : Reason::failed, path, std::strerror(err)};
  }
  if (S_ISDIR(st.st_mode)) return Problem{Reason::malformed, path, "is a directory, not a " + std::string(what)};
  // A FIFO would block the open until a writer came; a device may never
  // end. O_NONBLOCK keeps the open itself from blocking should the path
  // become a FIFO after the stat; fstat then judges what was opened.
  if (!S_ISREG(st.st_mode)) return Problem{Reason::malformed, path, "is not a regular file, not a " + std::string(what)};
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return Problem{Reason::permission_denied, path, "cannot open the " + std::string(what) + " for reading"};
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return Problem{Reason::malformed, path, "is not a regular file, not a " + std::string(what)};
  const std::string limit = max_bytes % (std::size_t{1} << 20) == 0 ? std::to_string(max_bytes >> 20) + " MiB" : std::to_string(max_bytes) + " bytes";
  std::string out;
  char chunk[65536];
  // Bounded even when st_size lies (a file still growing).
  for (;;) {
    const ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Problem{Reason::failed, path, std::string("read error: ") + std::strerror(errno)};
    if (n == 0) return out;
    if (out.size() + static_cast<std::size_t>(n) > max_bytes)
      return Problem{Reason::malformed, path, "larger than " + limit + ": not a " + std::string(what)};
    out.append(chunk, static_cast<std::size_t>(n));
  }
}

Result<std::string> read_stream(int fd, std::size_t max_bytes, const Deadline& deadline, std::string_view what) {
  std::string out;
  char chunk[65536];
  for (;;) {
    pollfd p{fd, POLLIN, 0};
    const auto left = deadline.left().count();
    const int ready = ::poll(&p, 1, static_cast<int>(std::min<long long>(left, 60'000)));
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) return Problem{Reason::failed, std::string(what), std::strerror(errno)};
    if (ready == 0) {
      if (deadline.expired())
        return Problem{Reason::timed_out, std::string(what),
                       "did not end before the run's --timeout (" + std::to_string(out.size()) + " bytes read)"};
      continue;
    }
    const ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n < 0) return Problem{Reason::failed, std::string(what), std::strerror(errno)};
    if (n == 0) return out;
    if (out.size() + static_cast<std::size_t>(n) > max_bytes)
      return Problem{Reason::malformed, std::string(what), "larger than " + std::to_string(max_bytes >> 20) + " MiB"};
    out.append(chunk, static_cast<std::size_t>(n));
  }
}

namespace {

std::optional<Problem> write_via_temporary(const std::string& path, std::string_view text, bool try_unnamed) {
  namespace fs = std::filesystem;
  // The rename would replace a link itself, not what it points at, and a
  // target that is a link or a device is a mistake (or a trap): refuse.
  if (struct stat st {}; ::lstat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    return Problem{Reason::failed, path,
                   std::string(S_ISLNK(st.st_mode) ? "is a symbolic link" : S_ISDIR(st.st_mode) ? "is a directory" : "is not a regular file") +
                       "; gpucheck replaces only a regular file (remove it, or write to the file itself)"};
  const fs::path target(path);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  // Appended piece by piece: GCC 12 at -O3 warns (-Wrestrict) on "." + string.
  std::string name = ".";
  name += target.filename().string();
  name += ".tmp-";
  const std::string prefix = (dir / name).string();
  std::string tmpl;
  // Written unnamed first (O_TMPFILE) and named only when whole: a run
  // killed while writing leaves nothing behind. Where the file system or
  // /proc does not allow that, a named temporary file (mkstemp) does.
  int fd = try_unnamed ? ::open(dir.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644) : -1;
  const bool unnamed = fd >= 0;
  if (!unnamed) {
    tmpl = prefix + "XXXXXX";
    fd = ::mkstemp(tmpl.data());
    if (fd < 0) return Problem{Reason::failed, path, std::string("cannot create a temporary file beside it: ") + std::strerror(errno)};
  }
  auto fail = [&](const char* what) {
    const int err = errno;
    ::close(fd);
    if (!tmpl.empty()) ::unlink(tmpl.c_str());
    return Problem{Reason::failed, path, std::string(what) + ": " + std::strerror(err)};
  };
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail("cannot write the temporary file");
    }
    done += static_cast<std::size_t>(n);
  }
  // What gpucheck writes (a lock, a report, a cached matrix) is read by
  // people, launchers and collectors: 0644 like any source file.
  if (::fchmod(fd, 0644) != 0) return fail("cannot set permissions");
  if (::fsync(fd) != 0) return fail("cannot flush the temporary file to disk");
  if (unnamed) {
    const std::string self = "/proc/self/fd/" + std::to_string(fd);
    std::random_device random;
    for (int attempt = 0; tmpl.empty() && attempt < 16; ++attempt) {
      std::string candidate = prefix;
      for (int i = 0; i < 6; ++i) candidate += "abcdefghijklmnopqrstuvwxyz0123456789"[random() % 36];
      if (::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, candidate.c_str(), AT_SYMLINK_FOLLOW) == 0) tmpl = candidate;
      else if (errno != EEXIST) break;
    }
    if (tmpl.empty()) {  // no /proc: write it again, named from the start
      ::close(fd);
      return write_via_temporary(path, text, false);
    }
  }
  if (::close(fd) != 0) {
    const int err = errno;
    ::unlink(tmpl.c_str());
    return Problem{Reason::failed, path, std::string("cannot close the temporary file: ") + std::strerror(err)};
  }
  if (::rename(tmpl.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmpl.c_str());
    return Problem{Reason::failed, path, std::string("cannot rename the temporary file into place: ") + std::strerror(err)};
  }
  // The rename itself lives in the directory: flush it too, best effort.
  if (int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY); dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
  return std::nullopt;
}

}  // namespace

std::optional<Problem> write_file_atomically(const std::string& path, std::string_view text) { return write_via_temporary(path, text, true); }

}  // namespace gpucheck
