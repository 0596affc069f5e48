#include "matrix/platform_knowledge.hpp"

#include <algorithm>

#include "matrix/matrix_values.hpp"
#include "util/python_name.hpp"

namespace gpucheck {
namespace {

constexpr std::string_view kLibraries = "matrix/libraries.json", kPcie = "matrix/pcie.json",
                           kCudaErrors = "matrix/cuda_errors.json";

// A broken embedded document fails the suite (the matrix tests check every
// one); should one ship anyway, its tables are empty, so the probes know
// nothing rather than guess.
Matrix read_platform_document(std::string_view path) {
  auto check = check_platform_document(path);
  return check.matrix ? std::move(*check.matrix) : Matrix{};
}

const Matrix& libraries() {
  static const Matrix m = read_platform_document(kLibraries);
  return m;
}

const Matrix& pcie() {
  static const Matrix m = read_platform_document(kPcie);
  return m;
}

const Matrix& cuda_errors() {
  static const Matrix m = read_platform_document(kCudaErrors);
  return m;
}

}  // namespace

bool is_platform_document(std::string_view path) { return path == kLibraries || path == kPcie || path == kCudaErrors; }

MatrixCheck check_platform_document(std::string_view path) {
  auto doc = embedded_matrix_document(path);
  if (!doc) return MatrixCheck{std::nullopt, {Problem{Reason::absent, std::string(path), "not an embedded matrix document"}}};
  return check_matrix({std::move(*doc)}, MatrixRole::layer);
}

const std::vector<SonamePrefixes>& gpu_soname_prefixes() { return libraries().soname_prefixes; }
const std::vector<SubLibraries>& sub_library_table() { return libraries().sub_libraries; }
const std::vector<LibraryWheels>& library_wheel_table() { return libraries().library_wheels; }

std::optional<std::string> library_of_wheel(std::string_view dist_name) {
  // Normalised once: an environment lists hundreds of distributions.
  static const std::map<std::string, std::string> by_wheel = [] {
    std::map<std::string, std::string> out;
    for (const auto& lib : library_wheel_table())
      for (const auto* list : {&lib.wheels, &lib.metapackages})
        for (const auto& w : *list) out.emplace(normalize_dist_name(w), lib.library);
    return out;
  }();
  const auto it = by_wheel.find(normalize_dist_name(dist_name));
  if (it == by_wheel.end()) return std::nullopt;
  return it->second;
}

const std::map<int, double>& pcie_transfer_rates() {
  static const std::map<int, double> rates = [] {
    std::map<int, double> out;
    for (const auto& g : pcie().pcie_generations) out[g.generation] = g.transfer_rate_gts;
    return out;
  }();
  return rates;
}

std::optional<double> pcie_lane_gbits(int generation) {
  const auto& gens = pcie().pcie_generations;
  const auto g = std::find_if(gens.begin(), gens.end(), [&](const PcieGeneration& e) { return e.generation == generation; });
  if (g == gens.end() || !g->encoding) return std::nullopt;
  const auto e = matrix_values::parse_line_encoding(*g->encoding);
  if (!e) return std::nullopt;
  return g->transfer_rate_gts * (static_cast<double>(e->payload_bits) / e->line_bits);
}

std::optional<int> cuda_error_code(std::string_view name) {
  for (const auto& e : cuda_errors().cuda_errors)
    if (e.name == name) return e.code;
  return std::nullopt;
}

std::optional<std::string> cuda_error_name(int code) {
  for (const auto& e : cuda_errors().cuda_errors)
    if (e.code == code) return e.name;
  return std::nullopt;
}

}  // namespace gpucheck
