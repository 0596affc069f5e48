// A container image's NVIDIA_REQUIRE_* (NVIDIA_REQUIRE_CUDA="cuda>=12.4
// brand=tesla,driver>=470,driver<471 …"), judged as the NVIDIA container
// toolkit judges it when the container starts (libnvidia-container,
// src/cli/dsl.c and src/cli/configure.c,
// https://github.com/NVIDIA/libnvidia-container/blob/5823754b8577d16fabf25a6ef6a1d58f7ff1e5dd/src/cli/dsl.c):
// space-separated terms are alternatives, comma-separated conditions within
// one must all hold; keys cuda, driver, arch, brand, compared with = != < <=
// > >= (versions by their numbers, 12.2 == 12.2.0; brands as words, any
// case); a value the host does not know satisfies its condition.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "util/version.hpp"

namespace gpucheck {

// What the conditions compare with, on one GPU (or none: arch and brand unknown).
struct RequireValues {
  std::optional<Version> cuda;    // the driver's CUDA: cuDriverGetVersion
  std::optional<Version> driver;  // the kernel module's version
  std::optional<Version> arch;    // the GPU's compute capability
  std::optional<std::string> brand;  // as libnvidia-container names it: "Tesla", "GeForce", … "Unknown"
};

// nullopt when some alternative holds; else why none does, naming the
// first alternative's failed condition: "cuda>=12.4 (the driver's CUDA is
// 12.2)", or "invalid expression" as the toolkit says.
std::optional<std::string> unmet_requirement(std::string_view expression, const RequireValues& v);

// nvidia-smi's product brand as libnvidia-container names it for brand=:
// Tesla, Quadro, NVS, GRID, GeForce, TITAN, else "Unknown"
// (https://github.com/NVIDIA/libnvidia-container/blob/947344949f269687466e11e9a80f766ffffcb488/src/driver.c).
std::string container_brand(std::string_view product_brand);

}  // namespace gpucheck
