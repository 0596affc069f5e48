// Calendar days, as the matrix writes them ("2026-11-30"): parsed into a
// typed value once, so ages are differences of days, not of strings.
#pragma once
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gpucheck {

using Day = std::chrono::sys_days;

// "YYYY-MM-DD" naming a real day (2026-02-30 is not); nullopt otherwise.
std::optional<Day> parse_iso_date(std::string_view s);
std::string iso_date_text(Day d);
// "2026-12-04T10:20:30Z": RFC 3339 in UTC, from seconds since 1970.
std::string rfc3339_utc(std::int64_t seconds);
// Today in UTC, from the system clock.
Day today_utc();
inline int days_between(Day from, Day to) { return static_cast<int>((to - from).count()); }
// The first day after the month of "YYYY-MM" (or of a "YYYY-MM-DD"): a
// support that runs through that month ends there; nullopt otherwise.
std::optional<Day> day_after_month(std::string_view year_month);

}  // namespace gpucheck
