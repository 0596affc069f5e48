// The facts as rules see them: a flat name -> value map per subject (the
// host, one GPU, one Python environment, one framework build, a framework on
// a GPU), each value typed so that comparisons use the right semantics and
// carrying where it was read, for the finding's evidence.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "rules/scope.hpp"
#include "util/version.hpp"

namespace gpucheck {

enum class FactKind { text, version, number, boolean, list };
std::string_view to_string(FactKind k);

struct FactValue {
  FactKind kind = FactKind::text;
  std::string text;                 // as printed; for a list, its items joined by ", "
  std::optional<Version> version;   // FactKind::version: `text` parsed once (nullopt: it does not parse)
  double number = 0;                // FactKind::number
  bool boolean = false;             // FactKind::boolean
  std::vector<std::string> items;   // FactKind::list
  std::vector<std::optional<Version>> item_versions;  // FactKind::list: each item parsed once, as a version if it is one
  std::string source;               // the file, command or matrix entry it came from

  static FactValue of_text(std::string v, std::string source);
  static FactValue of_version(std::string v, std::string source);
  // Already parsed (the matrix's values): printed as written, not parsed again.
  static FactValue of_version(const Version& v, std::string source);
  static FactValue of_number(double v, std::string source);
  static FactValue of_bool(bool v, std::string source);
  static FactValue of_list(std::vector<std::string> v, std::string source);
  static FactValue of_list(const std::vector<Version>& v, std::string source);
  bool operator==(const FactValue&) const = default;
};

using FactMap = std::map<std::string, FactValue>;

// What a rule is evaluated on. `facts` holds the subject's own facts and
// those of everything around it (a GPU's map holds the host's facts too).
struct Subject {
  Subject(Scope s, std::string l, FactMap f) : scope(s), label(std::move(l)), facts(std::move(f)) {}
  Scope scope;
  std::string label;  // "host", "GPU 0000:18:00.0 (NVIDIA H100 80GB HBM3)", "torch 2.1.0+cu121 in /venv/bin/python3"
  FactMap facts;
  // A subject on one GPU (scopes gpu and framework_gpu): the GPU's address
  // and name, and what runs on it ("torch 2.1.0+cu121 (/venv/bin/python3)";
  // empty for the GPU itself), so one finding can name several GPUs.
  std::string gpu_address, gpu_name, on;
};

}  // namespace gpucheck
