#include "host/library_locator.hpp"

#include <algorithm>
#include <cctype>

#include "host/root_fs.hpp"
#include "util/paths.hpp"
#include "util/strings.hpp"

namespace gpucheck {

std::optional<std::string> expand_search_entry(std::string_view entry, const std::string& origin,
                                               const std::string& platform) {
  std::string out;
  for (std::size_t i = 0; i < entry.size();) {
    if (entry[i] != '$') {
      out += entry[i++];
      continue;
    }
    auto token = [&](std::string_view name) -> std::size_t {  // length matched, 0 if none
      const std::string braced = "${" + std::string(name) + "}";
      if (entry.substr(i, braced.size()) == braced) return braced.size();
      std::string bare = "$";
      bare += name;
      if (entry.substr(i, bare.size()) == bare) {
        const std::size_t end = i + bare.size();
        // "$ORIGINAL" is not $ORIGIN: the name ends at a non-identifier character.
        if (end == entry.size() || !(std::isalnum(static_cast<unsigned char>(entry[end])) || entry[end] == '_'))
          return bare.size();
      }
      return 0;
    };
    if (auto n = token("ORIGIN")) {
      out += origin;
      i += n;
    } else if (auto m = token("PLATFORM")) {
      out += platform;
      i += m;
    } else {
      return std::nullopt;  // $LIB, or a token the loader would reject
    }
  }
  if (out.empty() || out[0] != '/') return std::nullopt;
  return normalize_path(out);
}

ObjectSearchPath object_search_path(const ElfDynamic& dyn, const std::string& object_path,
                                    const std::string& platform, std::vector<std::string>* unexpanded) {
  const std::string origin = dir_of(object_path);
  ObjectSearchPath sp;
  auto expand = [&](const std::string& list, std::vector<std::string>& dst) {
    for (auto e : split(list, ':')) {
      if (e.empty()) continue;
      if (auto x = expand_search_entry(e, origin, platform)) dst.push_back(*x);
      else if (unexpanded) unexpanded->emplace_back(e);
    }
  };
  if (dyn.runpath) expand(*dyn.runpath, sp.runpath);
  else if (dyn.rpath) expand(*dyn.rpath, sp.rpath);
  return sp;
}

LibraryLocator::LibraryLocator(const Host& host) : host_(host) {
  std::string machine = "x86_64";
  if (auto u = host.uname()) machine = u->machine;
  machine_ = machine;
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

LibraryLocation LibraryLocator::locate(const std::string& soname) const { return locate(soname, ObjectSearchPath{}); }

LibraryLocation LibraryLocator::locate(const std::string& soname, const ObjectSearchPath& object) const {
  LibraryLocation loc{soname, {}};
  auto add = [&](const std::string& path, const char* via) {
    if (std::none_of(loc.copies.begin(), loc.copies.end(), [&](auto& c) { return c.path == path; }))
      loc.copies.push_back({path, via});
  };
  auto search = [&](const std::vector<std::string>& dirs, const char* via) {
    for (auto& d : dirs) {
      if (d.empty()) continue;
      const std::string p = normalize_path(d + "/" + soname);
      if (host_.exists(p)) add(p, via);
    }
  };
  // A name with a slash is a path: the loader opens it as it is (ld.so(8)).
  if (soname.find('/') != std::string::npos) {
    if (host_.exists(soname)) add(soname, "path");
    return loc;
  }
  search(object.rpath, "RPATH");
  for (auto& d : ld_library_path_) {
    const std::string p = d + "/" + soname;
    if (host_.exists(p)) add(p, "LD_LIBRARY_PATH");
  }
  search(object.runpath, "RUNPATH");
  for (auto& e : cache_)
    if (e.name == soname) add(e.path, "ld.so.cache");
  for (auto& d : default_dirs_) {
    const std::string p = d + "/" + soname;
    if (host_.exists(p)) add(p, "default directory");
  }
  return loc;
}

std::vector<LibraryCopy> LibraryLocator::cached_with_prefix(const std::string& prefix) const {
  std::vector<LibraryCopy> out;
  for (auto& e : cache_)
    if (e.name.compare(0, prefix.size(), prefix) == 0) out.push_back({e.path, "ld.so.cache"});
  return out;
}

}  // namespace gpucheck
