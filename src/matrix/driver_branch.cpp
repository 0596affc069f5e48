#include "matrix/matrix.hpp"
#include "util/word_table.hpp"

namespace gpucheck {
namespace {

// The words of NVIDIA's lifecycle pages ("New Feature Branch", …), lower case.
constexpr Word<DriverBranchKind> kKinds[] = {
    {DriverBranchKind::new_feature, "new feature"},
    {DriverBranchKind::production, "production"},
    {DriverBranchKind::long_term_support, "long-term support"},
};

}  // namespace

std::string_view to_string(DriverBranchKind k) { return name_of(kKinds, k); }
std::optional<DriverBranchKind> driver_branch_kind_named(std::string_view name) { return value_named(kKinds, name); }
std::string driver_branch_kind_names() { return names_of(kKinds); }

std::string branch_name(int branch) {
  std::string out = "R";
  out += std::to_string(branch);
  return out;
}

}  // namespace gpucheck
