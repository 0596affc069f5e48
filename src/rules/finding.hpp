// A verdict: what is wrong (or worth knowing), the facts that show it and
// where each was read, what to do, and where the knowledge comes from.
// `category` is an API for dashboards: its spellings never change
// (docs/rules.md lists them).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpucheck {

enum class Severity { info, warning, error };
std::string_view to_string(Severity s);
std::optional<Severity> parse_severity(std::string_view s);

struct Evidence {
  std::string fact;    // "driver.version"
  std::string value;   // "535.104.05"
  std::string source;  // "/proc/driver/nvidia/version"
};

struct Finding {
  std::string rule;         // the rule id: "driver-too-old-for-torch-cuda"
  std::string category;     // "driver-too-old"
  Severity severity = Severity::warning;
  std::string title;
  std::string message;      // with the facts filled in
  std::string scope;        // "host", "GPU 0000:18:00.0", "python /venv/bin/python3"
  std::vector<Evidence> evidence;
  std::string fix;
  std::vector<std::string> sources;  // URLs
};

// How many of `findings` have severity `s`.
int count(const std::vector<Finding>& findings, Severity s);

}  // namespace gpucheck
