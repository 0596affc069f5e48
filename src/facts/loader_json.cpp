// JSON of a loader view: a framework object, its search path as written, and
// each GPU library it needs with the copy the loader would pick. Unknown is
// null: "path": null means the loader would not find the library.
#include <utility>

#include "facts/json_util.hpp"

namespace gpucheck {

namespace {

J to_json(const ResolvedNeed& n) {
  return J{{"soname", n.soname},
           {"path", opt(n.path)},
           {"via", opt(n.via)},
           {"version", opt(n.version)},
           {"other_copies", n.other_copies},
           {"shadows_bundled", n.shadows_bundled}};
}

}  // namespace

J to_json(const LoaderView& v) {
  J needed = J::array();
  for (auto& n : v.needed) needed.push_back(to_json(n));
  return J{{"object", v.object}, {"owner", v.owner}, {"rpath", v.rpath}, {"runpath", v.runpath}, {"needed", std::move(needed)}};
}

}  // namespace gpucheck
