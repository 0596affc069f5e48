// PyTorch's conda build strings: "_"-separated parts, of which "cudaX",
// "cudnnY" and "cpu" say what the package was built for.
#include "parse/conda_build.hpp"

#include "util/strings.hpp"
#include "util/version.hpp"

namespace gpucheck {

namespace {

std::optional<std::string> version_after(std::string_view part, std::string_view prefix) {
  if (!starts_with(part, prefix) || part.size() <= prefix.size() || !Version::parse(part.substr(prefix.size())))
    return std::nullopt;
  return std::string(part.substr(prefix.size()));
}

}  // namespace

CondaBuild parse_conda_build(std::string_view build) {
  CondaBuild b;
  bool cpu = false;
  for (auto part : split(build, '_')) {
    if (!b.cuda) b.cuda = version_after(part, "cuda");
    if (!b.cudnn) b.cudnn = version_after(part, "cudnn");
    cpu = cpu || part == "cpu";
  }
  b.cpu_only = cpu && !b.cuda;
  return b;
}

void add_conda_build_facts(FrameworkBuild& f, const CondaBuild& b) {
  if (!f.cuda) f.cuda = b.cuda;
  if (!f.cudnn) f.cudnn = b.cudnn;
  if (b.cpu_only && !f.cuda && !f.hip) f.cpu_only = true;
}

}  // namespace gpucheck
