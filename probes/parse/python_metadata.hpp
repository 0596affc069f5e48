// What a Python environment says about itself in files: core metadata
// (dist-info METADATA, egg-info PKG-INFO and requires.txt), PEP 508
// requirements and their environment markers, conda-meta records, venv's
// pyvenv.cfg, and the frameworks' own build files (torch/version.py,
// TensorFlow's build_info.py, …). Parsers take strings, never paths.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "facts/facts.hpp"
#include "util/result.hpp"

namespace gpucheck {

// The core metadata fields we use (https://packaging.python.org/specifications/core-metadata/).
struct CoreMetadata {
  std::string name, version;
  std::vector<std::string> requires_dist;  // raw Requires-Dist values
};

// RFC 822-style headers up to the first blank line. Errors: binary data, no
// Name or Version header (a truncated file).
Result<CoreMetadata> parse_core_metadata(std::string_view text);

// setuptools' requires.txt: requirement lines under "[extra]", "[:marker]"
// or "[extra:marker]" sections, returned as PEP 508 lines with the section's
// marker appended.
std::vector<std::string> parse_requires_txt(std::string_view text);

// One PEP 508 requirement: "torch (>=2.0); python_version >= '3.8'".
struct ParsedRequirement {
  std::string name;       // normalised (PEP 503)
  std::string specifier;  // without spaces and parentheses; empty: any
  std::optional<std::string> marker;
  std::optional<std::string> url;  // "name @ url"
};
Result<ParsedRequirement> parse_requirement(std::string_view line);

// What markers are compared against; an unset field is unknown.
struct MarkerEnv {
  std::map<std::string, std::string> values;  // "platform_system" -> "Linux", "python_version" -> "3.10", …
};

// Three-valued: true, false, or nullopt when the marker uses a variable we do
// not know or cannot be parsed. `extra == "x"` is false: an extra is not
// installed unless asked for.
std::optional<bool> evaluate_marker(std::string_view marker, const MarkerEnv& env);

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

// Simple `name = value` assignments of a Python source file or a dict
// literal: `cuda = '12.1'`, `'cuda_version': '12.2'`, `hip = None`. Values
// are returned without quotes; None as "None", True/False as written.
std::map<std::string, std::string> parse_python_assignments(std::string_view text);

// pyvenv.cfg: "key = value" lines.
std::map<std::string, std::string> parse_pyvenv_cfg(std::string_view text);

// The interpreter's answer to the sys.path question (python_probe.cpp):
// NUL-separated version, prefix, base prefix, executable, then sys.path.
struct InterpreterAnswer {
  std::string version;  // "3.10.12"
  std::string prefix, base_prefix, executable;
  std::vector<std::string> path;  // without "" (the current directory)
};
Result<InterpreterAnswer> parse_interpreter_answer(std::string_view text);

// The deep probe's answer (probes/deep_probe.py): one JSON object.
Result<DeepProbeFacts> parse_deep_answer(std::string_view text);

// "cu121" -> "12.1", "cu118" -> "11.8", "cuda12" -> "12"; "rocm6.0" -> hip "6.0".
std::optional<std::string> cuda_from_local_tag(std::string_view tag);
std::optional<std::string> hip_from_local_tag(std::string_view tag);

// "torch-2.1.0+cu121.dist-info" -> {"torch", "2.1.0+cu121"}; egg-info names
// may carry "-py3.10" after the version.
struct NameVersion {
  std::string name, version;
};
std::optional<NameVersion> split_metadata_dir_name(std::string_view dir_name);

}  // namespace gpucheck
