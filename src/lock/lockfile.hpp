// The lockfile's operations: take the stack out of facts, write it, read it
// back (errors with file and line), compare it with a host, emit what it
// implies for pip and for containers. Format and policies: docs/lockfile.md.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "facts/facts.hpp"
#include "lock/lock.hpp"
#include "matrix/matrix.hpp"
#include "rules/finding.hpp"
#include "util/result.hpp"

namespace gpucheck {

// The stack of one host, every field of the schema present (absent facts
// as `none`), in the schema's order: same facts, same lock.
Lock lock_from_facts(const Facts& facts, const LockContext& ctx);

// The text form. Deterministic: depends on the lock only.
std::string render_lock(const Lock& lock);

// Reads the text form; `name` (the file) goes into every error, with the
// line: "gpucheck.lock:12: unknown policy 'sometimes' …".
Result<Lock> parse_lock(std::string_view text, std::string_view name);

// Reads a lock file from disk: unreadable, corrupt or invalid are Problems.
Result<Lock> read_lock_file(const std::string& path);

// Every difference between the pinned lock and the host's (`found`, from
// lock_from_facts): a Finding of rule and category "lock-drift", severity
// error when the field's policy is breached, info when the value moved within
// it. Fields in neither are skipped; a field only the host has is judged
// as pinned `none` with its default policy.
std::vector<Finding> compare_lock(const Lock& pinned, const Lock& found, std::string_view scope = "host");

// True when any finding is an error (verify's exit code 1).
bool has_errors(const std::vector<Finding>& findings);

// A pinned package whose installed version breaks another pinned package's
// own pin (torch 2.1.0+cu121 wants nvidia-cudnn-cu12==8.9.2.26, the host has
// 8.9.7.29): the constraint follows the pin, never the host, so that pip
// gets a set it can satisfy.
struct PinCorrection {
  std::string package;    // normalised: "nvidia-cudnn-cu12"
  std::string specifier;  // "==8.9.2.26"
  std::string why;        // "torch 2.1.0+cu121 pins ==8.9.2.26; this host has 8.9.7.29"
};
// From the environment the lock pins (the one a job would run in).
std::vector<PinCorrection> pin_corrections(const Facts& facts);

// A pip constraints file for the pinned Python packages, with the extra index
// a +cuXXX/+rocmX/+cpu build comes from; `corrections` replace the host's
// version of a package with its pinner's, each said in a comment.
std::string emit_constraints(const Lock& lock, const std::vector<PinCorrection>& corrections = {});
// The NGC image reference the lock implies: "nvcr.io/nvidia/pytorch:24.01-py3",
// its tag as the matrix's NGC table names it (for a release the matrix does
// not list yet, in the form of that framework's newest listed tag).
Result<std::string> emit_container(const Lock& lock, const Matrix& matrix);

}  // namespace gpucheck
