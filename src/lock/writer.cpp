// The lock's text form and the all-or-nothing write. No column alignment:
// padding would make one moved version re-indent its neighbours in a diff.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "lock/fields.hpp"
#include "lock/lockfile.hpp"

namespace gpucheck {

namespace {

constexpr const char* kHexDigits = "0123456789abcdef";

std::string quote(std::string_view v) {
  std::string out = "\"";
  for (unsigned char c : v) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20 || c == 0x7f) {
          out += "\\x";
          out += kHexDigits[c >> 4];
          out += kHexDigits[c & 15];
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

// A comment runs to the end of its line: control characters become spaces.
std::string one_line(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  return out;
}

}  // namespace

std::string render_lock(const Lock& lock) {
  std::string out;
  out += "# gpucheck lockfile: the GPU stack of one host, pinned for review and for `gpucheck verify`.\n";
  out += "# Format, fields and policies: docs/lockfile.md. One fact per line:\n";
  out += "#   key = \"value\"  policy  # where the value came from\n";
  out += "# Policies: exact, same-branch, at-least, ignore. `none`: the host does not have it.\n";
  out += "gpucheck-lock " + std::to_string(lock.schema) + "\n";
  std::string section;
  for (const auto& e : lock.entries) {
    if (e.section != section) {
      section = e.section;
      out += "\n[" + section + "]\n";
    }
    out += e.key + " = " + (e.value ? quote(*e.value) : "none") + "  " + std::string(to_string(e.policy));
    if (!e.comment.empty()) out += "  # " + one_line(e.comment);
    out += "\n";
  }
  // A lock cut short at a line boundary would still parse; the end marker
  // makes truncation an error instead of silently unpinned fields.
  out += "\nend\n";
  return out;
}

std::optional<Problem> write_file_atomically(const std::string& path, std::string_view text) {
  namespace fs = std::filesystem;
  // The rename would replace a link itself, not what it points at, and a
  // lock path that is a link or a device is a mistake (or a trap): refuse.
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
  // A lockfile is read by code review and launchers: 0644 like any source file.
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
