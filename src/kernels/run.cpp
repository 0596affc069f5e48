// The parent side of the kernel checks: list the devices in one child, plan
// each device's steps from the matrix and the PTX targets, run them in a
// watched child per device (a fresh child after a hang, crash or context
// error, for the steps left), and turn the answers into facts.
#include "kernels/run.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "facts/gpu_inventory.hpp"
#include "kernels/catalog.hpp"
#include "matrix/lookup.hpp"
#include "matrix/platform_knowledge.hpp"
#include "matrix/precisions.hpp"
#include "util/pci_address.hpp"
#include "util/version.hpp"
#include "util/json_field.hpp"
#include "util/json_text.hpp"

namespace gpucheck::kernels {
namespace {

using nlohmann::json;

// The matrix names FP8 and FP6 once; both encodings of each run on the same units.
std::string matrix_key(const std::string& precision) { return matrix_precision_of(precision).value_or(precision); }

const ArchPrecisions* find_arch(const Matrix* m, const std::optional<std::string>& cc) {
  return m && cc ? find_arch_precisions(*m, *cc) : nullptr;
}

// The matrix's model of a device: by its PCI id where sysfs gave one, else by name.
const GpuModel* find_model(const Matrix* m, const std::optional<std::string>& name,
                           const std::optional<std::string>& pci_id) {
  if (!m) return nullptr;
  if (pci_id)
    if (const auto* g = find_gpu_by_pci_id(*m, *pci_id)) return g;
  return name ? find_gpu_by_name(*m, *name) : nullptr;
}

// The variants of a precision this device runs, best first: the newest
// target; at one target number the family ("sm_120f", more GPUs run it)
// before the arch-specific one ("sm_120a", older drivers load it). With
// `portable`, only targets every later GPU runs too.
std::vector<const KernelSpec*> variants(const std::string& precision, std::optional<int> cc_or, bool portable) {
  std::vector<const KernelSpec*> out;
  if (!cc_or) return out;  // an unknown compute capability runs nothing
  const int cc = *cc_or;
  for (auto& k : all_kernels()) {
    if (precision != k.precision) continue;
    // "sm_90a" code runs on 9.0 alone; "sm_120f" on the 12.x family from 12.0.
    const TargetKind kind = target_kind(k);
    if (portable && kind != TargetKind::plain) continue;
    const int tn = target_number(k);
    const bool runs = kind == TargetKind::arch_specific ? tn == cc
                      : kind == TargetKind::family      ? tn / 10 == cc / 10 && tn <= cc
                                                        : tn <= cc;
    if (runs) out.push_back(&k);
  }
  const auto rank = [](const KernelSpec* k) {
    const TargetKind kind = target_kind(*k);
    return std::pair{target_number(*k), kind == TargetKind::family ? 2 : kind == TargetKind::arch_specific ? 1 : 0};
  };
  std::stable_sort(out.begin(), out.end(), [&](const KernelSpec* a, const KernelSpec* b) { return rank(a) > rank(b); });
  return out;
}

// The first variant runs; each of the others is what the child loads when
// the driver's JIT refuses the one before it for its PTX ISA version.
const KernelSpec* plan_variants(const std::string& precision, std::optional<int> cc, bool portable, SessionOptions& session) {
  const auto v = variants(precision, cc, portable);
  for (std::size_t i = 0; i + 1 < v.size(); ++i) session.jit_fallback[v[i]->entry] = v[i + 1]->entry;
  return v.empty() ? nullptr : v.front();
}

struct Plan {
  std::vector<std::string> steps;
  std::map<std::string, std::size_t> check_of_step;  // step -> index in gpu.checks
  SessionOptions session;                            // the request's, with this device's sustained kernel
};

// The sustained run's kernel: tensor-core throughput at the best precision the
// device has among bf16 and fp16, else FP32 FMA on the CUDA cores.
void plan_sustained(GpuKernelFacts& gpu, Plan& plan, const KernelRequest& req, std::optional<int> cc, const ArchPrecisions* arch) {
  if (req.session.sustained_s <= 0) return;
  SustainedRun run;
  run.duration_s = req.session.sustained_s;
  for (const char* p : {"bf16", "fp16", "fp32"}) {
    const KernelSpec* k = plan_variants(p, cc, req.portable, plan.session);
    if (!k) continue;
    if (arch && std::find(arch->precisions.begin(), arch->precisions.end(), p) == arch->precisions.end()) continue;
    run.precision = p;
    run.kernel = k->entry;
    break;
  }
  if (!run.kernel) {
    run.status = StepStatus::skipped;
    run.reason = "no bf16, fp16 or fp32 kernel runs on compute capability " + gpu.compute_capability.value_or("?");
  } else {
    run.status = StepStatus::not_run;
    plan.session.sustained_kernel = *run.kernel;
    plan.steps.push_back("sustained");
  }
  gpu.sustained = std::move(run);
}

Plan plan_device(GpuKernelFacts& gpu, const KernelRequest& req) {
  Plan plan;
  plan.session = req.session;
  const auto cc = cc_number(gpu.compute_capability.value_or(""));
  const ArchPrecisions* arch = find_arch(req.matrix, gpu.compute_capability);
  if (arch) gpu.architecture = arch->architecture;
  for (const auto& p : all_precisions()) {
    if (!req.precisions.empty() && std::find(req.precisions.begin(), req.precisions.end(), p) == req.precisions.end())
      continue;
    KernelCheck c;
    c.precision = p;
    const KernelSpec* k = plan_variants(p, cc, req.portable, plan.session);
    const std::string key = matrix_key(p);
    if (arch) {
      c.expected = std::find(arch->precisions.begin(), arch->precisions.end(), key) != arch->precisions.end();
      c.expected_source = "matrix";
    } else {
      c.expected = k != nullptr;
      c.expected_source = "ptx_target";
    }
    if ((key == "fp4" || key == "fp6") && !c.expected) continue;  // only worth a line where the hardware has them
    if (k) {
      c.kernel = k->entry;
      c.instruction = k->instruction;
      c.ptx_target = k->target;
      c.ptx_version = k->isa;
      c.status = StepStatus::not_run;
      plan.check_of_step[k->entry] = gpu.checks.size();
      plan.steps.push_back(k->entry);
    } else if (c.expected) {
      c.status = StepStatus::not_implemented;
      const auto left_out = req.portable ? variants(p, cc, false) : std::vector<const KernelSpec*>{};
      c.reason = left_out.empty() ? "the architecture has " + p + " but gpucheck has no kernel for it yet"
                                  : "--portable leaves out its kernels, whose target (" + left_out.front()->target +
                                        ") not every later GPU runs";
    } else {
      c.status = StepStatus::not_expected;
      c.reason = "compute capability " + gpu.compute_capability.value_or("?") + " has no " + p +
                 " instruction that gpucheck's kernels use";
    }
    gpu.checks.push_back(std::move(c));
  }
  if (req.precisions.empty() || std::find(req.precisions.begin(), req.precisions.end(), "bandwidth") != req.precisions.end())
    plan.steps.push_back("bandwidth");
  plan_sustained(gpu, plan, req, cc, arch);
  return plan;
}

// A child's word for how a step ended; one it should never write counts as failed.
std::optional<StepStatus> child_status(const json& r) {
  auto s = json_field<std::string>(r, "status");
  if (!s) return std::nullopt;
  return step_status_named(*s).value_or(StepStatus::failed);
}

SustainedSample read_sample(const json& j) {
  SustainedSample s;
  s.t_s = json_field<double>(j, "t_s").value_or(0);
  s.tflops = json_field<double>(j, "tflops");
  s.sm_clock_mhz = json_field<int>(j, "sm_clock_mhz");
  s.mem_clock_mhz = json_field<int>(j, "mem_clock_mhz");
  s.temperature_c = json_field<int>(j, "temperature_c");
  s.power_w = json_field<double>(j, "power_w");
  s.throttle_reasons = json_field<std::uint64_t>(j, "throttle_reasons");
  return s;
}

void fill_sustained(SustainedRun& run, const json& r) {
  run.status = child_status(r).value_or(StepStatus::failed);
  if (auto k = json_field<std::string>(r, "kernel")) run.kernel = k;  // a variant the JIT fell back to
  run.jit_fallback = json_field<std::string>(r, "jit_fallback");
  if (auto e = json_field<std::string>(r, "reason")) run.reason = e;
  if (auto e = json_field<std::string>(r, "jit_error")) run.reason = "the kernel did not load: " + *e;
  if (auto e = json_field<std::string>(r, "launch_error")) run.reason = e;
  if (auto t = json_field<std::string>(r, "telemetry")) run.telemetry = t;
}

void fill_check(KernelCheck& c, const json& r) {
  if (auto s = child_status(r)) c.status = *s;
  if (auto s = json_field<std::string>(r, "reason")) c.reason = *s;
  // The variant the JIT fell back to, where it did.
  if (auto s = json_field<std::string>(r, "kernel")) c.kernel = s;
  if (auto s = json_field<std::string>(r, "instruction")) c.instruction = s;
  if (auto s = json_field<std::string>(r, "ptx_target")) c.ptx_target = s;
  if (auto s = json_field<std::string>(r, "ptx_version")) c.ptx_version = s;
  c.jit_fallback = json_field<std::string>(r, "jit_fallback");
  c.jit_ok = json_field<bool>(r, "jit_ok");
  c.jit_code = json_field<int>(r, "jit_code");
  c.jit_error = json_field<std::string>(r, "jit_error");
  c.launch_code = json_field<int>(r, "launch_code");
  c.launch_error = json_field<std::string>(r, "launch_error");
  c.correct = json_field<bool>(r, "correct");
  c.elements_checked = json_field<std::uint64_t>(r, "elements_checked");
  c.elements_wrong = json_field<std::uint64_t>(r, "elements_wrong");
  c.elements_unwritten = json_field<std::uint64_t>(r, "elements_unwritten");
  c.elements_nan = json_field<std::uint64_t>(r, "elements_nan");
  c.max_abs_error = json_field<double>(r, "max_abs_error");
  c.tolerance = json_field<std::string>(r, "tolerance");
  c.first_mismatch = json_field<std::string>(r, "first_mismatch");
  c.tflops = json_field<double>(r, "tflops");
  c.seconds = json_field<double>(r, "seconds");
  c.throughput_unwritten = json_field<std::uint64_t>(r, "throughput_unwritten");
  if (c.status == StepStatus::passed && c.throughput_unwritten.value_or(0) > 0) {
    c.status = StepStatus::failed;
    c.reason = "the timed run left " + std::to_string(*c.throughput_unwritten) + " outputs unwritten or NaN";
  }
}

void fill_bandwidth(GpuKernelFacts& gpu, const json& r, StepStatus fallback_status) {
  if (auto list = r.find("bandwidth"); list != r.end() && list->is_array()) {
    for (auto& b : *list) {
      BandwidthCheck bc;
      bc.kind = json_field<std::string>(b, "kind").value_or("?");
      bc.status = child_status(b).value_or(StepStatus::failed);
      bc.reason = json_field<std::string>(b, "reason");
      bc.bytes = json_field<std::uint64_t>(b, "bytes");
      bc.gbs = json_field<double>(b, "gbs");
      bc.correct = json_field<bool>(b, "correct");
      gpu.bandwidth.push_back(std::move(bc));
    }
    return;
  }
  BandwidthCheck bc;
  bc.kind = "device_copy";
  bc.status = child_status(r).value_or(fallback_status);
  if (auto e = json_field<std::string>(r, "launch_error")) bc.reason = e;
  if (auto e = json_field<std::string>(r, "jit_error")) bc.reason = "the copy kernel did not load: " + *e;
  if (auto e = json_field<std::string>(r, "reason")) bc.reason = e;
  gpu.bandwidth.push_back(std::move(bc));
}

// What a step that got no answer becomes: its status and reason.
void fail_step(GpuKernelFacts& gpu, const Plan& plan, const std::string& step, StepStatus status,
               const std::string& reason) {
  if (step == "sustained") {
    if (gpu.sustained) {
      gpu.sustained->status = status;
      gpu.sustained->reason = reason;
    }
    return;
  }
  if (step == "bandwidth") {
    fill_bandwidth(gpu, json{{"reason", reason}}, status);
    return;
  }
  auto it = plan.check_of_step.find(step);
  if (it == plan.check_of_step.end()) return;
  auto& c = gpu.checks[it->second];
  c.status = status;
  c.reason = reason;
}

void run_device(GpuKernelFacts& gpu, const KernelRequest& req, std::chrono::steady_clock::time_point end, KernelProgress progress) {
  const Plan plan = plan_device(gpu, req);
  std::chrono::steady_clock::time_point sustained_start{};
  const auto report = [&](const std::string& step) {
    if (!req.progress) return;
    // A precision's kernel entry ("gpucheck_fma_f32") is shown as its precision.
    const auto check = plan.check_of_step.find(step);
    progress.step = check == plan.check_of_step.end() ? step : gpu.checks[check->second].precision;
    progress.seconds_left.reset();
    if (step == "sustained") {
      const std::chrono::duration<double> spent = std::chrono::steady_clock::now() - sustained_start;
      progress.seconds_left = std::max(0.0, req.session.sustained_s - spent.count());
    }
    req.progress(progress);
  };
  std::vector<std::string> remaining = plan.steps;
  const int ordinal = gpu.ordinal.value_or(0);
  while (!remaining.empty()) {
    std::string current;
    std::optional<std::string> fatal;
    bool context_lost = false;  // the child stopped after a context error, by design
    const auto left = std::chrono::duration_cast<Millis>(end - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      for (auto& s : remaining) fail_step(gpu, plan, s, StepStatus::skipped, "the run's deadline passed before this step");
      return;
    }
    const ChildEnd how = run_streaming_child(
        [&](const LineSender& sink) { session_run(req.libcuda, ordinal, remaining, plan.session, sink); },
        [&](const std::string& line) -> Millis {
          json j = json::parse(line, nullptr, false);
          if (j.is_discarded()) return req.step_timeout;
          if (auto s = json_field<std::string>(j, "start")) {
            current = *s;
            if (current == "sustained") sustained_start = std::chrono::steady_clock::now();
            report(current);
          } else if (auto step = json_field<std::string>(j, "step")) {
            const json& r = j["result"];
            if (*step == "bandwidth") fill_bandwidth(gpu, r, StepStatus::failed);
            else if (*step == "sustained" && gpu.sustained) fill_sustained(*gpu.sustained, r);
            else if (auto it = plan.check_of_step.find(*step); it != plan.check_of_step.end()) fill_check(gpu.checks[it->second], r);
            remaining.erase(std::remove(remaining.begin(), remaining.end(), *step), remaining.end());
            current.clear();
            context_lost = r.value("context_error", false);
          } else if (auto sample = j.find("sample"); sample != j.end() && sample->is_object() && gpu.sustained) {
            gpu.sustained->samples.push_back(read_sample(*sample));
            report("sustained");
          } else if (auto t = json_field<std::string>(j, "telemetry"); t && gpu.sustained) {
            gpu.sustained->telemetry = t;
          } else if (j.contains("fatal")) {
            fatal = dump_json(j["fatal"]);
          } else if (auto e = json_field<std::string>(j, "child_exception")) {
            fatal = *e;
          }
          return req.step_timeout;
        },
        req.first_line, left);
    if (remaining.empty()) break;
    if (fatal) {
      gpu.status = GpuRunStatus::failed;
      gpu.reason = "the device could not be used: " + *fatal;
      for (auto& s : remaining) fail_step(gpu, plan, s, StepStatus::skipped, "the device could not be used");
      return;
    }
    if (current.empty() && context_lost) {
      ++gpu.child_restarts;
      continue;
    }
    if (current.empty()) {
      // Died between steps or before the first: nothing to blame, so stop.
      gpu.status = GpuRunStatus::failed;
      gpu.reason = "the check process ended before a step began: " + how.detail;
      for (auto& s : remaining) fail_step(gpu, plan, s, StepStatus::skipped, "the check process ended: " + how.detail);
      return;
    }
    const StepStatus status = how.how == ChildEnd::How::timed_out ? StepStatus::timed_out
                              : how.how == ChildEnd::How::signaled ? StepStatus::crashed
                                                                   : StepStatus::context_error;
    fail_step(gpu, plan, current, status, how.detail);
    remaining.erase(std::remove(remaining.begin(), remaining.end(), current), remaining.end());
    if (!remaining.empty()) ++gpu.child_restarts;
  }
}

void add_expectations(GpuKernelFacts& gpu, const KernelRequest& req) {
  const GpuModel* model = find_model(req.matrix, gpu.name,
                                     gpu.pci_bus_id && req.pci_ids.count(*gpu.pci_bus_id)
                                         ? std::optional<std::string>(req.pci_ids.at(*gpu.pci_bus_id))
                                         : std::nullopt);
  if (model) {
    gpu.model = model->id;
    if (!gpu.architecture) gpu.architecture = model->architecture;
    for (auto& c : gpu.checks) {
      auto it = model->tflops.find(matrix_key(c.precision));
      if (it == model->tflops.end() || it->second <= 0) continue;
      c.datasheet_tflops = it->second;
      if (c.tflops) c.ratio = *c.tflops / it->second;
    }
  }
  for (auto& b : gpu.bandwidth) {
    if (b.kind == "device_copy" && model && model->bandwidth_gbs) {
      b.expected_gbs = model->bandwidth_gbs;
      b.expected_source = "matrix";
    } else if (b.kind != "device_copy" && gpu.pci_bus_id && req.pcie.count(*gpu.pci_bus_id)) {
      const auto& l = req.pcie.at(*gpu.pci_bus_id);
      // The link's capability, not its idle state: GPUs drop to a lower
      // generation when idle and train up under load.
      if (l.max_gen && l.max_width)
        if (auto g = pcie_gbs(*l.max_gen, *l.max_width)) {
          b.expected_gbs = g;
          b.expected_source = "pcie gen" + std::to_string(*l.max_gen) + " x" + std::to_string(*l.max_width);
        }
    }
    if (b.gbs && b.expected_gbs && *b.expected_gbs > 0) b.ratio = *b.gbs / *b.expected_gbs;
  }
}

}  // namespace

const std::vector<std::string>& all_precisions() { return checked_precisions(); }

// Rates and encodings per generation: matrix/pcie.json. A generation whose
// encoding's payload share is unconfirmed there (6 and 7: PAM4 with Flit
// framing) has no expectation.
std::optional<double> pcie_gbs(int gen, int width) {
  const auto lane = pcie_lane_gbits(gen);
  if (!lane || width <= 0) return std::nullopt;
  return *lane * width / 8;
}

KernelFacts run_kernel_checks(const KernelRequest& req) {
  KernelFacts f;
  f.cuda_visible_devices = req.cuda_visible_devices;
  if (req.matrix) f.matrix_version = req.matrix->version;
  auto end = std::chrono::steady_clock::now() + req.overall;
  for (auto& [bus, name] : req.amd_gpus) {
    GpuKernelFacts g;
    g.vendor = PciVendor::amd;
    g.pci_bus_id = bus;
    g.name = name;
    g.status = GpuRunStatus::waived;
    g.reason = "kernel checks are not available for AMD GPUs yet: gpucheck's kernels are PTX for the CUDA driver; "
               "HIP code objects for ROCm are not written";
    f.gpus.push_back(std::move(g));
  }
  if (req.libcuda.empty()) {
    if (f.gpus.empty()) f.error = "no libcuda.so.1 to load: the NVIDIA userspace driver is not installed";
    return f;
  }
  json listing;
  std::string line_seen;
  const ChildEnd how = run_streaming_child(
      [&](const LineSender& sink) { session_enumerate(req.libcuda, sink); },
      [&](const std::string& line) {
        line_seen = line;
        return req.first_line;
      },
      req.first_line, req.overall);
  listing = json::parse(line_seen, nullptr, false);
  if (line_seen.empty() || listing.is_discarded()) {
    f.error = "listing the CUDA devices failed: " + how.detail;
    return f;
  }
  f.library = json_field<std::string>(listing, "library");
  if (auto v = json_field<long long>(listing, "driver_version"))
    if (auto cuda = Version::from_cuda_int(*v)) f.driver_version = cuda->text();
  if (auto e = json_field<std::string>(listing, "load_error")) {
    f.error = "dlopen failed: " + *e;
    return f;
  }
  if (auto m = json_field<std::string>(listing, "missing_symbols")) {
    f.error = "the driver lacks entry points the checks need: " + *m;
    return f;
  }
  if (auto code = json_field<int>(listing, "init_code"); code && *code != 0) {
    f.error = "cuInit returned " + std::to_string(*code) + " (" + json_field<std::string>(listing, "init_name").value_or("?") + ")";
    return f;
  }
  if (auto e = json_field<std::string>(listing, "count_error")) {
    f.error = "cuDeviceGetCount failed: " + *e;
    return f;
  }
  std::vector<GpuKernelFacts> nvidia;
  const json devices = listing.value("devices", json::array());
  // The sustained step lasts its duration on each device, on top of the
  // ordinary deadline; its samples keep the per-line watchdog fed.
  if (req.session.sustained_s > 0)
    end += std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        std::chrono::duration<double>(req.session.sustained_s * static_cast<double>(devices.size())));
  for (auto& d : devices) {
    const KernelProgress progress{nvidia.size() + 1, devices.size(), json_field<std::string>(d, "name").value_or("GPU"), {}, {}};
    GpuKernelFacts g;
    g.vendor = PciVendor::nvidia;
    g.ordinal = json_field<int>(d, "ordinal");
    g.name = json_field<std::string>(d, "name");
    g.uuid = json_field<std::string>(d, "uuid");
    g.compute_capability = json_field<std::string>(d, "compute_capability");
    g.sm_count = json_field<int>(d, "sm_count");
    if (auto b = json_field<std::string>(d, "pci_bus_id")) g.pci_bus_id = normalize_pci_bus_id(*b);
    g.mig = g.name && g.name->find(" MIG ") != std::string::npos;
    g.status = GpuRunStatus::ran;
    if (auto e = json_field<std::string>(d, "error")) {
      g.status = GpuRunStatus::failed;
      g.reason = "cuDeviceGet failed: " + *e;
    } else {
      run_device(g, req, end, progress);
      add_expectations(g, req);
    }
    nvidia.push_back(std::move(g));
  }
  if (req.precisions.empty() || std::find(req.precisions.begin(), req.precisions.end(), "p2p") != req.precisions.end())
    f.peer_copies = run_peer_copies(req, nvidia, end);
  f.gpus.insert(f.gpus.begin(), nvidia.begin(), nvidia.end());
  if (f.gpus.empty()) f.error = "the CUDA driver sees no device (CUDA_VISIBLE_DEVICES may hide them)";
  return f;
}

