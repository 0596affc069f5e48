// Python package versions and specifiers as PEP 440 defines them
// (https://peps.python.org/pep-0440/); project names as PEP 503 normalises
// them are util/python_name.hpp's. Behaviour follows the reference implementation,
// pypa/packaging (version.py, specifiers.py), which pip uses.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/python_name.hpp"

namespace gpucheck {

class Pep440Version {
 public:
  // Accepts every spelling PEP 440 normalises ("v1.0", "1.0-1", "1.0.RC1",
  // "1.0a" …). nullopt for anything else (a legacy version such as "1.0-beta-x").
  static std::optional<Pep440Version> parse(std::string_view text);

  const std::string& text() const { return text_; }  // as read
  std::int64_t epoch() const { return epoch_; }
  const std::vector<std::int64_t>& release() const { return release_; }
  bool is_prerelease() const { return pre_kind_ >= 0 || dev_ >= 0; }
  bool is_postrelease() const { return post_ >= 0; }
  bool is_devrelease() const { return dev_ >= 0; }
  bool has_local() const { return !local_.empty(); }
  const std::string& local() const { return local_text_; }  // normalised: "cu121"
  // The version without its local label.
  Pep440Version public_version() const;
  // epoch and release only: "1!2.0", "2.1.0".
  Pep440Version base_version() const;
  // Normalised form: "1.0rc1.post2.dev3+ubuntu.1".
  std::string normalized() const;

  // PEP 440 ordering (dev < pre < final < post; local labels after public).
  int compare(const Pep440Version& o) const;
  bool operator==(const Pep440Version& o) const { return compare(o) == 0; }
  bool operator<(const Pep440Version& o) const { return compare(o) < 0; }

 private:
  friend struct Pep440Access;
  std::string text_;
  std::int64_t epoch_ = 0;
  std::vector<std::int64_t> release_;
  int pre_kind_ = -1;  // 0 a, 1 b, 2 rc; -1 none
  std::int64_t pre_num_ = 0;
  std::int64_t post_ = -1;  // -1 none
  std::int64_t dev_ = -1;   // -1 none
  std::vector<std::string> local_;  // lower case segments
  std::string local_text_;
};

// One clause of a specifier set: "~=2.1", "==1.2.*", "!=3.0", "===foo".
struct Pep440Clause {
  std::string op;       // "~=", "==", "!=", "<=", ">=", "<", ">", "==="
  std::string version;  // as written, without a trailing ".*"
  bool wildcard = false;
};

// A comma-separated specifier set; empty matches any version.
class Pep440Specifier {
 public:
  // nullopt when a clause is not PEP 440 (an unknown operator, a version
  // that does not parse, "~=" with one release segment, a misplaced ".*").
  static std::optional<Pep440Specifier> parse(std::string_view text);
  const std::vector<Pep440Clause>& clauses() const { return clauses_; }
  // True when `v` satisfies every clause. Pre-releases are accepted as pip's
  // `check` does (an installed pre-release is judged, not excluded).
  bool contains(const Pep440Version& v) const;
  // For "===" clauses, the candidate's text is compared, case-insensitively.
  bool contains(std::string_view version_text) const;

 private:
  std::vector<Pep440Clause> clauses_;
  std::vector<std::optional<Pep440Version>> parsed_;  // per clause; nullopt for "==="
};

}  // namespace gpucheck
