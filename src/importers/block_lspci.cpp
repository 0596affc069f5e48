// `lspci` in three shapes. The device list ("01:00.0 VGA compatible
// controller: NVIDIA Corporation GA102 [GeForce RTX 3090] (rev a1)"): the
// GPUs are said in the block's note, not made PCI facts, since the list does
// not say which driver is bound and a PCI GPU fact without one reads as "no
// driver bound". `lspci -v`/`-vvv` with its detail lines: the GPUs and
// NVSwitches become PCI facts with the bridges above them, their links and
// ACS (lspci_tree.cpp), so the topology rules judge a paste as a host.
// `lspci -vvv | grep ACSCtl`: ACS words without the devices they belong to,
// counted in the note and not judged.
#include "facts/pci_vocabulary.hpp"
#include "importers/block_readers.hpp"
#include "importers/block_util.hpp"
#include "importers/lspci_tree.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

bool device_line(std::string_view t) {
  const auto at = lspci_address_end(t);
  return at != 0 && t.find(": ", at) != std::string_view::npos;
}

bool gpu_line(std::string_view t) {
  if (!device_line(t)) return false;
  const auto desc = t.substr(lspci_address_end(t));
  const auto colon = desc.find(": ");
  return lspci_gpu(desc.substr(0, colon), desc.substr(colon + 2));
}

bool indented(const PasteText& p, std::size_t i) {
  return !p.lines[i].empty() && (p.lines[i].front() == '\t' || p.lines[i].front() == ' ');
}

bool acs_line(std::string_view t) { return starts_with(t, "ACSCtl:") || starts_with(t, "ACSCap:"); }

Opens opens(const PasteText& p, std::size_t i) {
  const auto t = p.trimmed(i);
  if (gpu_line(t) || acs_line(t)) return Opens::maybe;
  // Any device with -v's detail lines below it: -vvv starts at the host bridge.
  return device_line(t) && i + 1 < p.lines.size() && indented(p, i + 1) && p.trimmed(i + 1).find(':') != std::string_view::npos
             ? Opens::maybe
             : Opens::no;
}

bool continues(const PasteText& p, std::size_t, std::size_t i) {
  const auto t = p.trimmed(i);
  // -v separates devices by a blank line.
  if (t.empty()) return i + 1 < p.lines.size() && device_line(p.trimmed(i + 1));
  return device_line(t) || indented(p, i) || acs_line(t);
}

// The grep's ACSCtl lines: how many, and how many redirect peer traffic.
std::optional<std::string> acs_only_note(const PasteText& p, std::size_t first, std::size_t last, BlockFacts& out) {
  std::size_t lines = 0, redirect = 0;
  for (std::size_t k = first; k <= last; ++k) {
    const auto t = p.trimmed(k);
    if (!starts_with(t, "ACSCtl:")) continue;
    const auto control = acs_control_of(t.substr(7));
    if (!control) {
      out.unread.push_back(k);
      continue;
    }
    ++lines;
    if (acs_redirects_p2p(*control)) ++redirect;
  }
  if (!lines) return std::nullopt;
  return std::to_string(lines) + " ACSCtl lines, " + std::to_string(redirect) +
         " redirecting peer-to-peer traffic (ReqRedir+, CmpltRedir+ or EgressCtrl+); without the devices they belong to "
         "they are not judged (paste the whole `sudo lspci -vvv`)";
}

void read(const PasteText& p, std::size_t first, std::size_t last, BlockFacts& out) {
  std::vector<std::string> gpus;
  for (std::size_t k = first; k <= last; ++k) {
    const auto t = p.trimmed(k);
    if (!gpu_line(t)) continue;
    const auto at = lspci_address_end(t);
    const auto desc = t.substr(t.find(": ", at) + 2);
    gpus.push_back(std::string(t.substr(0, at - 1)) + " " + std::string(desc));
  }
  auto tree = read_lspci_tree(p, first, last);
  if (tree.verbose) out.kind = "lspci -v";
  if (!tree.verbose && !gpus.empty()) {
    out.note = "GPUs on the PCI bus: " + join(gpus, "; ");
    return;
  }
  if (gpus.empty() && tree.devices.empty() && tree.nics.empty()) {
    out.note = tree.listed ? std::to_string(tree.listed) + " devices, none a GPU or a Mellanox NIC"
                           : acs_only_note(p, first, last, out);
    return;
  }
  std::size_t gpu_facts = 0;
  for (auto& d : tree.devices) gpu_facts += d.kind == PciKind::gpu;
  std::string note = std::to_string(gpu_facts) + " of " + std::to_string(gpus.size()) + " GPUs and " +
                     std::to_string(tree.nics.size()) + " Mellanox NICs read with the " + std::to_string(tree.bridges) +
                     " bridges above them";
  if (gpu_facts < gpus.size()) note += "; a GPU without -k's \"Kernel driver in use\" or \"Kernel modules\" line is not read";
  if (tree.bridges && tree.acs_read < tree.bridges)
    note += "; " + std::to_string(tree.bridges - tree.acs_read) +
            " bridges without their extended capabilities (lspci as root shows them): their ACS is unknown";
  out.note = note;
  for (auto& d : tree.devices) out.facts.pci.push_back(std::move(d));
  for (auto& n : tree.nics) out.facts.network.ib.push_back(std::move(n));
}

}  // namespace

BlockReader lspci_reader() { return {"lspci", opens, continues, read}; }

}  // namespace gpucheck
