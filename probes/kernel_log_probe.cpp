// NVIDIA Xid events since boot, from the kernel's log. Unprivileged users
// are often refused (kernel.dmesg_restrict): that is a note, not an error.
#include "parse/kernel_log.hpp"
#include "probe.hpp"

namespace gpucheck {

void probe_kernel_log(ProbeContext& ctx) {
  auto& k = ctx.facts().kernel_log;
  k.source = "/dev/kmsg";
  auto log = ctx.host().read_file("/dev/kmsg", 16u << 20);
  if (!log) {
    auto p = log.problem();
    if (p.reason == Reason::permission_denied) p.detail += " (kernel.dmesg_restrict; run as root to see Xid events)";
    ctx.note("kernel_log", "NVIDIA Xid events", p);
    return;
  }
  k.read = true;
  k.xid_events = parse_xid_events(*log);
}

}  // namespace gpucheck
