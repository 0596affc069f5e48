// Where the dynamic loader would find a library, worked out from files
// (LD_LIBRARY_PATH, /etc/ld.so.cache, default directories), apart from
// loading it: the same answer on a live host and on a snapshot.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "host/host.hpp"
#include "host/ld_cache.hpp"

namespace gpucheck {

struct LibraryCopy {
  std::string path;  // as the loader names it
  std::string via;   // "LD_LIBRARY_PATH", "ld.so.cache", "default directory"
};

struct LibraryLocation {
  std::string soname;
  std::vector<LibraryCopy> copies;  // in the loader's order: copies[0] wins
};

class LibraryLocator {
 public:
  explicit LibraryLocator(const Host& host);
  // Every copy of `soname` the loader could reach, winner first. Empty
  // copies means the loader would fail to find it.
  LibraryLocation locate(const std::string& soname) const;
  // Why the cache could not be used, when it could not.
  const std::optional<Problem>& cache_problem() const { return cache_problem_; }

 private:
  const Host& host_;
  std::vector<LdCacheEntry> cache_;
  std::optional<Problem> cache_problem_;
  std::vector<std::string> ld_library_path_;
  std::vector<std::string> default_dirs_;
};

}  // namespace gpucheck
