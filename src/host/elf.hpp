// The dynamic section of an ELF shared object (DT_NEEDED, DT_SONAME, DT_RPATH,
// DT_RUNPATH), read from byte ranges, never by loading it: a framework's
// libtorch_cuda.so is ~1 GB, and only a few KB of it are ever read.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "host/host.hpp"
#include "util/result.hpp"

namespace gpucheck {

struct ElfDynamic {
  std::string machine;                   // "x86_64", "aarch64", or "machine 20" for others
  bool has_dynamic = false;              // false: no PT_DYNAMIC (a static executable)
  std::vector<std::string> needed;       // DT_NEEDED, in file order (the loader's order)
  std::optional<std::string> soname;     // DT_SONAME
  std::optional<std::string> rpath;      // DT_RPATH, as written ("$ORIGIN/../lib:/opt/x")
  std::optional<std::string> runpath;    // DT_RUNPATH, as written
};

// Up to `length` bytes at `offset`; short only at the end of the file.
using ElfRangeReader = std::function<Result<std::string>(std::uint64_t offset, std::size_t length)>;

// ELF64 little-endian only (x86_64, aarch64, ppc64le, …); 32-bit and
// big-endian objects are a clear "unsupported" error. Every offset and size
// is checked against what the file holds: a truncated or malformed object is
// Reason::malformed with the offset and the cause in the detail, never a
// crash. `where` names the object in errors.
Result<ElfDynamic> parse_elf_dynamic(const ElfRangeReader& read, const std::string& where);
// The same over bytes in memory (tests, small objects).
Result<ElfDynamic> parse_elf_dynamic(std::string_view bytes, const std::string& where = "ELF object");
// The same through a Host: reads only the header, the program headers, the
// dynamic section and the few strings it names.
Result<ElfDynamic> read_elf_dynamic(const Host& host, const std::string& path);

}  // namespace gpucheck
