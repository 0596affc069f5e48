// What conda records of each package it installed: conda-meta/*.json, the
// match specs of their dependencies, the build string in their file names.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/result.hpp"

namespace gpucheck {

// A conda-meta/<name>-<version>-<build>.json record.
struct CondaRecord {
  std::string name, version, build;
  std::optional<std::string> channel, url;
  std::vector<std::string> depends;  // conda match specs: "cudatoolkit >=11.8,<11.9"
};
Result<CondaRecord> parse_conda_meta(std::string_view text);

// A conda match spec's name and its version constraint in PEP 440 syntax
// ("11.8.*" -> "==11.8.*", "11.8" -> "==11.8.*", ">=11.8,<11.9" as is).
// specifier is nullopt when the constraint has no PEP 440 spelling ("|", build strings only).
struct CondaDepend {
  std::string name;
  std::string raw;                       // the version part as written
  std::optional<std::string> specifier;  // PEP 440 translation
};
CondaDepend parse_conda_depend(std::string_view spec);

// The build string of a "<name>-<version>-<build>.json" record, its file
// name's last dash-separated part: "pytorch-2.1.0-py3.10_cuda11.8_cudnn8.7.0_0.json"
// -> "py3.10_cuda11.8_cudnn8.7.0_0".
std::string conda_build_of_record_file(std::string_view file_name);

}  // namespace gpucheck
