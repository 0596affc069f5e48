// Reading the JSON a probe's isolated child wrote: a child that crashed
// half-way or a library that answered nonsense gives a missing or mistyped
// field, which reads as unknown, never as an exception.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>

namespace gpucheck {

template <class T>
std::optional<T> answer_field(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return std::nullopt;
  try {
    return it->get<T>();
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}

}  // namespace gpucheck
