// ELF64 dynamic-section reader. Layouts from the System V gABI ("Object
// Files": ELF header, program header, dynamic section) and glibc's <elf.h>.
#include "host/elf.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <limits>

namespace gpucheck {
namespace {

constexpr std::size_t kEhdrSize = 64;      // Elf64_Ehdr
constexpr std::size_t kPhdrSize = 56;      // Elf64_Phdr
constexpr std::size_t kDynSize = 16;       // Elf64_Dyn
constexpr std::uint32_t kPtLoad = 1, kPtDynamic = 2;
constexpr std::int64_t kDtNull = 0, kDtNeeded = 1, kDtStrtab = 5, kDtStrsz = 10, kDtSoname = 14, kDtRpath = 15,
                       kDtRunpath = 29;
constexpr std::size_t kMaxPhnum = 4096;        // real objects have ~10
constexpr std::size_t kMaxDynamicBytes = 1u << 20;  // real ones: a few hundred entries
constexpr std::size_t kMaxString = 64u << 10;  // an RPATH of 64 KiB is already absurd
constexpr std::size_t kMaxNeeded = 4096;

template <class T>
T load(std::string_view b, std::size_t off) {
  T v;
  std::memcpy(&v, b.data() + off, sizeof v);  // the host is little-endian, as the objects we accept
  return v;
}

std::string machine_name(std::uint16_t m) {
  switch (m) {
    case 62: return "x86_64";
    case 183: return "aarch64";
    case 21: return "ppc64";
    case 243: return "riscv";
    default: return "machine " + std::to_string(m);
  }
}

class Reader {
 public:
  Reader(const ElfRangeReader& read, const std::string& where) : read_(read), where_(where) {}

  Problem bad(std::uint64_t off, const std::string& what) const {
    return Problem{Reason::malformed, where_, what + " (at offset " + std::to_string(off) + ")"};
  }
  // Exactly `len` bytes at `off`, or an error naming both.
  Result<std::string> exact(std::uint64_t off, std::uint64_t len, const char* what) const {
    if (len > std::numeric_limits<std::size_t>::max() || off > std::numeric_limits<std::uint64_t>::max() - len)
      return bad(off, std::string(what) + ": offset and size overflow");
    auto r = read_(off, static_cast<std::size_t>(len));
    if (!r) return r.problem();
    if (r->size() != len)
      return bad(off, std::string(what) + ": needs " + std::to_string(len) + " bytes, the file ends after " +
                          std::to_string(r->size()) + " (truncated)");
    return r;
  }
  // A NUL-terminated string at `off`, at most `limit` bytes long (including the NUL).
  Result<std::string> cstring(std::uint64_t off, std::uint64_t limit) const {
    std::string out;
    std::uint64_t chunk = 256;
    while (out.size() < limit) {
      const std::uint64_t want = std::min<std::uint64_t>(chunk, limit - out.size());
      if (off > std::numeric_limits<std::uint64_t>::max() - out.size()) return bad(off, "string offset overflows");
      auto r = read_(off + out.size(), static_cast<std::size_t>(want));
      if (!r) return r.problem();
      const auto nul = r->find('\0');
      if (nul != std::string::npos) {
        out.append(*r, 0, nul);
        return out;
      }
      out += *r;
      if (r->size() < want) return bad(off, "string runs past the end of the file (truncated)");
      chunk = std::min<std::uint64_t>(chunk * 4, 16u << 10);
    }
    return bad(off, "string is not terminated within the string table");
  }

