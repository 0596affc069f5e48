// A PCI device's configuration space as sysfs gives it (the `config`
// file): the ACS capability in its extended space.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "facts/link_facts.hpp"

namespace gpucheck {

struct AcsReading {
  AcsRead read = AcsRead::not_shown;
  std::optional<std::uint16_t> control;  // when read == AcsRead::read
};

// Walks the extended capability list from 0x100 (linux/pci_regs.h,
// PCI_EXT_CAP_*) to the ACS capability (id 0x000D) and reads its control
// register (at +6). The kernel gives other users than root the first 64
// bytes: not_shown. 256 bytes is a conventional PCI device: no extended
// space, no ACS. A list that loops or leaves the space ends the walk.
AcsReading read_acs(std::string_view config);

}  // namespace gpucheck
