// nvidia-smi's full query: per-GPU state that no file shows (ECC, clocks and
// their event reasons, power, fabric state). XML on a live host; a snapshot
// built by hand from a user's `nvidia-smi -q` text is read as well.
#include "parse/nvsmi.hpp"
#include "probe.hpp"
#include "util/strings.hpp"

namespace gpucheck {
namespace {

std::string first_line(const std::string& s) {
  auto lines = split_lines(s);
  for (auto l : lines)
    if (!trim(l).empty()) return std::string(trim(l));
  return {};
}

Command xml_question(ProbeContext& ctx) {
  return Command{"nvidia-smi", {"-q", "-x"}, ctx.deadline().cap(ctx.options().command_timeout)};
}

}  // namespace

// nvidia-smi -q -x takes hundreds of milliseconds or more (longer on a
// many-GPU node): it runs while the other probes read files.
void start_nvidia_smi(ProbeContext& ctx) { ctx.start(xml_question(ctx)); }

void probe_nvidia_smi(ProbeContext& ctx) {
  const Command xml = xml_question(ctx);
  auto run = ctx.run(xml);
  bool is_xml = true;
  if (!run && run.problem().reason == Reason::not_recorded) {
    Command text{"nvidia-smi", {"-q"}, xml.timeout};
    if (auto alt = ctx.host().run(text)) {
      run = alt;
      is_xml = false;
    }
  }
  if (!run) {
    auto p = run.problem();
    if (p.reason == Reason::absent) p.detail = "nvidia-smi is not installed (" + p.detail + ")";
    ctx.note("nvidia_smi", "nvidia-smi -q -x", p);
    return;
  }
  const auto& r = *run;
  const std::string key = is_xml ? xml.key() : "nvidia-smi -q";
  if (r.timed_out) {
    ctx.note("nvidia_smi", key, Problem{Reason::timed_out, r.resolved, "killed after " + std::to_string(xml.timeout.count()) + " ms"});
    return;
  }
  if (r.exit_code != 0) {
    // nvidia-smi prints its reason on stdout ("NVIDIA-SMI has failed because …").
    std::string why = first_line(r.out);
    if (why.empty()) why = first_line(r.err);
    const std::string status = r.signal ? "killed by signal " + std::to_string(r.signal) : "exit code " + std::to_string(r.exit_code);
    ctx.note("nvidia_smi", key, Problem{Reason::failed, r.resolved, status + (why.empty() ? "" : ": " + why)});
    return;
  }
  auto parsed = is_xml ? parse_nvsmi_xml(r.out) : parse_nvsmi_text(r.out);
  if (!parsed) {
    ctx.note("nvidia_smi", key, Problem{Reason::malformed, r.resolved.empty() ? key : r.resolved, parsed.problem().detail});
    return;
  }
  parsed.value().source = r.resolved.empty() ? key : r.resolved + (is_xml ? " -q -x" : " -q");
  ctx.facts().nvidia_smi = std::move(parsed).value();
}

}  // namespace gpucheck
