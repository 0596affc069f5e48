// The Prometheus text exposition format 0.0.4
// (https://prometheus.io/docs/instrumenting/exposition_formats/), as
// node_exporter's textfile collector reads it: what every gpucheck
// document in that format (a run's, a fleet's) is written with.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpucheck {

using Labels = std::vector<std::pair<std::string, std::string>>;

// One metric family: HELP, TYPE (gauge), then each series once. Series that
// would repeat (alike in every label) are one series whose value is their
// sum: a repeated series is an error for node_exporter.
class Family {
 public:
  Family(std::string name, std::string help) : name_(std::move(name)), help_(std::move(help)) {}
  void add(const Labels& labels, std::int64_t value);
  void write(std::string& out) const;

 private:
  std::string name_, help_;
  std::map<std::string, std::size_t> index_;
  std::vector<std::pair<std::string, std::int64_t>> values_;
};

}  // namespace gpucheck
