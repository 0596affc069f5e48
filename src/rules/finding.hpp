// A verdict: what is wrong (or worth knowing), the facts that show it and
// where each was read, what to do, and where the knowledge comes from.
// `category` is an API for dashboards: its spellings never change
// (docs/rules.md lists them).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rules/action.hpp"

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
  std::string scope;        // "host", "GPU 0000:18:00.0 (…)", "8 GPUs (…): 0000:{18,2a,…}:00.0", "Python /venv/bin/python3"
  std::vector<std::string> gpus;     // the PCI address of every GPU it holds for, in full
  // Where GPUs differ (an ECC error count, a link width), what the others show:
  // "0000:2a:00.0: <message>"; the message is the first GPUs'.
  std::vector<std::string> details;
  std::vector<Evidence> evidence;
  std::string fix;
  Action action = Action::none;      // what an operator or a scheduler does about it
  std::vector<std::string> sources;  // URLs
};

// How many of `findings` have severity `s`.
int count(const std::vector<Finding>& findings, Severity s);

// Errors fail; warnings fail under --strict; the rest pass.
bool finding_fails(const Finding& f, bool strict);
// What a failed verdict asks for: the most drastic action of its failing
// findings (none when nothing fails).
Action verdict_action(const std::vector<Finding>& findings, bool strict);

}  // namespace gpucheck
