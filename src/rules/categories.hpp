// The finding categories: an API for dashboards and scripts, so a spelling
// never changes once released (docs/rules.md).
#pragma once

#include <string_view>
#include <vector>

namespace gpucheck {

struct Category {
  const char* name;
  const char* meaning;
};

const std::vector<Category>& categories();
bool known_category(std::string_view name);

}  // namespace gpucheck
