#include "util/dates.hpp"

#include <cstdio>
#include <ctime>

#include "util/strings.hpp"

namespace gpucheck {

std::optional<Day> parse_iso_date(std::string_view s) {
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') return std::nullopt;
  const auto y = parse_int(s.substr(0, 4)), m = parse_int(s.substr(5, 2)), d = parse_int(s.substr(8, 2));
  if (!y || !m || !d || *m < 1 || *m > 12 || *d < 1 || *d > 31) return std::nullopt;
  const std::chrono::year_month_day ymd{std::chrono::year(static_cast<int>(*y)), std::chrono::month(static_cast<unsigned>(*m)),
                                        std::chrono::day(static_cast<unsigned>(*d))};
  if (!ymd.ok()) return std::nullopt;
  return Day(ymd);
}

std::string rfc3339_utc(std::int64_t seconds) {
  const auto t = static_cast<std::time_t>(seconds);
  std::tm tm{};
  ::gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string iso_date_text(Day d) {
  const std::chrono::year_month_day ymd(d);
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04d-%02u-%02u", static_cast<int>(ymd.year()), static_cast<unsigned>(ymd.month()),
                static_cast<unsigned>(ymd.day()));
  return buf;
}

std::optional<Day> day_after_month(std::string_view year_month) {
  if (year_month.size() < 7) return std::nullopt;
  const auto first = parse_iso_date(std::string(year_month.substr(0, 7)) + "-01");
  if (!first) return std::nullopt;
  const std::chrono::year_month_day ymd{*first};
  return Day{ymd.year() / ymd.month() / std::chrono::day{1} + std::chrono::months{1}};
}

Day today_utc() { return std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now()); }

}  // namespace gpucheck
