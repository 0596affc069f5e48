#include "fleet/fleet_files.hpp"

#include <algorithm>
#include <filesystem>

#include "util/files.hpp"
#include "util/parallel.hpp"

namespace gpucheck {

std::vector<std::string> fleet_report_files(const std::vector<std::string>& args, std::vector<std::string>& missing) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  for (const auto& a : args) {
    std::error_code ec;
    if (fs::is_directory(a, ec)) {
      std::vector<std::string> found;
      for (fs::directory_iterator it(a, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().extension() == ".json") found.push_back(it->path().string());
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else if (fs::exists(a, ec)) {
      files.push_back(a);
    } else {
      missing.push_back(a);
    }
  }
  return files;
}

std::vector<FleetEntry> read_fleet(const std::vector<std::string>& files, const Deadline& deadline) {
  std::vector<FleetEntry> entries;
  entries.reserve(files.size());
  for (const auto& f : files) entries.push_back({std::filesystem::path(f).filename().string(), Problem{Reason::absent, f, ""}});
  // A report takes tens of microseconds: a thread is worth it past ~64 of them.
  parallel_for(files.size(), 64, [&](std::size_t i) {
    if (deadline.expired()) {
      entries[i].report = Problem{Reason::timed_out, files[i], "not read: the run's --timeout was reached first"};
      return;
    }
    // A FIFO, a device or a directory is refused by the reader, never opened.
    auto bytes = read_whole_file(files[i], kMaxFleetReportBytes, "report");
    if (!bytes) {
      entries[i].report = bytes.problem();
      return;
    }
    entries[i].report = read_node_report(std::move(bytes).value(), files[i]);
  });
  return entries;
}

}  // namespace gpucheck
