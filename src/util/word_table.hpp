// A fixed vocabulary: each value of an enum with its one spelling, and the
// lookups both ways, so every vocabulary is one table and nothing else.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace gpucheck {

template <class E>
struct Word {
  E value;
  std::string_view name;
};

template <class E, std::size_t N>
std::string_view name_of(const Word<E> (&table)[N], E value) {
  for (const auto& w : table)
    if (w.value == value) return w.name;
  return "?";
}

template <class E, std::size_t N>
std::optional<E> value_named(const Word<E> (&table)[N], std::string_view name) {
  for (const auto& w : table)
    if (w.name == name) return w.value;
  return std::nullopt;
}

// "nvidia, amd": the spellings in table order, for an error that says what was expected.
template <class E, std::size_t N>
std::string names_of(const Word<E> (&table)[N]) {
  std::string out;
  for (const auto& w : table) {
    if (!out.empty()) out += ", ";
    out += w.name;
  }
  return out;
}

}  // namespace gpucheck
