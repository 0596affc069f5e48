// The platform tables (platform_tables.hpp) as the probes, the importers and
// the kernel checks read them: each document parsed and validated on first
// use, alone, never the whole matrix, so a run pays for the one small file it
// needs before any probe result exists (the whole embedded matrix takes
// ~12 ms to load). Always the embedded copies: a layer or a replacement
// matrix (--matrix) does not change them (docs/matrix.md).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "matrix/matrix_load.hpp"
#include "matrix/platform_tables.hpp"

namespace gpucheck {

// matrix/libraries.json
const std::vector<SonamePrefixes>& gpu_soname_prefixes();
const std::vector<SubLibraries>& sub_library_table();
const std::vector<LibraryWheels>& library_wheel_table();
// The library whose version an NVIDIA wheel or metapackage states, by its
// distribution name in any PEP 503 spelling: "nvidia_cudnn_cu12" -> "cudnn".
std::optional<std::string> library_of_wheel(std::string_view dist_name);

// matrix/pcie.json: each generation's transfer rate, generation -> GT/s
// (the parsers' form of the table), and the payload rate of one lane.
const std::map<int, double>& pcie_transfer_rates();
std::optional<double> pcie_lane_gbits(int generation);

// matrix/cuda_errors.json: the CUresult cuda.h gives that name.
std::optional<int> cuda_error_code(std::string_view name);
// ... and the name of a code, for an error that states only the number.
std::optional<std::string> cuda_error_name(int code);

// "matrix/libraries.json", "matrix/pcie.json", "matrix/cuda_errors.json".
bool is_platform_document(std::string_view path);

// Every problem of the embedded document at `path` ("matrix/pcie.json"),
// checked on its own as the accessors above read it; for the tests.
MatrixCheck check_platform_document(std::string_view path);

}  // namespace gpucheck
