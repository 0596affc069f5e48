#include "parse/pci_config.hpp"

namespace gpucheck {

namespace {

constexpr std::size_t kConventional = 256, kExtended = 4096;
constexpr std::uint32_t kAcsId = 0x000D;  // PCI_EXT_CAP_ID_ACS
constexpr std::size_t kAcsControl = 6;    // PCI_ACS_CTRL

std::uint32_t le(std::string_view b, std::size_t at, std::size_t bytes) {
  std::uint32_t v = 0;
  for (std::size_t i = 0; i < bytes; ++i) v |= static_cast<std::uint32_t>(static_cast<unsigned char>(b[at + i])) << (8 * i);
  return v;
}

}  // namespace

AcsReading read_acs(std::string_view config) {
  if (config.size() < kConventional) return {AcsRead::not_shown, std::nullopt};
  if (config.size() < kExtended) return {AcsRead::no_acs, std::nullopt};
  std::size_t at = kConventional;
  // Each capability is at least 4 bytes and at a distinct offset: a list
  // longer than this loops.
  for (std::size_t step = 0; step < (kExtended - kConventional) / 4; ++step) {
    const std::uint32_t header = le(config, at, 4);
    if (header == 0 || header == 0xffffffffu) break;
    if ((header & 0xffffu) == kAcsId) {
      if (at + kAcsControl + 2 > kExtended) break;
      return {AcsRead::read, static_cast<std::uint16_t>(le(config, at + kAcsControl, 2))};
    }
    const std::size_t next = (header >> 20) & 0xffcu;  // PCI_EXT_CAP_NEXT
    if (next < kConventional || next + 4 > kExtended) break;
    at = next;
  }
  return {AcsRead::no_acs, std::nullopt};
}

}  // namespace gpucheck
