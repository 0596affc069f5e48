// The Host implementations: the live machine, a replayed snapshot, and a
// recorder that wraps either and remembers every answer for `snapshot`.
#pragma once

#include <memory>
#include <mutex>
#include <set>

#include "host/host.hpp"
#include "host/manifest.hpp"
#include "host/root_fs.hpp"

namespace gpucheck {

// The running machine. Files are read relative to `root` ("/" normally).
class LiveHost final : public Host {
 public:
  explicit LiveHost(std::string root = "/") : fs_(std::move(root)) {}
  Result<std::string> read_file(const std::string& path, std::size_t max_bytes) const override;
  Result<std::string> read_range(const std::string& path, std::uint64_t offset, std::size_t length) const override;
  Result<std::vector<DirEntry>> list_dir(const std::string& path) const override;
  Result<std::string> read_link(const std::string& path) const override;
  Result<std::string> real_path(const std::string& path) const override;
  bool exists(const std::string& path) const override;
  std::optional<std::string> env(const std::string& name) const override;
  Result<Uname> uname() const override;
  Result<CommandResult> run(const Command& cmd) const override;
  Result<std::string> isolated_call(const IsolatedCall& call, Millis deadline) const override;
  bool is_live() const override { return true; }

 private:
  RootFs fs_;
};

// A snapshot directory: files from it, everything else from its manifest.
// A directory without a manifest (a mounted image) gives files only.
class SnapshotHost final : public Host {
 public:
  SnapshotHost(std::string root, Manifest manifest) : fs_(std::move(root)), m_(std::move(manifest)) {}
  Result<std::string> read_file(const std::string& path, std::size_t max_bytes) const override;
  Result<std::string> read_range(const std::string& path, std::uint64_t offset, std::size_t length) const override;
  Result<std::vector<DirEntry>> list_dir(const std::string& path) const override;
  Result<std::string> read_link(const std::string& path) const override;
  Result<std::string> real_path(const std::string& path) const override;
  bool exists(const std::string& path) const override;
  std::optional<std::string> env(const std::string& name) const override;
  Result<Uname> uname() const override;
  Result<CommandResult> run(const Command& cmd) const override;
  Result<std::string> isolated_call(const IsolatedCall& call, Millis deadline) const override;
  bool is_live() const override { return false; }

 private:
  const Problem* unreadable(const std::string& path) const;
  RootFs fs_;
  Manifest m_;
};

// Opens `root`: the live host for "/", otherwise a snapshot (with its
// manifest when it has one). A malformed manifest is an error.
Result<std::unique_ptr<Host>> open_host(const std::string& root);

// Wraps a host and records every answer, with the links met on the way to
// each path, so write_snapshot can lay out a directory that replays the same.
// `--level 1`: the files of `inner`, and nothing that runs. Programs and
// driver calls are answered Reason::skipped without starting, live or on
// replay, so a level-1 run costs file reads only and judges the same
// either way.
class FilesOnlyHost final : public Host {
 public:
  explicit FilesOnlyHost(const Host& inner) : inner_(inner) {}
  Result<std::string> read_file(const std::string& path, std::size_t max_bytes) const override {
    return inner_.read_file(path, max_bytes);
  }
  Result<std::string> read_range(const std::string& path, std::uint64_t offset, std::size_t length) const override {
    return inner_.read_range(path, offset, length);
  }
  Result<std::vector<DirEntry>> list_dir(const std::string& path) const override { return inner_.list_dir(path); }
  Result<std::string> read_link(const std::string& path) const override { return inner_.read_link(path); }
  Result<std::string> real_path(const std::string& path) const override { return inner_.real_path(path); }
  bool exists(const std::string& path) const override { return inner_.exists(path); }
  std::optional<std::string> env(const std::string& name) const override { return inner_.env(name); }
  Result<Uname> uname() const override { return inner_.uname(); }
  Result<CommandResult> run(const Command& cmd) const override {
    return Problem{Reason::skipped, cmd.key(), "not run: --level 1 reads files only"};
  }
  Result<std::string> isolated_call(const IsolatedCall& call, Millis) const override {
    return Problem{Reason::skipped, call.key, "not called: --level 1 reads files only"};
  }
  bool is_live() const override { return inner_.is_live(); }

 private:
  const Host& inner_;
};

class RecordingHost final : public Host {
 public:
  explicit RecordingHost(const Host& inner) : inner_(inner) {}
  Result<std::string> read_file(const std::string& path, std::size_t max_bytes) const override;
  Result<std::string> read_range(const std::string& path, std::uint64_t offset, std::size_t length) const override;
  Result<std::vector<DirEntry>> list_dir(const std::string& path) const override;
  Result<std::string> read_link(const std::string& path) const override;
  Result<std::string> real_path(const std::string& path) const override;
  bool exists(const std::string& path) const override;
  std::optional<std::string> env(const std::string& name) const override;
  Result<Uname> uname() const override;
  Result<CommandResult> run(const Command& cmd) const override;
  Result<std::string> isolated_call(const IsolatedCall& call, Millis deadline) const override;
  bool is_live() const override { return inner_.is_live(); }

  // Lays the recording out under `out` (which must not exist yet), through a
  // temporary sibling directory renamed into place at the end; first removes
  // the temporary directories that killed runs left beside it.
  struct WrittenSnapshot {
    std::string dir;
    std::size_t leftovers_removed = 0;
  };
  Result<WrittenSnapshot> write_snapshot(const std::string& out, const std::string& description) const;

 private:
  // Follows `path` component by component through the inner host, noting
  // every link; returns the path with no link left in it.
  std::string trace(const std::string& path) const;
  void note_problem(const std::string& path, const Problem& p) const;

  const Host& inner_;
  mutable std::mutex record_mutex_;  // probes ask and read on several threads at once
  mutable Manifest m_;
  mutable std::map<std::string, std::string> links_;              // link path -> target as read
  mutable std::map<std::string, std::string> files_;              // canonical path -> content
  mutable std::map<std::string, std::vector<DirEntry>> dirs_;     // canonical path -> entries
  mutable std::map<std::string, std::map<std::uint64_t, std::string>> ranges_;  // canonical path -> offset -> bytes
  mutable std::set<std::string> placeholders_;                    // canonical paths that must exist
};

}  // namespace gpucheck
