// A `snapshot --out X` run writes into a directory beside X and renames it
// to X when whole; a run killed before that leaves the directory behind.
// Its name says who wrote it (host, boot, process), from the moment mkdir
// creates it, so a later snapshot beside it can tell a dead writer's
// leftover from a live run's work, or from anything else named X.tmp-*
// (never touched).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace gpucheck {

struct SnapshotWriter {
  std::string host;  // a hash of gethostname: a shared file system is seen by many hosts
  std::string boot;  // /proc/sys/kernel/random/boot_id: a reboot ends every writer
  long pid = 0;
  long long start = 0;  // /proc/PID/stat, field 22: a reused pid starts later
};

// This process, or nothing where /proc does not say (then its temporary
// directory is named by mkdtemp alone and never judged dead).
std::optional<SnapshotWriter> this_snapshot_writer();

// "X.tmp-HOST-BOOT-PID-START" for target name X, and back.
std::string snapshot_temp_name(std::string_view target, const SnapshotWriter& w);
std::optional<SnapshotWriter> writer_of_temp_name(std::string_view name);

// Removes each directory in `parent` named as snapshot_temp_name names,
// that is a real directory of this user, and whose writer ran on this host
// and is gone. Returns how many it removed.
std::size_t remove_dead_snapshot_leftovers(const std::string& parent);

}  // namespace gpucheck
