// What conda records of each package it installed: conda-meta/*.json and
// the match specs of their dependencies.
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

}  // namespace gpucheck
