// Where a PCI device sits: its sysfs directory is a link into
// /sys/devices/pciDDDD:BB/<root port>/<switch ports>…/<device>, so the
// link's target names every bridge above it. Shared by the topology probe
// (GPUs, NVSwitches) and the network probe (NICs).
#pragma once

#include <map>
#include <string>

#include "probe.hpp"

namespace gpucheck {

// Reads the path of the device whose sysfs directory is `device_dir`
// ("/sys/bus/pci/devices/0000:18:00.0" or "/sys/class/infiniband/mlx5_0/device"):
// each bridge's link and ACS, the IOMMU group and its type, the local CPUs.
// A bridge's unreadable ACS is a note of `subject`; a device directory
// that is not a link into /sys/devices/pci… gives a path without a host
// bridge (the caller names those in one note).
// `seen` holds the bridges already read (by address): each is read once
// however many devices sit below it.
using BridgeCache = std::map<std::string, PciBridge>;
PciPath read_pci_path(ProbeContext& ctx, const std::string& subject, const std::string& device_dir, BridgeCache& seen);

// A sysfs attribute's text, trimmed; none when it cannot be read, is empty,
// or is not text (read to 4 KiB: an attribute is one line).
std::optional<std::string> sysfs_attribute(const Host& h, const std::string& path);

// A device's or bridge's link from its sysfs directory's *_link_* files.
PciLink read_link_attributes(const Host& h, const std::string& dir);

// The device's own address from its resolved directory: the last component
// that is a PCI address ("0000:18:00.0"); none when the path has none.
std::optional<std::string> pci_address_of(ProbeContext& ctx, const std::string& device_dir);

}  // namespace gpucheck
