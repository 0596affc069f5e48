#include "matrix/matrix_layers.hpp"

#include "matrix/matrix_keys.hpp"

namespace gpucheck {
namespace {

template <class T>
void lay_section(std::vector<T>& base, std::vector<T> layer) {
  lay_entries(base, std::move(layer), [](const T& e) { return key_of(e).id; });
}

}  // namespace

void lay_over(Matrix& base, Matrix layer) {
  lay_section(base.gpus, std::move(layer.gpus));
  lay_section(base.gpu_ids, std::move(layer.gpu_ids));
  lay_section(base.arch_precisions, std::move(layer.arch_precisions));
  lay_section(base.cuda_releases, std::move(layer.cuda_releases));
  lay_section(base.cuda_families, std::move(layer.cuda_families));
  lay_section(base.frameworks, std::move(layer.frameworks));
  lay_section(base.ngc, std::move(layer.ngc));
  lay_section(base.rocm_releases, std::move(layer.rocm_releases));
  lay_section(base.driver_branches, std::move(layer.driver_branches));
  lay_section(base.xids, std::move(layer.xids));
  lay_section(base.xid_recovery_actions, std::move(layer.xid_recovery_actions));
}

}  // namespace gpucheck
