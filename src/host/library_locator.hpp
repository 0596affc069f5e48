// Where the dynamic loader would find a library, worked out from files
// (LD_LIBRARY_PATH, /etc/ld.so.cache, default directories), apart from
// loading it: the same answer on a live host and on a snapshot.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "host/host.hpp"
#include "host/elf.hpp"
#include "host/ld_cache.hpp"

namespace gpucheck {

struct LibraryCopy {
  std::string path;  // as the loader names it
  std::string via;   // "RPATH", "LD_LIBRARY_PATH", "RUNPATH", "ld.so.cache", "default directory"
};

// The search directories an object itself contributes (already expanded:
// no $ORIGIN left). ld.so(8): DT_RPATH is used only when the object has no
// DT_RUNPATH, so a caller passes one or the other.
struct ObjectSearchPath {
  std::vector<std::string> rpath;    // searched before LD_LIBRARY_PATH
  std::vector<std::string> runpath;  // searched after LD_LIBRARY_PATH
};

struct LibraryLocation {
  std::string soname;
  std::vector<LibraryCopy> copies;  // in the loader's order: copies[0] wins
};

// One DT_RPATH/DT_RUNPATH entry with its dynamic string tokens expanded as
// ld.so(8) describes ("Dynamic string tokens"): $ORIGIN and ${ORIGIN} become
// the directory of the object (as the loader opened it), $PLATFORM and
// ${PLATFORM} the machine (uname -m, which is AT_PLATFORM on x86_64 and
// aarch64). $LIB is not expanded: its value is a build-time choice of the
// distribution's glibc ("lib64", "lib/x86_64-linux-gnu"), so an entry with it
// is nullopt and the caller says so. A relative entry (after expansion) is
// also nullopt: the loader takes it relative to the process's working
// directory, which a file-based view cannot know.
std::optional<std::string> expand_search_entry(std::string_view entry, const std::string& origin,
                                               const std::string& platform);

// The search path an object contributes: its DT_RUNPATH when it has one,
// else its DT_RPATH, expanded; entries that cannot be expanded go to
// `unexpanded` as written.
ObjectSearchPath object_search_path(const ElfDynamic& dyn, const std::string& object_path,
                                    const std::string& platform, std::vector<std::string>* unexpanded = nullptr);

class LibraryLocator {
 public:
  explicit LibraryLocator(const Host& host);
  // Every copy of `soname` the loader could reach, winner first. Empty
  // copies means the loader would fail to find it.
  LibraryLocation locate(const std::string& soname) const;
  // The same for a DT_NEEDED entry of an object, in ld.so(8)'s order:
  // its DT_RPATH, LD_LIBRARY_PATH, its DT_RUNPATH, /etc/ld.so.cache, the
  // default directories.
  LibraryLocation locate(const std::string& soname, const ObjectSearchPath& object) const;
  const std::vector<std::string>& ld_library_path() const { return ld_library_path_; }
  const std::string& machine() const { return machine_; }
  // Every ld.so.cache entry whose soname starts with `prefix` ("libcudnn.so."),
  // for finding all major versions of a library at once.
  std::vector<LibraryCopy> cached_with_prefix(const std::string& prefix) const;
  // Why the cache could not be used, when it could not.
  const std::optional<Problem>& cache_problem() const { return cache_problem_; }

 private:
  const Host& host_;
  std::vector<LdCacheEntry> cache_;
  std::optional<Problem> cache_problem_;
  std::vector<std::string> ld_library_path_;
  std::vector<std::string> default_dirs_;
  std::string machine_;
};

}  // namespace gpucheck
