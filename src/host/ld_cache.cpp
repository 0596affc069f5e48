#include "host/ld_cache.hpp"

#include <cstring>

namespace gpucheck {
namespace {

constexpr std::string_view kOldMagic = "ld.so-1.7.0";
constexpr std::string_view kNewMagic = "glibc-ld.so.cache";
constexpr std::size_t kNewHeader = 48;  // magic+version 20, nlibs, len_strings, flags+pad, ext offset, 3 unused
constexpr std::size_t kNewEntry = 24;   // flags, key, value, osversion, hwcap
constexpr std::size_t kOldHeader = 16;  // "ld.so-1.7.0\0" + nlibs
constexpr std::size_t kOldEntry = 12;

template <class T>
T load(std::string_view b, std::size_t off) {
  T v;
  std::memcpy(&v, b.data() + off, sizeof v);
  return v;
}

Problem bad(std::size_t off, const std::string& what) {
  return Problem{Reason::malformed, "ld.so.cache", what + " at offset " + std::to_string(off)};
}

}  // namespace

Result<std::vector<LdCacheEntry>> parse_ld_cache(std::string_view b) {
  std::size_t base = 0;
  if (b.substr(0, kOldMagic.size()) == kOldMagic) {
    if (b.size() < kOldHeader) return bad(0, "truncated old-format header");
    const auto nlibs = load<std::uint32_t>(b, 12);
    const std::size_t end = kOldHeader + static_cast<std::size_t>(nlibs) * kOldEntry;
    base = (end + 7) & ~std::size_t{7};  // the new format follows, 8-byte aligned
    if (base >= b.size()) return bad(base, "old format only (no glibc-ld.so.cache1.1 section)");
  }
  const std::string_view cache = b.substr(base);
  if (cache.size() < kNewHeader || cache.substr(0, kNewMagic.size()) != kNewMagic)
    return bad(base, "not an ld.so.cache (no \"glibc-ld.so.cache\" magic)");
  if (cache.substr(kNewMagic.size(), 3) != "1.1") return bad(base + kNewMagic.size(), "unsupported cache version");
  const auto nlibs = load<std::uint32_t>(cache, 20);
  if (static_cast<std::uint64_t>(nlibs) * kNewEntry + kNewHeader > cache.size())
    return bad(base + 20, "entry count " + std::to_string(nlibs) + " runs past the end of the file");

  // String offsets count from the start of the new-format header. A name
  // or path is at most PATH_MAX, and all of them together at most a few
  // times the file (ldconfig shares a soname with its path's tail): a
  // crafted cache whose 885 entries each pointed at 4 MB without a NUL
  // took 6 GB.
  constexpr std::size_t kMaxString = 4096;
  const std::size_t budget = 4 * cache.size();
  std::size_t copied = 0;
  auto str_at = [&](std::uint32_t off, std::string& out) {
    if (off >= cache.size()) return false;
    const auto end = cache.substr(off, kMaxString).find('\0');
    if (end == std::string_view::npos || copied + end > budget) return false;
    copied += end;
    out.assign(cache.substr(off, end));
    return true;
  };
  std::vector<LdCacheEntry> out;
  out.reserve(nlibs);
  for (std::uint32_t i = 0; i < nlibs; ++i) {
    const std::size_t off = kNewHeader + static_cast<std::size_t>(i) * kNewEntry;
    LdCacheEntry e;
    e.flags = load<std::int32_t>(cache, off);
    e.hwcap = load<std::uint64_t>(cache, off + 16);
    if (!str_at(load<std::uint32_t>(cache, off + 4), e.name) || !str_at(load<std::uint32_t>(cache, off + 8), e.path))
      return bad(base + off, "entry " + std::to_string(i) + " points outside the string table, or at a string without its end");
    out.push_back(std::move(e));
  }
  return out;
}

int ld_cache_arch_flags(std::string_view machine) {
  if (machine == "x86_64") return 0x0300;
  if (machine == "aarch64") return 0x0a00;
  if (machine == "ppc64le" || machine == "ppc64") return 0x0500;
  if (machine == "i386" || machine == "i686") return 0x0000;
  return -1;
}

std::string ld_cache_flag_text(std::int32_t flags) {
  std::string t = (flags & 0xff) == 0x03 ? "libc6" : (flags & 0xff) == 0x01 ? "ELF" : "unknown";
  switch (flags & 0xff00) {
    case 0x0000: break;
    case 0x0100: t += ",64bit"; break;
    case 0x0200: t += ",IA-64"; break;
    case 0x0300: t += ",x86-64"; break;
    case 0x0400: t += ",64bit"; break;
    case 0x0500: t += ",64bit"; break;
    case 0x0800: t += ",x32"; break;
    case 0x0900: t += ",hard-float"; break;
    case 0x0a00: t += ",AArch64"; break;
    default: t += ",arch " + std::to_string((flags & 0xff00) >> 8); break;
  }
  return t;
}

}  // namespace gpucheck