// A step the deadline never reached (skipped) is unknown, not failed, as
// everywhere in gpucheck; a run in which no expected check reached a verdict
// could not run at all.
int kernels_exit_code(const KernelFacts& f) {
  if (f.error || f.gpus.empty()) return 2;
  bool any_failed = false, any_expected = false, any_judged = false;
  for (auto& g : f.gpus) {
    if (g.status == GpuRunStatus::waived) continue;
    if (g.status == GpuRunStatus::failed) any_failed = true;
    for (auto& c : g.checks) {
      any_expected = any_expected || (c.expected && c.status != StepStatus::not_implemented);
      if (!judged(c)) continue;
      any_judged = true;
      if (c.status != StepStatus::passed) any_failed = true;
    }
    for (auto& b : g.bandwidth)
      if (b.status != StepStatus::passed && b.status != StepStatus::skipped) any_failed = true;
    // A sustained run that hung, crashed or could not launch failed; its
    // rates and clocks are reported, not judged.
    if (g.sustained && g.sustained->status != StepStatus::ran && g.sustained->status != StepStatus::skipped) any_failed = true;
  }
  for (auto& p : f.peer_copies)
    if (p.status != StepStatus::passed && p.status != StepStatus::skipped) any_failed = true;
  if (any_failed) return 1;
  return any_expected && !any_judged ? 2 : 0;
}

