// Entry-point tables: see symbol_table.hpp.
#include "host/symbol_table.hpp"

namespace gpucheck {

std::vector<std::string> resolve_symbols(const DynamicLibrary& lib, std::initializer_list<SymbolSlot> table) {
  std::vector<std::string> missing;
  for (const SymbolSlot& s : table) {
    void* address = lib.symbol(s.name);
    s.assign(s.target, address);
    if (!address) missing.emplace_back(s.name);
  }
  return missing;
}

}  // namespace gpucheck
