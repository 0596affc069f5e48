#include "host/dynamic_library.hpp"

#include <dlfcn.h>

namespace gpucheck {

Result<DynamicLibrary> DynamicLibrary::open(const std::vector<std::string>& candidates) {
  std::string errors;
  for (auto& c : candidates) {
    if (void* h = ::dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL)) return DynamicLibrary(h, c);
    const char* e = ::dlerror();
    errors += (errors.empty() ? "" : "; ") + std::string(e ? e : c + ": cannot open");
  }
  return Problem{Reason::absent, candidates.empty() ? "" : candidates.front(), errors};
}

DynamicLibrary::~DynamicLibrary() {
  if (handle_) ::dlclose(handle_);
}

void* DynamicLibrary::symbol(const char* name) const { return handle_ ? ::dlsym(handle_, name) : nullptr; }

}  // namespace gpucheck