KernelRequest request_for(const Facts& facts, const Matrix* matrix) {
  KernelRequest req;
  req.matrix = matrix;
  if (facts.nvidia_driver.libcuda.path) {
    req.libcuda = {*facts.nvidia_driver.libcuda.path, "libcuda.so.1"};
    // The driver installs NVML beside libcuda; the soname search is the fallback.
    const std::string& p = *facts.nvidia_driver.libcuda.path;
    if (const auto slash = p.rfind('/'); slash != std::string::npos)
      req.session.nvml = {p.substr(0, slash + 1) + "libnvidia-ml.so.1", "libnvidia-ml.so.1"};
  }
  for (auto& g : gpu_inventory(facts)) {
    const PciDevice* d = g.pci;
    if (!d) continue;
    if (d->vendor == PciVendor::amd) req.amd_gpus.emplace_back(d->address, d->name.value_or("AMD GPU"));
    if (d->vendor != PciVendor::nvidia) continue;
    // Keyed as the child's devices are (normalised bus ids).
    req.pcie[g.key] = PcieLinkInfo{d->link.current_gen, d->link.current_width, d->link.max_gen, d->link.max_width};
    req.pci_ids[g.key] = d->vendor_id + ":" + d->device_id;
  }
  req.peer_links = peer_links(facts, matrix);
  // As the probes read it (the host layer), so a snapshot's environment counts, not this process's.
  if (auto v = facts.software.gpu_env.find("CUDA_VISIBLE_DEVICES"); v != facts.software.gpu_env.end())
    req.cuda_visible_devices = v->second;
  return req;
}

}  // namespace gpucheck::kernels
