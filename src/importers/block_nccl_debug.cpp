// A log of NCCL_DEBUG=INFO: "host:pid:tid [dev] NCCL INFO <message>" lines.
// Read: "NCCL version 2.21.5+cuda12.4" (the NCCL the job loaded, into the
// libraries), "NCCL_X set by environment to Y" (into the GPU environment,
// where the rules' env.* and nccl.* facts come from), the net plugin it
// loaded or that it used its own ("NET/Plugin: …", "Plugin Path : …",
// "Using network IB") into the note and the plugin fact. Every other line
// is NCCL's and belongs to the block, read or not.
#include <set>

#include "importers/block_readers.hpp"
#include "importers/block_util.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

constexpr std::size_t kMaxVersions = 16;  // ranks of one job print one each; more is noise
constexpr std::size_t kMaxEnv = 256;

// The message after "NCCL INFO ", nullopt for another line.
std::optional<std::string_view> info(std::string_view t) {
  static constexpr std::string_view kTag = "NCCL INFO ";
  const auto at = t.find(kTag);
  if (at == std::string_view::npos || (at != 0 && t[at - 1] != ' ')) return std::nullopt;
  return trim(t.substr(at + kTag.size()));
}

Opens opens(const PasteText& p, std::size_t i) { return info(p.trimmed(i)) ? Opens::surely : Opens::no; }

bool continues(const PasteText& p, std::size_t, std::size_t i) { return info(p.trimmed(i)).has_value(); }

bool contains(std::string_view s, std::string_view what) { return s.find(what) != std::string_view::npos; }

void read(const PasteText& p, std::size_t first, std::size_t last, BlockFacts& out) {
  std::set<std::string> versions, networks;
  std::optional<std::string> plugin;
  auto& env = out.facts.software.gpu_env;
  for (std::size_t k = first; k <= last; ++k) {
    const auto m = info(p.trimmed(k));
    if (!m) continue;
    if (starts_with(*m, "NCCL version ")) {
      const std::string full(first_word(m->substr(13)));
      const std::string version = full.substr(0, full.find('+'));
      if (!looks_like_version(version) || versions.size() == kMaxVersions || !versions.insert(full).second) continue;
      LibraryInstall lib;
      lib.name = "nccl";
      lib.version = version;
      lib.version_source = p.at(k);
      lib.found_in = "NCCL_DEBUG log";
      out.facts.software.libraries.push_back(std::move(lib));
    } else if (const auto set = m->find(" set by environment to "); set != std::string_view::npos) {
      const auto name = m->substr(0, set);
      auto value = trim(m->substr(set + 23));
      // "NCCL_IB_DISABLE set by environment to 1." (older NCCLs end with a dot)
      if (!value.empty() && value.back() == '.') value.remove_suffix(1);
      if (!starts_with(name, "NCCL_") || name.find(' ') != std::string_view::npos || value.empty() || env.size() == kMaxEnv) continue;
      // The first rank's value stands; ranks of one job share the environment.
      if (env.emplace(std::string(name), std::string(value)).second) out.where["software.gpu_env." + std::string(name)] = p.at(k);
    } else if (starts_with(*m, "Plugin Path : ")) {
      plugin = std::string(trim(m->substr(14)));
    } else if (starts_with(*m, "NET/Plugin") && (contains(*m, "Loaded net plugin") || contains(*m, "Loaded plugin"))) {
      const auto at = m->find("Loaded");
      if (!plugin) plugin = std::string(trim(m->substr(m->find("plugin", at) + 6)));
    } else if (starts_with(*m, "NET/Plugin") && (contains(*m, "internal") || contains(*m, "No plugin found"))) {
      if (!plugin) plugin = "";
    } else if (starts_with(*m, "Using network ") && networks.size() < 8) {
      networks.insert(std::string(trim(m->substr(14))));
    }
  }
  std::vector<std::string> said;
  if (!versions.empty()) said.push_back("NCCL " + join(std::vector<std::string>(versions.begin(), versions.end()), ", "));
  if (!networks.empty()) said.push_back("network " + join(std::vector<std::string>(networks.begin(), networks.end()), ", "));
  if (plugin && plugin->empty()) said.push_back("no net plugin (NCCL's own IB and socket transports)");
  if (plugin && !plugin->empty()) {
    said.push_back("net plugin " + *plugin);
    // A path is the file NCCL loaded; "Loaded net plugin NAME" names it only.
    if (plugin->front() == '/') {
      NcclPlugin np;
      np.path = *plugin;
      np.file = plugin->substr(plugin->rfind('/') + 1);
      np.found_via = "NCCL_DEBUG log";
      out.facts.network.nccl_net_plugin = np;
    }
  }
  for (auto& [name, value] : env) said.push_back(name + "=" + value);
  if (!said.empty()) out.note = "NCCL_DEBUG log: " + join(said, "; ");
}

}  // namespace

BlockReader nccl_debug_reader() { return {"NCCL_DEBUG log", opens, continues, read}; }

}  // namespace gpucheck
