// Finds and removes what killed `snapshot --out` runs left behind.
#include "host/snapshot_leftovers.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "util/strings.hpp"

namespace gpucheck {
namespace {

constexpr std::string_view kTag = ".tmp-";

std::optional<std::string> first_line_of(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line) || line.empty()) return std::nullopt;
  return line;
}

// Field 22 of /proc/PID/stat, the clock ticks after boot at which the
// process started; the name before it (field 2) may hold spaces and ')'.
std::optional<long long> start_of(long pid) {
  auto stat = first_line_of("/proc/" + std::to_string(pid) + "/stat");
  if (!stat) return std::nullopt;
  const auto close = stat->rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::istringstream rest(stat->substr(close + 1));
  std::string field;
  for (int i = 3; i <= 22; ++i)
    if (!(rest >> field)) return std::nullopt;
  return parse_int(field);
}

bool is_hex(std::string_view s, std::size_t size) {
  if (s.size() != size) return false;
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

// FNV-1a, 64 bits: a host name of any length in 16 file-name characters.
std::string host_hash(std::string_view host) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char c : host) h = (h ^ c) * 1099511628211ull;
  char out[17];
  std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(h));
  return out;
}

bool is_gone(const SnapshotWriter& writer, const SnapshotWriter& me) {
  if (writer.host != me.host) return false;  // another host's run may still be writing
  if (writer.boot != me.boot) return true;   // this host rebooted since
  if (writer.pid == me.pid) return writer.start != me.start;
  const auto start = start_of(writer.pid);
  return !start || *start != writer.start;
}

}  // namespace

std::optional<SnapshotWriter> this_snapshot_writer() {
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) != 0) return std::nullopt;
  auto boot = first_line_of("/proc/sys/kernel/random/boot_id");
  const long pid = static_cast<long>(::getpid());
  auto start = start_of(pid);
  if (!boot || !start) return std::nullopt;
  std::string id;
  for (char c : *boot)
    if (c != '-') id += c;
  if (!is_hex(id, 32)) return std::nullopt;
  return SnapshotWriter{host_hash(host), id, pid, *start};
}

std::string snapshot_temp_name(std::string_view target, const SnapshotWriter& w) {
  std::string name(target);
  name += kTag;
  name += w.host + "-" + w.boot + "-" + std::to_string(w.pid) + "-" + std::to_string(w.start);
  return name;
}

std::optional<SnapshotWriter> writer_of_temp_name(std::string_view name) {
  const auto at = name.rfind(kTag);
  if (at == std::string_view::npos || at == 0) return std::nullopt;
  const auto parts = split(name.substr(at + kTag.size()), '-');
  if (parts.size() != 4 || !is_hex(parts[0], 16) || !is_hex(parts[1], 32)) return std::nullopt;
  const auto pid = parse_int(parts[2]);
  const auto start = parse_int(parts[3]);
  if (!pid || *pid <= 0 || !start || *start < 0) return std::nullopt;
  return SnapshotWriter{std::string(parts[0]), std::string(parts[1]), static_cast<long>(*pid), *start};
}

std::size_t remove_dead_snapshot_leftovers(const std::string& parent) {
  namespace fs = std::filesystem;
  const auto me = this_snapshot_writer();
  if (!me) return 0;
  DIR* dir = ::opendir(parent.c_str());
  if (!dir) return 0;
  std::vector<std::string> dead;
  while (const dirent* e = ::readdir(dir)) {
    const auto writer = writer_of_temp_name(e->d_name);
    struct stat st {};
    if (writer && is_gone(*writer, *me) && ::fstatat(::dirfd(dir), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
        S_ISDIR(st.st_mode) && st.st_uid == ::geteuid())
      dead.emplace_back(e->d_name);
  }
  ::closedir(dir);
  std::size_t removed = 0;
  for (const auto& name : dead) {
    // The name is the mark, so a run killed while removing leaves a
    // leftover the next one still recognises. remove_all removes a link,
    // never what it points at.
    std::error_code ec;
    fs::remove_all(fs::path(parent) / name, ec);
    if (!ec) ++removed;
  }
  return removed;
}

}  // namespace gpucheck
