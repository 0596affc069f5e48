// Shared by the JSON writers of each subject: unknown is null, never a default.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>

#include "facts/facts.hpp"

namespace gpucheck {

using J = nlohmann::ordered_json;

template <class T>
J opt(const std::optional<T>& v) {
  return v ? J(*v) : J(nullptr);
}

// One writer per subject (src/facts/<subject>_json.cpp).
J to_json(const PythonEnv& e);
J to_json(const RocmFacts& r);
J to_json(const LoaderView& v);
J to_json(const SoftwareFacts& s);
J to_json(const PciLink& l);  // link_json.cpp
J to_json(const PciPath& p);
J to_json(const IommuFacts& io);
J to_json(const NetworkFacts& n);
J to_json(const NvLinkFacts& f);

}  // namespace gpucheck
