#include "cli/cli_values.hpp"

#include <cmath>
#include <sstream>

#include "cli/cli_errors.hpp"
#include "util/duration.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {


}  // namespace

std::string duration_text(double seconds) {
  std::ostringstream out;
  if (seconds >= 3600 && std::fmod(seconds, 3600) == 0) out << seconds / 3600 << " h";
  else if (seconds >= 60 && std::fmod(seconds, 60) == 0) out << seconds / 60 << " min";
  else out << seconds << " s";
  return out.str();
}

CLI::Validator whole_number(long lo, long hi) {
  return CLI::Validator(
      [lo, hi](std::string& text) -> std::string {
        const auto v = parse_int(trim(text));
        if (v && *v >= lo && *v <= hi) return {};
        return "expected a whole number of at least " + std::to_string(lo) + " and at most " + std::to_string(hi) + ", got " +
               in_quotes(text);
      },
      "");
}

CLI::Validator duration_within(double lo, double hi, bool lo_open) {
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        const auto s = parse_duration_seconds(text);
        const std::string range = (lo_open ? "more than " : "at least ") + duration_text(lo) + " and at most " + duration_text(hi);
        if (!s) return "expected a duration like 30, 30s, 500ms or 2m (a bare number is seconds), got " + in_quotes(text);
        if (*s > hi || *s < lo || (lo_open && *s == lo)) return "expected " + range + ", got " + in_quotes(text);
        std::ostringstream seconds;
        seconds.precision(17);
        seconds << *s;
        text = seconds.str();
        return {};
      },
      "");
}

CLI::Validator one_of(std::vector<std::string> names) {
  const std::string description = "{" + join(names, ",") + "}";
  return CLI::Validator(
      [names = std::move(names)](std::string& text) -> std::string {
        for (const auto& n : names)
          if (n == text) return {};
        const auto meant = did_you_mean(text, names);
        return "expected one of " + join(names, ", ") + "; got " + in_quotes(text) +
               (meant.empty() ? "" : " (did you mean " + meant + "?)");
      },
      description);
}

}  // namespace gpucheck
