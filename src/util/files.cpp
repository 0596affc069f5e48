#include "util/files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace gpucheck {

Result<std::string> read_whole_file(const std::string& path, std::size_t max_bytes, std::string_view what) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    const int err = errno;
    if (err == ENOENT || err == ENOTDIR) return Problem{Reason::absent, path, "no such " + std::string(what)};
    return Problem{err == EACCES ? Reason::permission_denied : Reason::failed, path, std::strerror(err)};
  }
  if (S_ISDIR(st.st_mode)) return Problem{Reason::malformed, path, "is a directory, not a " + std::string(what)};
  // A FIFO would block the open until a writer came; a device may never end.
  if (!S_ISREG(st.st_mode)) return Problem{Reason::malformed, path, "is not a regular file, not a " + std::string(what)};
  std::ifstream in(path, std::ios::binary);
  if (!in) return Problem{Reason::permission_denied, path, "cannot open the " + std::string(what) + " for reading"};
  std::string out;
  char chunk[65536];
  // Bounded even when st_size lies (a pipe, a file still growing).
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
    if (out.size() + static_cast<std::size_t>(in.gcount()) > max_bytes)
      return Problem{Reason::malformed, path, "larger than " + std::to_string(max_bytes) + " bytes: not a " + std::string(what)};
    out.append(chunk, static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) return Problem{Reason::failed, path, "read error"};
  return out;
}

std::optional<Problem> write_file_atomically(const std::string& path, std::string_view text) {
  namespace fs = std::filesystem;
  // The rename would replace a link itself, not what it points at, and a
  // target that is a link or a device is a mistake (or a trap): refuse.
  if (struct stat st {}; ::lstat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    return Problem{Reason::failed, path,
                   std::string(S_ISLNK(st.st_mode) ? "is a symbolic link" : S_ISDIR(st.st_mode) ? "is a directory" : "is not a regular file") +
                       "; gpucheck replaces only a regular file (remove it, or write to the file itself)"};
  const fs::path target(path);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::string name = ".";
  name += target.filename().string();
  name += ".tmp-XXXXXX";
  std::string tmpl = (dir / name).string();
  const int fd = ::mkstemp(tmpl.data());
  if (fd < 0) return Problem{Reason::failed, path, std::string("cannot create a temporary file beside it: ") + std::strerror(errno)};
  auto fail = [&](const char* what) {
    const int err = errno;
    ::close(fd);
    ::unlink(tmpl.c_str());
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

}  // namespace gpucheck
