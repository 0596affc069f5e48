// Errors as values: a Problem says what could not be read, where, and why.
#pragma once

#include <string>
#include <optional>
#include <string_view>
#include <utility>
#include <variant>

namespace gpucheck {

// Why a value is unknown. The JSON spelling (to_string) is part of the schema.
enum class Reason {
  absent,             // the file, command or library does not exist
  permission_denied,  // it exists but we may not read it
  timed_out,          // a command or driver call ran past its deadline
  malformed,          // it was read but could not be understood
  failed,             // it ran and reported an error (exit code, driver error)
  not_recorded,       // replaying a snapshot that does not hold it
  skipped,            // not asked for: --level 1 runs no program and no driver call
};

std::string_view to_string(Reason r);
std::optional<Reason> reason_named(std::string_view name);
std::string reason_names();  // "absent, permission_denied, …", for an error that says what was expected

struct Problem {
  Reason reason;
  std::string where;   // path, command line or library
  std::string detail;  // human-readable cause
};

template <class T>
class Result {
 public:
  Result(T value) : v_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Problem p) : v_(std::move(p)) {}    // NOLINT
  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  const T& value() const& { return std::get<0>(v_); }
  T& value() & { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  const T& operator*() const& { return value(); }
  const T* operator->() const { return &value(); }
  const Problem& problem() const { return std::get<1>(v_); }

 private:
  std::variant<T, Problem> v_;
};

}  // namespace gpucheck
