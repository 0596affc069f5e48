// JSON the build has already validated (the embedded matrix, a verified
// cache): read with simdjson and handed on as nlohmann::json, the form the
// loaders read. nlohmann's own lexer was three quarters of loading the
// matrix; no check is lost, since such text was checked strictly
// (duplicate keys too) before it was embedded or signed.
#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

#include "util/result.hpp"

namespace gpucheck {

// A Problem (where: `name`) for text that does not parse.
Result<nlohmann::json> parse_validated_json(std::string_view text, const std::string& name);

}  // namespace gpucheck
