#include "importers/report_notes.hpp"

namespace gpucheck {

void add_report_notes(Facts& f, const std::string& where, const std::string& what) {
  auto note = [&](const char* subject, const char* item) {
    f.notes.push_back(Note{subject, item, Problem{Reason::not_recorded, where, what + " does not contain it"}});
  };
  if (f.pci.empty()) note("pci", "PCI devices");
  if (!f.nvidia_driver.kernel_module.version || !f.nvidia_driver.libcuda.path)
    note("nvidia_driver", "kernel module and userspace driver libraries");
  if (!f.cuda) note("cuda_driver_api", "CUDA driver API");
  if (!f.nvidia_smi) note("nvidia_smi", "nvidia-smi");
  if (f.services.empty()) note("services", "NVIDIA services");
  if (!f.kernel_log.read) note("kernel_log", "kernel log");
}

}  // namespace gpucheck
