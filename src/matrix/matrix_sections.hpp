// One reader per matrix section: JSON object -> struct, every problem recorded.
#pragma once

#include <vector>

#include "matrix/matrix.hpp"
#include "matrix/object_reader.hpp"

namespace gpucheck {

GpuModel read_gpu(ObjectReader& r);
ArchPrecisions read_arch_precisions(ObjectReader& r);
CudaRelease read_cuda_release(ObjectReader& r);
CudaFamily read_cuda_family(ObjectReader& r);
FrameworkVariant read_framework_variant(ObjectReader& r);
NgcRelease read_ngc_release(ObjectReader& r, std::vector<Problem>& problems);
RocmRelease read_rocm_release(ObjectReader& r, std::vector<Problem>& problems);

}  // namespace gpucheck
