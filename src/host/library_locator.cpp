#include "host/library_locator.hpp"

#include <algorithm>

#include "util/strings.hpp"

namespace gpucheck {

LibraryLocator::LibraryLocator(const Host& host) : host_(host) {
  std::string machine = "x86_64";
  if (auto u = host.uname()) machine = u->machine;
  if (auto v = host.env("LD_LIBRARY_PATH"))
    for (auto d : split(*v, ':'))
      if (!d.empty()) ld_library_path_.emplace_back(d);

  auto bytes = host.read_file("/etc/ld.so.cache");
  if (!bytes) {
    cache_problem_ = bytes.problem();
  } else if (auto parsed = parse_ld_cache(*bytes); !parsed) {
    cache_problem_ = Problem{Reason::malformed, "/etc/ld.so.cache", parsed.problem().detail};
  } else {
    const int want = ld_cache_arch_flags(machine);
    for (auto& e : *parsed)
      if (want < 0 || (e.flags & 0xff00) == want) cache_.push_back(e);
  }
  // The multiarch directories first, as Debian's loader; then the classic ones.
  const std::string triplet = machine + "-linux-gnu";
  default_dirs_ = {"/lib/" + triplet, "/usr/lib/" + triplet, "/lib64", "/usr/lib64", "/lib", "/usr/lib"};
}

LibraryLocation LibraryLocator::locate(const std::string& soname) const {
  LibraryLocation loc{soname, {}};
  auto add = [&](const std::string& path, const char* via) {
    if (std::none_of(loc.copies.begin(), loc.copies.end(), [&](auto& c) { return c.path == path; }))
      loc.copies.push_back({path, via});
  };
  for (auto& d : ld_library_path_) {
    const std::string p = d + "/" + soname;
    if (host_.exists(p)) add(p, "LD_LIBRARY_PATH");
  }
  for (auto& e : cache_)
    if (e.name == soname) add(e.path, "ld.so.cache");
  for (auto& d : default_dirs_) {
    const std::string p = d + "/" + soname;
    if (host_.exists(p)) add(p, "default directory");
  }
  return loc;
}

}  // namespace gpucheck
