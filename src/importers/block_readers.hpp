// Each block reader of a paste, one per file (block_*.cpp); block_readers()
// lists them in the order that breaks a tie between two that open a line.
#pragma once

#include "importers/paste.hpp"

namespace gpucheck {

BlockReader collect_env_reader();
BlockReader nvsmi_xml_reader();
BlockReader nvsmi_query_reader();
BlockReader nvsmi_table_reader();
BlockReader ixsmi_reader();
BlockReader nvsmi_list_reader();
BlockReader nvsmi_csv_reader();
BlockReader nvsmi_topo_reader();
BlockReader nvlink_reader();
BlockReader ibstat_reader();
BlockReader peer_rates_reader();
BlockReader nccl_tests_reader();
BlockReader ibv_devinfo_reader();
BlockReader nccl_debug_reader();
BlockReader proc_version_reader();
BlockReader nvcc_reader();
BlockReader packages_reader();
BlockReader python_prints_reader();
BlockReader torch_config_reader();
BlockReader env_reader();
BlockReader xid_reader();
BlockReader ldd_reader();
BlockReader ds_report_reader();
BlockReader key_values_reader();
BlockReader jax_reader();
BlockReader rocminfo_reader();
BlockReader rocm_smi_reader();
BlockReader amd_smi_reader();
BlockReader lspci_reader();
BlockReader template_reader();
BlockReader error_reader();
BlockReader ggml_reader();

}  // namespace gpucheck
