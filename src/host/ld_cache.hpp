// /etc/ld.so.cache parsed directly (glibc's "glibc-ld.so.cache1.1" format,
// with or without the old "ld.so-1.7.0" prefix), as the dynamic loader reads it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "util/result.hpp"

namespace gpucheck {

struct LdCacheEntry {
  std::string name;   // soname, e.g. "libcuda.so.1"
  std::string path;   // "/usr/lib/x86_64-linux-gnu/libcuda.so.1"
  std::int32_t flags; // FLAG_ELF_LIBC6 | arch bits (0x0303 = libc6,x86-64)
  std::uint64_t hwcap;
};

// Entries in cache order. Errors are Reason::malformed with the offset.
Result<std::vector<LdCacheEntry>> parse_ld_cache(std::string_view bytes);

// The arch bits (flags & 0xff00) the loader accepts for `machine` (uname -m);
// -1 when unknown, which accepts all.
int ld_cache_arch_flags(std::string_view machine);

// ldconfig -p's words for an entry's flags: "libc6,x86-64".
std::string ld_cache_flag_text(std::int32_t flags);

}  // namespace gpucheck
