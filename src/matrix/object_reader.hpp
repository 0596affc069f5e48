// Reads the members of one JSON object of the matrix into a struct, checking
// each value's type and format, and records every problem instead of stopping
// at the first, so one validation run lists everything a data file gets wrong.
// The keys it was asked for are the allowed keys: any other key is reported,
// with the nearest allowed spelling.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "matrix/matrix_values.hpp"
#include "util/result.hpp"
#include "util/version.hpp"

namespace gpucheck {

class ObjectReader {
 public:
  // `object` must be a JSON object; `document` and `pointer` name it in errors.
  ObjectReader(const nlohmann::json& object, std::string document, std::string pointer, std::vector<Problem>& problems);

  // Strings: required ones must be present; all must pass `check`.
  void string(const char* key, std::string& out, matrix_values::Check check);
  void optional_string(const char* key, std::optional<std::string>& out, matrix_values::Check check);
  // Absent means keep `out`'s default.
  void defaulted_string(const char* key, std::string& out, matrix_values::Check check);
  void string_list(const char* key, std::vector<std::string>& out, matrix_values::Check check, bool required);
  // Versions: read as strings (same checks, same messages), then parsed here
  // once so that no query parses matrix text again.
  void version(const char* key, Version& out, matrix_values::Check check);
  void optional_version(const char* key, std::optional<Version>& out, matrix_values::Check check);
  void version_list(const char* key, std::vector<Version>& out, matrix_values::Check check, bool required);
  // A non-empty array of https:// URLs, always required.
  void sources(std::vector<std::string>& out);

  void integer(const char* key, int& out, int min, int max);
  // Positive, finite numbers.
  void number(const char* key, double& out);
  void optional_number(const char* key, std::optional<double>& out);
  void boolean(const char* key, bool& out);
  // An object of name -> positive number, names passing `check`.
  void number_map(const char* key, std::map<std::string, double>& out, matrix_values::Check check);

  // An object of name -> string, names passing `key_check`, values `check`.
  void string_map(const char* key, std::map<std::string, std::string>& out, matrix_values::Check key_check,
                  matrix_values::Check check);

  // A required member that is a JSON object, for a reader of its own; null
  // (and a problem recorded) when it is absent or no object.
  const nlohmann::json* object(const char* key);

  // `key` was optional only where `instead` says why it is absent.
  void require_unless(const char* key, bool present, const char* instead, bool instead_present);

  // Reports the keys that none of the calls above asked for.
  void reject_unknown_keys();

  // Whether the object has `key` (and, given `inner`, whether that member
  // is an object with `inner`), valid or not; asks nothing, allows nothing.
  bool has(const char* key, const char* inner = nullptr) const;

  std::string where(const std::string& key) const;
  std::string where_index(const std::string& key, std::size_t index) const;

 private:
  // Where a value sits, spelled out only when a problem is reported: building
  // every value's JSON pointer up front was a fifth of loading the matrix.
  struct Place {
    const char* key;
    std::optional<std::size_t> index;  // an array's item
    std::string_view name = {};        // an object's member
  };
  std::string spell(Place at) const;

  const nlohmann::json* member(const char* key, bool required, const char* expected);
  void problem(std::string where, std::string detail);
  void positive_number(const char* key, bool required, std::optional<double>& out);
  bool check_string(const nlohmann::json& v, Place at, matrix_values::Check check, std::string& out);
  std::optional<Version> parsed(const std::string& text, Place at);

  const nlohmann::json& object_;
  std::string document_;
  std::string pointer_;
  std::vector<Problem>& problems_;
  std::vector<std::string> allowed_;
};

// "a string \"abc\"", "a number 12", "an array", … for "expected X, found Y".
std::string describe_json(const nlohmann::json& v);

// The allowed key within two edits of `key` (or equal ignoring case), if any.
std::optional<std::string> nearest_key(const std::string& key, const std::vector<std::string>& allowed);

}  // namespace gpucheck
