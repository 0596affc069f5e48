// Filling a table of entry points from a dlopen'ed library. Each caller keeps
// its own X-macro list (which declares the function-pointer members); this
// resolves them and names the ones the library lacks, so a driver too old
// for an entry point becomes a message naming it, not a null call later.
#pragma once

#include <initializer_list>
#include <string>
#include <type_traits>
#include <vector>

#include "host/dynamic_library.hpp"

namespace gpucheck {

// One entry point: the name the library exports and the function-pointer
// member to fill. The member's type is erased behind `assign` because a
// pointer to a function pointer cannot portably be written through as void**.
struct SymbolSlot {
  template <class Fn>
  SymbolSlot(const char* symbol_name, Fn** member)
      : name(symbol_name), target(member), assign(&assign_as<Fn>) {
    static_assert(std::is_function_v<Fn>, "a SymbolSlot fills a function pointer");
  }
  const char* name;
  void* target;
  void (*assign)(void* target, void* address);

 private:
  template <class Fn>
  static void assign_as(void* t, void* address) {
    *static_cast<Fn**>(t) = reinterpret_cast<Fn*>(address);
  }
};

// Fills every slot, with null where the library lacks the name (so no stale
// pointer survives a failed lookup), and returns the missing names in table
// order: empty when all were found.
std::vector<std::string> resolve_symbols(const DynamicLibrary& lib, std::initializer_list<SymbolSlot> table);

}  // namespace gpucheck
