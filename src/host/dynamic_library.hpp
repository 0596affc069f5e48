// dlopen with an explicit list of candidates, tried in order. The GPU
// management libraries are opened only inside Host::isolated_call, so one
// that crashes or hangs on load cannot take gpucheck down with it; libcurl
// (update/curl_library.hpp) in the process itself.
#pragma once

#include <string>
#include <vector>

#include "util/result.hpp"

namespace gpucheck {

class DynamicLibrary {
 public:
  // Tries each candidate (a path or a bare soname) with RTLD_NOW|RTLD_LOCAL.
  static Result<DynamicLibrary> open(const std::vector<std::string>& candidates);
  DynamicLibrary(DynamicLibrary&& o) noexcept : handle_(o.handle_), opened_(std::move(o.opened_)) { o.handle_ = nullptr; }
  DynamicLibrary& operator=(DynamicLibrary&&) = delete;
  DynamicLibrary(const DynamicLibrary&) = delete;
  ~DynamicLibrary();

  void* symbol(const char* name) const;
  // `fn` = the entry point `name`, typed as `fn` is; false when it is missing.
  template <class Fn>
  bool bind(Fn& fn, const char* name) const {
    fn = reinterpret_cast<Fn>(symbol(name));
    return fn != nullptr;
  }
  const std::string& opened() const { return opened_; }

 private:
  DynamicLibrary(void* h, std::string opened) : handle_(h), opened_(std::move(opened)) {}
  void* handle_;
  std::string opened_;
};

}  // namespace gpucheck
