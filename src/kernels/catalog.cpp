// Small helpers over the generated kernel catalog.
#include "kernels/catalog.hpp"

#include <cstdlib>
#include <string_view>

namespace gpucheck::kernels {

int target_number(const KernelSpec& k) { return std::atoi(k.target + 3); }

char target_kind(const KernelSpec& k) {
  const std::string_view t = k.target;
  return t.back() == 'a' || t.back() == 'f' ? t.back() : 0;
}

int warps_per_tile(const KernelSpec& k) {
  return k.kind == KernelKind::wgmma || k.kind == KernelKind::tcgen05 ? 4 : 1;
}

int cc_number(const std::string& cc) {
  const auto dot = cc.find('.');
  if (dot == std::string::npos || dot == 0 || dot + 1 >= cc.size()) return 0;
  for (std::size_t i = 0; i < cc.size(); ++i)
    if (i != dot && (cc[i] < '0' || cc[i] > '9')) return 0;
  return std::atoi(cc.substr(0, dot).c_str()) * 10 + std::atoi(cc.substr(dot + 1).c_str());
}

}  // namespace gpucheck::kernels