 private:
  const ElfRangeReader& read_;
  const std::string& where_;
};

struct Load {
  std::uint64_t offset, vaddr, filesz;
};

}  // namespace

Result<ElfDynamic> parse_elf_dynamic(const ElfRangeReader& read, const std::string& where) {
  const Reader rd(read, where);
  auto head = read(0, kEhdrSize);
  if (!head) return head.problem();
  const std::string_view h = *head;
  if (h.size() < 4 || h.substr(0, 4) != std::string_view("\x7f" "ELF", 4))
    return rd.bad(0, "not an ELF object (no \\x7fELF magic)");
  if (h.size() < 16) return rd.bad(0, "ELF identification truncated");
  if (h[4] != 2)
    return Problem{Reason::malformed, where,
                   std::string("unsupported: ") + (h[4] == 1 ? "32-bit (ELFCLASS32)" : "unknown ELF class") +
                       " object; only 64-bit ELF is read"};
  if (h[5] != 1)
    return Problem{Reason::malformed, where,
                   std::string("unsupported: ") + (h[5] == 2 ? "big-endian (ELFDATA2MSB)" : "unknown byte order") +
                       " object; only little-endian ELF is read"};
  if (h.size() < kEhdrSize) return rd.bad(h.size(), "ELF header truncated: needs 64 bytes");

  ElfDynamic out;
  out.machine = machine_name(load<std::uint16_t>(h, 18));
  const auto phoff = load<std::uint64_t>(h, 32);
  const auto phentsize = load<std::uint16_t>(h, 54);
  const auto phnum = load<std::uint16_t>(h, 56);
  if (phnum == 0xffff) return rd.bad(56, "unsupported: extended program header numbering (e_phnum = PN_XNUM)");
  if (phnum == 0) return out;  // no segments: a relocatable object, nothing the loader reads
  if (phentsize < kPhdrSize) return rd.bad(54, "program header entry size " + std::to_string(phentsize) + " < 56");
  if (phnum > kMaxPhnum) return rd.bad(56, "implausible program header count " + std::to_string(phnum));
  auto ph = rd.exact(phoff, std::uint64_t{phentsize} * phnum, "program headers");
  if (!ph) return ph.problem();

  std::vector<Load> loads;
  std::optional<std::pair<std::uint64_t, std::uint64_t>> dynamic;  // offset, size
  for (std::size_t i = 0; i < phnum; ++i) {
    const std::size_t at = i * phentsize;
    const auto type = load<std::uint32_t>(*ph, at);
    const auto p_offset = load<std::uint64_t>(*ph, at + 8);
    const auto p_vaddr = load<std::uint64_t>(*ph, at + 16);
    const auto p_filesz = load<std::uint64_t>(*ph, at + 32);
    if (type == kPtLoad) loads.push_back({p_offset, p_vaddr, p_filesz});
    if (type == kPtDynamic && !dynamic) dynamic = {p_offset, p_filesz};
  }
  if (!dynamic) return out;
  out.has_dynamic = true;
  if (dynamic->second > kMaxDynamicBytes)
    return rd.bad(dynamic->first, "implausible PT_DYNAMIC size " + std::to_string(dynamic->second));
  auto dyn = rd.exact(dynamic->first, dynamic->second, "dynamic section");
  if (!dyn) return dyn.problem();

  std::vector<std::uint64_t> needed;
  std::optional<std::uint64_t> soname, rpath, runpath, strtab, strsz;
  bool terminated = false;
  for (std::size_t at = 0; at + kDynSize <= dyn->size(); at += kDynSize) {
    const auto tag = load<std::int64_t>(*dyn, at);
    const auto val = load<std::uint64_t>(*dyn, at + 8);
    if (tag == kDtNull) {
      terminated = true;
      break;
    }
    switch (tag) {
      case kDtNeeded:
        if (needed.size() >= kMaxNeeded) return rd.bad(dynamic->first + at, "more than 4096 DT_NEEDED entries");
        needed.push_back(val);
        break;
      case kDtSoname: soname = val; break;
      case kDtRpath: rpath = val; break;
      case kDtRunpath: runpath = val; break;
      case kDtStrtab: strtab = val; break;
      case kDtStrsz: strsz = val; break;
      default: break;
    }
  }
  if (!terminated) return rd.bad(dynamic->first, "dynamic section has no DT_NULL terminator");
  if (needed.empty() && !soname && !rpath && !runpath) return out;
  if (!strtab) return rd.bad(dynamic->first, "dynamic section names strings but has no DT_STRTAB");

  // DT_STRTAB is an address: map it to a file offset through the PT_LOAD segments.
  std::optional<std::uint64_t> str_off;
  std::uint64_t str_room = 0;  // bytes of the string table inside its segment's file image
  for (auto& l : loads) {
    if (*strtab >= l.vaddr && *strtab - l.vaddr < l.filesz) {
      const auto delta = *strtab - l.vaddr;
      if (l.offset > std::numeric_limits<std::uint64_t>::max() - delta) continue;
      str_off = l.offset + delta;
      str_room = l.filesz - delta;
      break;
    }
  }
  if (!str_off)
    return rd.bad(dynamic->first, "DT_STRTAB address 0x" + [&] {
      char buf[24];
      std::snprintf(buf, sizeof buf, "%llx", static_cast<unsigned long long>(*strtab));
      return std::string(buf);
    }() + " lies in no PT_LOAD segment");
  const std::uint64_t table = strsz ? std::min(*strsz, str_room) : str_room;

  auto string_at = [&](std::uint64_t idx, const char* what) -> Result<std::string> {
    if (idx >= table)
      return rd.bad(*str_off, std::string(what) + " string index " + std::to_string(idx) +
                                  " lies outside the string table (" + std::to_string(table) + " bytes)");
    return rd.cstring(*str_off + idx, std::min<std::uint64_t>(table - idx, kMaxString));
  };
  for (auto idx : needed) {
    auto s = string_at(idx, "DT_NEEDED");
    if (!s) return s.problem();
    out.needed.push_back(std::move(s).value());
  }
  auto optional_string = [&](const std::optional<std::uint64_t>& idx, const char* what,
                             std::optional<std::string>& dst) -> std::optional<Problem> {
    if (!idx) return std::nullopt;
    auto s = string_at(*idx, what);
    if (!s) return s.problem();
    dst = std::move(s).value();
    return std::nullopt;
  };
  if (auto p = optional_string(soname, "DT_SONAME", out.soname)) return *p;
  if (auto p = optional_string(rpath, "DT_RPATH", out.rpath)) return *p;
  if (auto p = optional_string(runpath, "DT_RUNPATH", out.runpath)) return *p;
  return out;
}

Result<ElfDynamic> parse_elf_dynamic(std::string_view bytes, const std::string& where) {
  const ElfRangeReader read = [bytes](std::uint64_t off, std::size_t len) -> Result<std::string> {
    if (off >= bytes.size()) return std::string();
    return std::string(bytes.substr(static_cast<std::size_t>(off), len));
  };
  return parse_elf_dynamic(read, where);
}

Result<ElfDynamic> read_elf_dynamic(const Host& host, const std::string& path) {
  const ElfRangeReader read = [&](std::uint64_t off, std::size_t len) { return host.read_range(path, off, len); };
  return parse_elf_dynamic(read, path);
}

}  // namespace gpucheck
