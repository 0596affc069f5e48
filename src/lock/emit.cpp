// What a lock implies outside gpucheck: pip constraints for its Python
// packages, and the NGC image reference when it was taken inside one.
#include <algorithm>
#include <regex>
#include <set>

#include "lock/lockfile.hpp"
#include "matrix/lookup.hpp"
#include "util/strings.hpp"
#include "util/version.hpp"

namespace gpucheck {

namespace {

// PyTorch publishes each +cuXXX / +rocmX.Y / +cpu build on its own index,
// named after the tag: pip3 install torch --index-url https://download.pytorch.org/whl/cu118
// (https://github.com/pytorch/pytorch.github.io/pull/1683/files, published_versions.json).
bool is_pytorch_package(std::string_view name) { return name == "torch" || name == "torchvision" || name == "torchaudio"; }

std::optional<std::string> pytorch_index(std::string_view tag) {
  static const std::regex kTag("cu[0-9]+|rocm[0-9]+(\\.[0-9]+)*|cpu");
  if (!std::regex_match(std::string(tag), kTag)) return std::nullopt;
  return "https://download.pytorch.org/whl/" + std::string(tag);
}

std::string requirement(const LockEntry& e) {
  const std::string& v = *e.value;
  const bool local = v.find('+') != std::string::npos;
  if (e.policy == Policy::at_least) return e.key + ">=" + v;
  if (e.policy == Policy::same_branch && !local) {
    // PEP 440 allows a wildcard only without a local tag.
    if (auto ver = Version::parse(v); ver && ver->parts().size() > 2 && ver->suffix().empty())
      return e.key + "==" + std::to_string(ver->major()) + "." + std::to_string(ver->minor()) + ".*";
  }
  return e.key + "==" + v;
}

}  // namespace

std::string emit_constraints(const Lock& lock, const std::vector<PinCorrection>& corrections) {
  std::set<std::string> indexes;
  std::vector<std::string> lines, notes;
  for (const auto& e : lock.entries) {
    if ((e.section != "frameworks" && e.section != "wheels") || !e.value) continue;
    const auto fix = std::find_if(corrections.begin(), corrections.end(), [&](const PinCorrection& c) { return c.package == e.key; });
    if (fix != corrections.end()) {
      lines.push_back("# " + fix->why + ": the constraint follows the pin");
      lines.push_back(e.key + fix->specifier);
      continue;
    }
    lines.push_back(requirement(e));
    const auto plus = e.value->find('+');
    if (plus == std::string::npos) continue;
    const std::string tag = e.value->substr(plus + 1);
    if (auto index = is_pytorch_package(e.key) ? pytorch_index(tag) : std::nullopt) {
      indexes.insert(*index);
    } else {
      notes.push_back("# " + e.key + " " + *e.value + ": a local build (+" + tag +
                      ") on no index gpucheck knows; install it from where it came from");
    }
  }
  std::string out = "# pip constraints for the Python packages pinned in a gpucheck lock (schema " +
                    std::to_string(lock.schema) + ").\n# Use: pip install -c <this file> <packages>\n";
  const LockEntry* ngc = lock.find("ngc", "framework");
  if (ngc && ngc->value) out += "# The lock was taken inside an NGC container: its framework builds come with the image.\n";
  for (const auto& n : notes) out += n + "\n";
  for (const auto& i : indexes) out += "--extra-index-url " + i + "\n";
  for (const auto& l : lines) out += l + "\n";
  return out;
}

Result<std::string> emit_container(const Lock& lock, const Matrix& matrix) {
  const LockEntry* fw = lock.find("ngc", "framework");
  const LockEntry* rel = lock.find("ngc", "release");
  if (!fw || !fw->value || !rel || !rel->value)
    return Problem{Reason::absent, "ngc.framework",
                   "the lock pins no NGC image: it was not written inside an NGC container"};
  const auto releases = find_ngc_releases(matrix, *fw->value);  // newest first
  if (releases.empty()) {
    std::set<std::string> known;
    for (const auto& n : matrix.ngc) known.insert(n.framework);
    return Problem{Reason::malformed, "ngc.framework",
                   "the matrix lists no NGC images of the framework '" + *fw->value + "' (it lists: " +
                       join(std::vector<std::string>(known.begin(), known.end()), ", ") + ")"};
  }
  std::string tag;
  for (const auto* r : releases)
    if (r->release.text() == *rel->value) tag = r->tag;
  if (tag.empty()) {
    // Newer than the matrix: NGC names every release of a framework alike
    // ("24.01-py3", "24.03-tf2-py3"), so the newest tag's suffix holds.
    const auto& newest = *releases.front();
    const auto& release = newest.release.text();
    const bool prefixed = newest.tag.compare(0, release.size(), release) == 0;
    tag = *rel->value + (prefixed ? newest.tag.substr(release.size()) : "");
  }
  return "nvcr.io/nvidia/" + *fw->value + ":" + tag;
}

}  // namespace gpucheck
