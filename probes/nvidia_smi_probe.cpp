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
  // A snapshot built by hand may hold the text form instead: whatever it
  // recorded (an answer, a hang, a failure) is nvidia-smi's answer.
  if (!run && run.problem().reason == Reason::not_recorded) {
    auto alt = ctx.host().run(Command{"nvidia-smi", {"-q"}, xml.timeout});
    if (alt || alt.problem().reason != Reason::not_recorded) {
      run = std::move(alt);
      is_xml = false;
    }
  }
  const std::string key = is_xml ? xml.key() : "nvidia-smi -q";
  // What nvidia-smi did not tell, NVML may: the note stays, and the gate
  // counts the facts unread only when neither answered.
  const auto fall_back = [&](Problem p) {
    const bool skipped = p.reason == Reason::skipped;
    ctx.note("nvidia_smi", key, std::move(p));
    if (!skipped) health_from_nvml(ctx);
  };
  if (!run) {
    auto p = run.problem();
    if (p.reason == Reason::absent) p.detail = "nvidia-smi is not installed (" + p.detail + ")";
    return fall_back(p);
  }
  const auto& r = *run;
  // The time it ran, measured: the question asked again now would carry
  // what is left of the run's deadline (0 ms after a hung cuInit spent it).
  if (r.timed_out)
    return fall_back(Problem{Reason::timed_out, r.resolved,
                             "killed after " + std::to_string((r.elapsed.count() > 0 ? r.elapsed : xml.timeout).count()) + " ms"});
  if (!r.succeeded()) {
    // nvidia-smi prints its reason on stdout ("NVIDIA-SMI has failed because …").
    std::string why = first_line(r.out);
    if (why.empty()) why = first_line(r.err);
    return fall_back(Problem{Reason::failed, r.resolved, r.status_text() + (why.empty() ? "" : ": " + why)});
  }
  auto parsed = is_xml ? parse_nvsmi_xml(r.out) : parse_nvsmi_text(r.out);
  if (!parsed) return fall_back(Problem{Reason::malformed, r.resolved.empty() ? key : r.resolved, parsed.problem().detail});
  parsed.value().source = r.resolved.empty() ? key : r.resolved + (is_xml ? " -q -x" : " -q");
  ctx.facts().nvidia_smi = std::move(parsed).value();
}

}  // namespace gpucheck
