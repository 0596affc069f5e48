// The parent side of the peer copies: one child for all pairs (a copy needs
// both devices in one process), a fresh one for the pairs left after a
// hang, crash or context error, and each answer joined with what the link
// between the two should carry.
#include <algorithm>
#include <nlohmann/json.hpp>

#include "kernels/run.hpp"
#include "util/json_field.hpp"
#include "util/json_text.hpp"
#include "util/pci_address.hpp"

namespace gpucheck::kernels {
namespace {

using nlohmann::json;

void fill(PeerCopy& p, const json& r) {
  p.status = step_status_named(json_field<std::string>(r, "status").value_or("failed")).value_or(StepStatus::failed);
  p.reason = json_field<std::string>(r, "reason");
  if (auto e = json_field<std::string>(r, "launch_error")) p.reason = e;
  p.can_access = json_field<bool>(r, "can_access");
  p.bytes = json_field<std::uint64_t>(r, "bytes");
  p.words_checked = json_field<std::uint64_t>(r, "words_checked");
  p.words_wrong = json_field<std::uint64_t>(r, "words_wrong");
  p.correct = json_field<bool>(r, "correct");
  p.gbs = json_field<double>(r, "gbs");
}

void add_expectation(PeerCopy& p, const KernelRequest& req) {
  if (!p.src_bus || !p.dst_bus) return;
  const auto it = req.peer_links.find({*p.src_bus, *p.dst_bus});
  if (it == req.peer_links.end()) return;
  p.link = it->second.link;
  p.expected_gbs = it->second.gbs;
  p.expected_source = it->second.source;
  if (p.status == StepStatus::passed && p.gbs && p.expected_gbs && *p.expected_gbs > 0) p.ratio = *p.gbs / *p.expected_gbs;
}

}  // namespace

std::vector<PeerCopy> run_peer_copies(const KernelRequest& req, const std::vector<GpuKernelFacts>& gpus,
                                      std::chrono::steady_clock::time_point end) {
  std::vector<const GpuKernelFacts*> whole;
  for (auto& g : gpus)
    if (g.vendor == PciVendor::nvidia && g.status == GpuRunStatus::ran && !g.mig && g.ordinal) whole.push_back(&g);
  std::vector<PeerCopy> copies;
  if (whole.size() < 2 || whole.size() > kMaxPeerGpus) return copies;
  std::map<std::string, std::size_t> of_step;
  std::vector<PeerPair> remaining;
  for (auto* a : whole)
    for (auto* b : whole) {
      if (a == b) continue;
      PeerCopy p;
      p.src_ordinal = *a->ordinal;
      p.dst_ordinal = *b->ordinal;
      if (a->pci_bus_id) p.src_bus = normalize_pci_bus_id(*a->pci_bus_id);
      if (b->pci_bus_id) p.dst_bus = normalize_pci_bus_id(*b->pci_bus_id);
      remaining.push_back({p.src_ordinal, p.dst_ordinal});
      of_step[peer_step(remaining.back())] = copies.size();
      copies.push_back(std::move(p));
    }
  const auto mark = [&](const std::string& step, StepStatus s, const std::string& why) {
    auto& p = copies[of_step.at(step)];
    p.status = s;
    p.reason = why;
  };
  const auto drop = [&](const std::string& step) {
    remaining.erase(std::remove_if(remaining.begin(), remaining.end(), [&](const PeerPair& p) { return peer_step(p) == step; }),
                    remaining.end());
  };
  while (!remaining.empty()) {
    const auto left = std::chrono::duration_cast<Millis>(end - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      for (auto& p : remaining) mark(peer_step(p), StepStatus::skipped, "the run's deadline passed before this copy");
      break;
    }
    std::string current;
    std::optional<std::string> fatal;
    bool context_lost = false;
    const ChildEnd how = run_streaming_child(
        [&](const LineSender& sink) { session_peer_copies(req.libcuda, remaining, req.session, sink); },
        [&](const std::string& line) -> Millis {
          const json j = json::parse(line, nullptr, false);
          if (j.is_discarded()) return req.step_timeout;
          if (auto s = json_field<std::string>(j, "start"); s && of_step.count(*s)) {
            current = *s;
          } else if (auto step = json_field<std::string>(j, "step"); step && of_step.count(*step) && j.contains("result")) {
            fill(copies[of_step.at(*step)], j["result"]);
            context_lost = j["result"].value("context_error", false);
            drop(*step);
            current.clear();
          } else if (j.contains("fatal")) {
            fatal = dump_json(j["fatal"]);
          }
          return req.step_timeout;
        },
        req.first_line, left);
    if (remaining.empty()) break;
    if (fatal || (current.empty() && !context_lost)) {
      // Nothing to blame on one pair: the devices could not be opened, or the child ended between copies.
      const std::string why = fatal ? "the devices could not be used: " + *fatal : "the copy process ended: " + how.detail;
      for (auto& p : remaining) mark(peer_step(p), StepStatus::skipped, why);
      break;
    }
    if (current.empty()) continue;  // a context error, reported: the pairs left run in a fresh child
    mark(current, how.how == ChildEnd::How::timed_out ? StepStatus::timed_out
                  : how.how == ChildEnd::How::signaled ? StepStatus::crashed
                                                       : StepStatus::context_error,
         how.detail);
    drop(current);
  }
  for (auto& p : copies) add_expectation(p, req);
  return copies;
}

}  // namespace gpucheck::kernels
