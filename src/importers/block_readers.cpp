// The registry of block readers: a plain list, in the order that breaks a
// tie between two readers as sure of a line (whole reports first, then the
// more specific forms before the permissive ones).
#include "importers/block_readers.hpp"

namespace gpucheck {

const std::vector<BlockReader>& block_readers() {
  static const std::vector<BlockReader> all{
      collect_env_reader(), nvsmi_xml_reader(),  nvsmi_query_reader(),   nvsmi_table_reader(), ixsmi_reader(),
      error_reader(),       ggml_reader(),       nvsmi_csv_reader(),  nvsmi_topo_reader(),    nvlink_reader(),       ibstat_reader(),    ibv_devinfo_reader(), nccl_debug_reader(), peer_rates_reader(), nccl_tests_reader(), proc_version_reader(), nvcc_reader(),
      torch_config_reader(), ds_report_reader(), jax_reader(),           rocminfo_reader(),    rocm_smi_reader(),
      amd_smi_reader(),     template_reader(),   packages_reader(),      nvsmi_list_reader(),  python_prints_reader(),
      key_values_reader(),  env_reader(),        xid_reader(),           ldd_reader(),         lspci_reader(),
  };
  return all;
}

}  // namespace gpucheck
