// The stack fields `gpucheck fleet` compares across nodes: those whose skew
// makes a collective job (NCCL all-reduce across nodes) hang, fail or run at
// the slowest node's speed. One table: the JSON key, the words a person reads.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

namespace gpucheck {

enum class SkewField {
  driver,        // the NVIDIA driver: kernel module, else nvidia-smi, else libcuda's file name (as the lock)
  cuda_driver,   // the CUDA version the driver supports: cuDriverGetVersion, else nvidia-smi
  cuda_toolkit,  // the active CUDA toolkit
  cudnn,         // every cuDNN version installed (software.libraries)
  nccl,          // every NCCL version installed
  torch,         // every torch version in the node's Python environments
  gpu_model,     // GPU models: nvidia-smi, else the CUDA driver API, else /proc/driver/nvidia, else PCI
  gpu_count,     // GPUs, from the same source as the models
  vbios,         // VBIOS versions: nvidia-smi, else /proc/driver/nvidia
  pcie_width,    // current PCIe link widths of the GPUs: nvidia-smi, else PCI
  ecc_mode,      // current ECC modes (nvidia-smi)
  // The network stack (facts/network_summary.hpp).
  nccl_net_plugin,  // the NCCL net plugin NCCL loads, or none
  ofed,             // MLNX_OFED / DOCA-OFED, or the inbox driver
  rdma_firmware,    // the HCAs' firmware
  rdma_rate,        // the active RDMA ports' rates
  gpudirect_rdma,   // nvidia_peermem, nv_peer_mem or none
  hpcx,             // NVIDIA HPC-X, or none
  efa_driver,       // AWS's EFA driver release, or the kernel's (EFA nodes only)
};

inline constexpr std::size_t kSkewFieldCount = 18;

struct SkewFieldName {
  SkewField field;
  std::string_view key;    // JSON, snake_case
  std::string_view label;  // text and Markdown
};

inline constexpr std::array<SkewFieldName, kSkewFieldCount> kSkewFields{{
    {SkewField::driver, "driver", "driver"},
    {SkewField::cuda_driver, "cuda_driver", "CUDA driver API"},
    {SkewField::cuda_toolkit, "cuda_toolkit", "CUDA toolkit"},
    {SkewField::cudnn, "cudnn", "cuDNN"},
    {SkewField::nccl, "nccl", "NCCL"},
    {SkewField::torch, "torch", "torch"},
    {SkewField::gpu_model, "gpu_model", "GPU model"},
    {SkewField::gpu_count, "gpu_count", "GPU count"},
    {SkewField::vbios, "vbios", "VBIOS"},
    {SkewField::pcie_width, "pcie_width", "PCIe link width"},
    {SkewField::ecc_mode, "ecc_mode", "ECC mode"},
    {SkewField::nccl_net_plugin, "nccl_net_plugin", "NCCL net plugin"},
    {SkewField::ofed, "ofed", "OFED"},
    {SkewField::rdma_firmware, "rdma_firmware", "RDMA firmware"},
    {SkewField::rdma_rate, "rdma_rate", "RDMA port rate"},
    {SkewField::gpudirect_rdma, "gpudirect_rdma", "GPUDirect RDMA"},
    {SkewField::hpcx, "hpcx", "HPC-X"},
    {SkewField::efa_driver, "efa_driver", "EFA driver"},
}};

constexpr std::size_t index_of(SkewField f) { return static_cast<std::size_t>(f); }

}  // namespace gpucheck
