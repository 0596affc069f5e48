// Files, directories and links looked up relative to a root directory, with
// absolute symlinks re-anchored inside it (as libnvidia-container does), so a
// snapshot or a mounted image reads exactly like the machine it came from.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "host/host.hpp"

namespace gpucheck {

// Links followed for one component of a path, as the kernel's MAXSYMLINKS.
inline constexpr int kMaxLinks = 40;

class RootFs {
 public:
  explicit RootFs(std::string root);  // "/" for the live machine

  const std::string& root() const { return root_; }
  // The path on this machine that `path` (as seen inside the root) names,
  // with every link followed; links pointing outside the root are clamped.
  Result<std::string> resolve(const std::string& path) const;
  // Same, but the last component is not followed (for lstat / readlink).
  Result<std::string> resolve_parent(const std::string& path) const;

  Result<std::string> read_file(const std::string& path, std::size_t max_bytes) const;
  Result<std::string> read_range(const std::string& path, std::uint64_t offset, std::size_t length) const;
  Result<std::vector<DirEntry>> list_dir(const std::string& path) const;
  Result<std::string> read_link(const std::string& path) const;
  Result<std::string> real_path(const std::string& path) const;  // inside the root
  bool exists(const std::string& path) const;

 private:
  Result<std::string> walk(const std::string& path, bool follow_last) const;
  Result<std::string> walk_dir(const std::string& dir) const;
  Result<std::string> child(const std::string& base, const std::string& name, bool follow, const std::string& path) const;
  Result<int> open_file(const std::string& path, int flags) const;
  Result<std::string> step(std::vector<std::string> done, std::vector<std::string> todo, bool follow_last,
                           const std::string& path) const;

  // A probe reads thousands of files from a few directories (every
  // dist-info of a site-packages); each directory is walked once. The tree
  // under a root does not change while gpucheck reads it.
  struct DirCache {
    std::mutex mutex;
    std::unordered_map<std::string, std::string> resolved;  // lexical dir -> dir inside the root
  };
  std::string root_;  // no trailing slash; empty for "/"
  std::shared_ptr<DirCache> dirs_ = std::make_shared<DirCache>();
};

// Maps errno to a Reason, naming `where` and the system's message.
Problem problem_from_errno(int err, const std::string& where);

// "/a/b/../c" -> "/a/c", collapses "//" and "." (purely lexical).
std::string normalize_path(const std::string& path);

}  // namespace gpucheck
