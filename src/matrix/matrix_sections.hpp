// One reader per matrix section: JSON object -> struct, every problem recorded.
#pragma once

#include <vector>

#include "matrix/matrix.hpp"
#include "matrix/object_reader.hpp"

namespace gpucheck {

GpuModel read_gpu(ObjectReader& r, std::vector<Problem>& problems);
ArchPrecisions read_arch_precisions(ObjectReader& r);
CudaRelease read_cuda_release(ObjectReader& r);
CudaFamily read_cuda_family(ObjectReader& r);
FrameworkVariant read_framework_variant(ObjectReader& r);
NgcRelease read_ngc_release(ObjectReader& r, std::vector<Problem>& problems);
RocmRelease read_rocm_release(ObjectReader& r, std::vector<Problem>& problems);
DriverBranch read_driver_branch(ObjectReader& r, std::vector<Problem>& problems);
XidEntry read_xid(ObjectReader& r);
XidRecoveryAction read_xid_recovery_action(ObjectReader& r);
KnownModel read_known_model(ObjectReader& r, std::vector<Problem>& problems);

// The platform tables (platform_sections.cpp).
SonamePrefixes read_soname_prefixes(ObjectReader& r);
SubLibraries read_sub_libraries(ObjectReader& r);
LibraryWheels read_library_wheels(ObjectReader& r, std::vector<Problem>& problems);
PcieGeneration read_pcie_generation(ObjectReader& r);
GpuId read_gpu_id(ObjectReader& r);
CudaError read_cuda_error(ObjectReader& r);

}  // namespace gpucheck
