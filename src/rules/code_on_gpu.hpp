// Whether a build's code runs on a GPU: SASS of the same major and a minor
// not above the GPU's, or PTX for a capability not above it, which the
// driver compiles (CUDA C++ Programming Guide, "Binary Compatibility" and
// "PTX Compatibility"). For `check`'s facts and `recommend --pip` alike.
#pragma once

#include <optional>

#include "util/version.hpp"

namespace gpucheck {

struct CodeOnGpu {
  bool sass = false, ptx = false;
};

// An arch list's items are versions either as the matrix parsed them or as
// a fact list parsed them (nullopt for an item that is not one).
inline const Version* version_of(const Version& v) { return &v; }
inline const Version* version_of(const std::optional<Version>& v) { return v ? &*v : nullptr; }

template <class Archs>
CodeOnGpu code_on_gpu(const Archs& archs, const std::optional<Version>& ptx, const Version& gpu) {
  CodeOnGpu c;
  for (auto& a : archs)
    if (const Version* v = version_of(a); v && v->major() == gpu.major() && v->minor() <= gpu.minor()) c.sass = true;
  c.ptx = ptx && *ptx <= gpu;
  return c;
}

}  // namespace gpucheck
