// The whole run's time budget (--timeout): each command or driver call gets
// the smaller of its own limit and what is left.
#pragma once

#include <chrono>

namespace gpucheck {

class Deadline {
 public:
  using Clock = std::chrono::steady_clock;
  explicit Deadline(std::chrono::milliseconds budget) : end_(Clock::now() + budget) {}
  explicit Deadline(Clock::time_point end) : end_(end) {}
  // For a caller with no run to bound (a test, a bench): a year.
  static Deadline none() { return Deadline(std::chrono::hours(24 * 365)); }
  std::chrono::milliseconds left() const {
    const auto l = std::chrono::duration_cast<std::chrono::milliseconds>(end_ - Clock::now());
    return l.count() > 0 ? l : std::chrono::milliseconds(0);
  }
  std::chrono::milliseconds cap(std::chrono::milliseconds want) const { return want < left() ? want : left(); }
  bool expired() const { return left().count() == 0; }

 private:
  Clock::time_point end_;
};

}  // namespace gpucheck
