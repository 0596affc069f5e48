// The stable JSON form of Facts (schema: docs/facts-schema.md).
#pragma once

#include <nlohmann/json.hpp>

#include "facts/facts.hpp"

namespace gpucheck {

nlohmann::ordered_json to_json(const Facts& f);
nlohmann::ordered_json to_json(const Note& n);

}  // namespace gpucheck
