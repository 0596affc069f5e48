// NVIDIA Xid events in kernel log text: /dev/kmsg records
// ("4,1234,5678901,-;NVRM: Xid (PCI:0000:18:00): 79, pid=...") and dmesg
// lines ("[ 171167.620236] NVRM: Xid (PCI:0009:01:00): 149, ...").
#pragma once
#include <string_view>
#include <vector>
#include "facts/facts.hpp"
namespace gpucheck {
std::vector<XidEvent> parse_xid_events(std::string_view log);
}
