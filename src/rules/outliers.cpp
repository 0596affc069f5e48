#include "rules/outliers.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <optional>
#include <string>

namespace gpucheck {
namespace {

// Fewer than three of a model have no majority to stand off from.
constexpr std::size_t kMinSiblings = 3;

struct Sample {
  std::string address, model;
  std::optional<double> value;
};

// How far off is off, per quantity. The margins are gpucheck's own choice
// (docs/check-output.md): wide enough that idle siblings never trip them,
// narrow enough for a capped, hot or mis-seated GPU.
struct Quantity {
  const char* id;      // rule suffix and evidence fact
  const char* what;    // in words
  const char* unit;
  enum class Off { relative, below_relative, above, below, above_absolute } off;
  double margin;       // relative, below_relative: fraction of the median; above, above_absolute: units
  const char* fix;
  std::optional<double> (*read)(const SmiGpu&) = nullptr;  // nvidia-smi's value for one GPU
};

template <class T>
std::optional<double> as_double(const std::optional<T>& v) {
  if (!v) return std::nullopt;
  return static_cast<double>(*v);
}

const Quantity kSmi[] = {
    {"power_limit", "power limit", "W", Quantity::Off::relative, 0.10,
     "Check nvidia-smi -q -d POWER on that GPU: a power cap set by hand or by a management tool (nvidia-smi -pl) slows it below its siblings",
     [](const SmiGpu& g) { return as_double(g.power_limit_w); }},
    {"max_sm_clock", "maximum SM clock", "MHz", Quantity::Off::relative, 0.05,
     "A lower maximum clock than its siblings points at a different board or firmware (VBIOS): compare nvidia-smi -q on both",
     [](const SmiGpu& g) { return as_double(g.clock_sm_max_mhz); }},
    {"max_memory_clock", "maximum memory clock", "MHz", Quantity::Off::relative, 0.05,
     "A lower maximum memory clock than its siblings points at a different board or firmware (VBIOS): compare nvidia-smi -q on both",
     [](const SmiGpu& g) { return as_double(g.clock_mem_max_mhz); }},
    {"temperature", "temperature", "C", Quantity::Off::above_absolute, 15,
     "Check that GPU's cooling (fans, airflow, heatsink seating); a hot GPU throttles and slows every collective it is part of",
     [](const SmiGpu& g) { return as_double(g.temperature_c); }},
    {"pcie_max_gen", "PCIe link generation (maximum)", "", Quantity::Off::below, 0,
     "The slot or riser limits that GPU's link: reseat it, or check the slot's generation in the BIOS",
     [](const SmiGpu& g) { return as_double(g.pcie_gen_max); }},
    {"pcie_width", "PCIe link width", "lanes", Quantity::Off::below, 0,
     "Fewer lanes than its siblings: reseat the GPU or its riser; a degraded link slows host transfers and NCCL over PCIe",
     [](const SmiGpu& g) { return as_double(g.pcie_width_current); }},
    {"memory", "memory size", "MiB", Quantity::Off::relative, 0.01,
     "Less memory than its siblings: a different SKU, or memory retired by the driver; check nvidia-smi -q -d MEMORY,PAGE_RETIREMENT",
     [](const SmiGpu& g) { return as_double(g.memory_total_mib); }},
    {"ecc_corrected", "corrected ECC errors (aggregate)", "", Quantity::Off::above, 100,
     "Far more corrected ECC errors than its siblings: watch it (nvidia-smi -q -d ECC) and plan a field diagnostic (dcgmi diag -r 3)",
     [](const SmiGpu& g) { return as_double(g.ecc_aggregate.corrected); }},
    {"remapped_rows", "remapped memory rows (correctable)", "", Quantity::Off::above, 8,
     "More remapped rows than its siblings: the memory is wearing; run dcgmi diag and plan a replacement if it grows",
     [](const SmiGpu& g) { return as_double(g.remapped_rows_correctable); }},
};


double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

bool stands_off(const Quantity& q, double x, double m) {
  switch (q.off) {
    case Quantity::Off::relative: return m > 0 && std::fabs(x - m) / m > q.margin;
    case Quantity::Off::below_relative: return m > 0 && (m - x) / m > q.margin;
    case Quantity::Off::above: return x > m * 10 && x > m + q.margin;  // counters: an order of magnitude and a count
    case Quantity::Off::below: return x < m;
    case Quantity::Off::above_absolute: return x > m + q.margin;
  }
  return false;
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

std::string with_unit(double v, const char* unit) { return number(v) + (*unit ? std::string(" ") + unit : ""); }

std::string margin_text(const Quantity& q) {
  switch (q.off) {
    case Quantity::Off::relative: return "more than " + number(q.margin * 100) + "% off";
    case Quantity::Off::below_relative: return "more than " + number(q.margin * 100) + "% below";
    case Quantity::Off::above: return "more than 10 times and " + number(q.margin) + " above";
    case Quantity::Off::below: return "below";
    case Quantity::Off::above_absolute: return "more than " + with_unit(q.margin, q.unit) + " above";
  }
  return "";
}

void judge_group(const Quantity& q, const std::vector<Sample>& group, const std::string& source, std::vector<Finding>& out) {
  std::vector<double> values;
  for (const auto& s : group)
    if (s.value) values.push_back(*s.value);
  if (values.size() < kMinSiblings) return;
  const double m = median(values);
  for (const auto& s : group) {
    if (!s.value || !stands_off(q, *s.value, m)) continue;
    Finding f;
    f.rule = std::string("gpu-outlier-") + q.id;
    f.category = "hardware-health";
    f.severity = Severity::warning;
    f.scope = "GPU " + s.address + " (" + s.model + ")";
    f.gpus = {s.address};
    f.action = Action::service;
    f.title = std::string("GPU unlike its siblings: ") + q.what;
    f.message = "GPU " + s.address + " (" + s.model + "): " + q.what + " " + with_unit(*s.value, q.unit) + ", where the " +
                std::to_string(values.size()) + " " + s.model + " GPUs of this node have a median of " + with_unit(m, q.unit) +
                " (" + margin_text(q) + " the median)";
    f.evidence.push_back(Evidence{std::string("gpu.") + q.id, number(*s.value), source});
    f.evidence.push_back(Evidence{std::string("node median ") + q.id, number(m), source});
    f.fix = q.fix;
    out.push_back(std::move(f));
  }
}

// The kernel checks' rates: one GPU's measured TFLOPS of a precision far
// below its siblings' (a throttled or faulty GPU), when the checks ran.
void kernel_rates(const Facts& facts, std::vector<Finding>& out) {
  if (!facts.kernels) return;
  const Quantity q{"kernel_rate", "measured rate", "TFLOPS", Quantity::Off::below_relative, 0.10,
                   "Run gpucheck kernels --duration 60 on the node: a GPU slower than its siblings at the same work is "
                   "throttled (heat, power) or faulty"};
  std::map<std::pair<std::string, std::string>, std::vector<Sample>> groups;  // (model, precision)
  for (const auto& g : facts.kernels->gpus) {
    if (g.mig) continue;  // instances of different sizes are not siblings
    for (const auto& c : g.checks)
      if (c.status == StepStatus::passed && c.tflops)
        groups[{g.name.value_or("GPU"), c.precision}].push_back(Sample{g.pci_bus_id.value_or("?"), g.name.value_or("GPU"), *c.tflops});
  }
  for (auto& [key, group] : groups) {
    std::vector<Finding> found;
    judge_group(q, group, "gpucheck kernels (" + key.second + ")", found);
    for (auto& f : found) {
      f.rule += "-" + key.second;
      f.message = key.second + " " + f.message;
      out.push_back(std::move(f));
    }
  }
}

}  // namespace

std::vector<Finding> outlier_findings(const Facts& facts) {
  std::vector<Finding> out;
  if (facts.nvidia_smi) {
    std::map<std::string, std::vector<const SmiGpu*>> by_model;
    for (const auto& g : facts.nvidia_smi->gpus)
      if (g.product_name && g.mig_mode_current.value_or("Disabled") != "Enabled") by_model[*g.product_name].push_back(&g);
    for (const auto& q : kSmi)
      for (const auto& [model, gpus] : by_model) {
        std::vector<Sample> group;
        for (const SmiGpu* g : gpus) group.push_back(Sample{g->pci_bus_id, model, q.read(*g)});
        judge_group(q, group, facts.nvidia_smi->source, out);
      }
  }
  kernel_rates(facts, out);
  return out;
}

}  // namespace gpucheck
