// A typed field of a JSON answer gpucheck does not own (an isolated child's,
// a kernel runner's line): a missing, mistyped or out-of-range value is
// unknown, never an exception and never a narrowed number. nlohmann's
// get<int>() of 2147483648 wraps; this returns nullopt.
#pragma once

#include <cmath>
#include <concepts>
#include <cstdint>
#include <limits>
#include <optional>

#include <nlohmann/json.hpp>

namespace gpucheck {

// The number v holds as a T, or nullopt when it is not a number, not whole
// (for an integral T), not finite, or outside T's range.
template <class T, class Json>
  requires(std::integral<T> || std::floating_point<T>)
std::optional<T> json_number(const Json& v) {
  if constexpr (std::same_as<T, bool>) {
    return std::nullopt;
  } else if constexpr (std::floating_point<T>) {
    if (!v.is_number()) return std::nullopt;
    const double d = v.template get<double>();
    if (!std::isfinite(d) || std::fabs(d) > static_cast<double>(std::numeric_limits<T>::max())) return std::nullopt;
    return static_cast<T>(d);
  } else {
    using L = std::numeric_limits<T>;
    if (v.is_number_unsigned()) {
      const auto u = v.template get<std::uint64_t>();
      if (u > static_cast<std::uint64_t>(L::max())) return std::nullopt;
      return static_cast<T>(u);
    }
    if (v.is_number_integer()) {
      const auto i = v.template get<std::int64_t>();
      if (i < 0 && !L::is_signed) return std::nullopt;
      if (L::is_signed && (i < static_cast<std::int64_t>(L::min()) || i > static_cast<std::int64_t>(L::max()))) return std::nullopt;
      return static_cast<T>(i);
    }
    if (v.is_number_float()) {
      const double d = v.template get<double>();
      // 2^63 and 2^64 are exact doubles; anything at or past them is out of every range here.
      if (!std::isfinite(d) || d != std::trunc(d) || d < static_cast<double>(L::min()) || d >= std::ldexp(1.0, L::digits))
        return std::nullopt;
      return static_cast<T>(d);
    }
    return std::nullopt;
  }
}

// j[key] as a T: nullopt when absent, null, mistyped or out of range.
template <class T, class Json>
std::optional<T> json_field(const Json& j, const char* key) {
  if (!j.is_object()) return std::nullopt;
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return std::nullopt;
  if constexpr (std::integral<T> && !std::same_as<T, bool>) {
    return json_number<T>(*it);
  } else if constexpr (std::floating_point<T>) {
    return json_number<T>(*it);
  } else {
    try {
      return it->template get<T>();
    } catch (const nlohmann::json::exception&) {
      return std::nullopt;
    }
  }
}

}  // namespace gpucheck
