// The part of a snapshot that is not plain files: recorded command outputs,
// environment variables, uname, isolated library answers, and the paths that
// could not be read (with why). Stored as SNAP/.gpucheck/manifest.json;
// docs/snapshot.md documents the format.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "host/host.hpp"

namespace gpucheck {

inline constexpr const char* kManifestFormat = "gpucheck-snapshot/1";
inline constexpr const char* kManifestDir = "/.gpucheck";

struct Manifest {
  std::string description;
  std::string created_by;
  std::optional<Uname> uname;
  std::map<std::string, std::optional<std::string>> env;  // nullopt: asked for, not set
  std::map<std::string, Result<CommandResult>> commands;   // by Command::key()
  std::map<std::string, Result<std::string>> calls;        // by isolated_call key
  std::map<std::string, Problem> unreadable;               // path -> why it could not be read
};

// Parses manifest.json text; `dir` is where stdout_file names are relative to.
// Errors name the JSON path ("commands.nvidia-smi -q -x.exit_code").
Result<Manifest> parse_manifest(const std::string& text, const std::string& dir);

// A file of a snapshot's .gpucheck directory, read as untrusted: never
// through a link, never a FIFO or device, never more than kMaxFileBytes.
Result<std::string> read_manifest_file(const std::string& path);
// Serialises; command outputs are written as files under dir/commands/.
Result<std::string> write_manifest(const Manifest& m, const std::string& dir);

}  // namespace gpucheck
