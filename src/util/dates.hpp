// Calendar days, as the matrix writes them ("2026-11-30"): parsed into a
// typed value once, so ages are differences of days, not of strings.
#pragma once
#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace gpucheck {

using Day = std::chrono::sys_days;

// "YYYY-MM-DD" naming a real day (2026-02-30 is not); nullopt otherwise.
std::optional<Day> parse_iso_date(std::string_view s);
std::string iso_date_text(Day d);
// Today in UTC, from the system clock.
Day today_utc();
inline int days_between(Day from, Day to) { return static_cast<int>((to - from).count()); }
// The first day after the month of "YYYY-MM" (or of a "YYYY-MM-DD"): a
// support that runs through that month ends there; nullopt otherwise.
std::optional<Day> day_after_month(std::string_view year_month);

}  // namespace gpucheck
