#include "rules/report_conflicts.hpp"

#include "util/strings.hpp"

namespace gpucheck {

namespace {

bool driver_fact(const std::string& fact) {
  return fact == "nvidia_smi.driver_version" || fact == "nvidia_driver.kernel_module.version" ||
         fact == "nvidia_driver.libcuda.version" || fact == "cuda_driver_api.driver_version" || fact == "nvidia_smi.cuda_version";
}

}  // namespace

std::vector<Finding> report_conflict_findings(const Facts& facts) {
  std::vector<Finding> out;
  if (!facts.report) return out;
  for (const auto& c : facts.report->conflicts) {
    if (c.values.size() < 2) continue;
    Finding f;
    f.rule = "report-values-disagree";
    f.category = driver_fact(c.fact) ? "driver-mismatch" : "report-conflict";
    f.severity = Severity::warning;
    f.title = "The report states " + c.fact + " twice, differently";
    std::vector<std::string> said;
    for (const auto& v : c.values) {
      said.push_back("\"" + v.value + "\" (" + v.source + ")");
      f.evidence.push_back(Evidence{c.fact, v.value, v.source});
    }
    f.message = "The report says " + c.fact + " is " + join(said, " and ") +
                ": its parts come from different machines or moments, or from parts of the stack that disagree. gpucheck "
                "judged the first value.";
    f.fix = driver_fact(c.fact) ? "Run the commands again on the failing machine, together; if they still disagree, the "
                                  "kernel module and the userspace driver are of different versions: reboot after a driver "
                                  "upgrade, or reinstall one driver"
                                : "Run the commands again on the failing machine, together, in the environment that fails";
    f.scope = "host";
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace gpucheck
