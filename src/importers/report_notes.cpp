#include "importers/report_notes.hpp"

namespace gpucheck {

void add_report_notes(Facts& f, const std::string& where, const std::string& what) {
  auto note = [&](const char* subject, const char* item) {
    f.notes.push_back(Note{subject, item, Problem{Reason::not_recorded, where, what + " does not contain it"}});
  };
  note("pci", "PCI devices");
  note("nvidia_driver", "kernel module and userspace driver libraries");
  if (!f.cuda) note("cuda_driver_api", "CUDA driver API");
  if (!f.nvidia_smi) note("nvidia_smi", "nvidia-smi");
  note("services", "NVIDIA services");
  note("kernel_log", "kernel log");
}

}  // namespace gpucheck
