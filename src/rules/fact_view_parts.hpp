// The pieces of build_subjects (fact_view.cpp), one file a subject: the
// host (fact_view_host.cpp), each GPU (fact_view_gpu.cpp), each Python
// environment and framework build (fact_view_python.cpp). Internal to rules.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "facts/facts.hpp"
#include "facts/gpu_inventory.hpp"
#include "matrix/matrix.hpp"
#include "rules/fact_value.hpp"
#include "util/dates.hpp"

namespace gpucheck::fact_view {

using F = FactValue;

// A gfx target id may carry features ("gfx90a:sramecc+:xnack-"); build lists name processors.
inline std::string gfx_processor(const std::string& target) { return target.substr(0, target.find(':')); }

// Whether a build's list of gfx targets covers this GPU's.
inline bool lists(const std::vector<std::string>& targets, const std::string& gfx) {
  return std::find(targets.begin(), targets.end(), gfx_processor(gfx)) != targets.end();
}

// fact_view_host.cpp: the host subject.
void host_driver_facts(const Facts& f, const Matrix& m, FactMap& out);
void host_software_facts(const Facts& f, const Matrix& m, FactMap& out);
// The driver branch's lifecycle on `today` (none: its end of life is not judged).
void driver_branch_facts(const Matrix& m, std::optional<Day> today, FactMap& out);

// fact_view_gpu.cpp: one subject per inventory GPU; then the ROCm release's
// and the kernel checks' facts added to them; "GPU 0000:18:00.0".
FactMap gpu_facts(const InventoryGpu& g, const Matrix& m);
void rocm_release_facts(const Matrix& m, FactMap& host, std::vector<FactMap>& gpus);
void kernel_check_facts(const Facts& f, std::vector<FactMap>& gpus);
std::string gpu_label(const FactMap& g);

// fact_view_visibility.cpp: the GPUs a job can use (host), which sources see
// each GPU and which lost it (each GPU), CUDA_VISIBLE_DEVICES (host).
void visibility_facts(const Facts& f, const std::vector<InventoryGpu>& gpus, std::vector<FactMap>& gpu_maps, FactMap& host);
void visible_device_facts(const Facts& f, std::size_t nvidia_count, FactMap& out);

// fact_view_container.cpp: the image's NVIDIA_REQUIRE_* judged, the
// cuda-compat entry (host).
// error.out_of_memory: what a pasted out-of-memory error asked for, and a
// model the paste names against the first GPU's memory (fact_view_oom.cpp).
void out_of_memory_facts(const Facts& f, const Matrix& m, const std::vector<FactMap>& gpus, FactMap& host);
void container_facts(const Facts& f, const std::vector<InventoryGpu>& gpus, const std::vector<FactMap>& gpu_maps, FactMap& host);

// fact_view_links.cpp: PCIe paths, ACS and the IOMMU, degraded links
// above the GPUs, NVLink (each GPU), RDMA ports and GPUDirect RDMA (host),
// the NIC nearest each GPU.
void link_facts(const Facts& f, const std::vector<InventoryGpu>& gpus, std::vector<FactMap>& gpu_maps, FactMap& host);

// fact_view_python.cpp: environments, framework builds, a build on a GPU.
FactMap env_facts(const PythonEnv& e);
FactMap framework_facts(const FrameworkBuild& fw, const PythonEnv& e, const Matrix& m);
void build_on_gpu_facts(const FactMap& fw, const FactMap& gpu, FactMap& out);
void builds_for_gpu_facts(const Matrix& m, const std::string& framework, const FactMap& gpu, FactMap& out);

}  // namespace gpucheck::fact_view
