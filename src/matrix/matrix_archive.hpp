// How the matrix's tables are written into the built-in matrix image and
// read back (rules/knowledge_image.hpp): one cereal serialize function per
// struct, naming every field. A field left out here makes the image differ
// from the JSON it was compiled from, which the image test compares with
// each struct's defaulted == (tests/unit/knowledge_image_test.cpp).
#pragma once

#include <cereal/types/map.hpp>
#include <cereal/types/optional.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/vector.hpp>

#include "matrix/matrix.hpp"

namespace gpucheck {

template <class A>
void serialize(A& a, GpuModel& g) {
  a(g.id, g.name, g.vendor, g.pci_ids, g.name_patterns, g.architecture, g.compute_capability, g.gfx_target,
    g.memory_gib, g.bandwidth_gbs, g.tflops, g.data_center, g.nvlink, g.note, g.figure_sources, g.sources);
}

template <class A>
void serialize(A& a, GpuId& g) {
  a(g.pci_id, g.chip, g.names, g.architecture, g.compute_capability, g.checked, g.sources);
}

template <class A>
void serialize(A& a, ArchPrecisions& p) {
  a(p.compute_capability, p.architecture, p.precisions, p.sources);
}

template <class A>
void serialize(A& a, CudaRelease& r) {
  a(r.version, r.min_driver_linux, r.date, r.checked, r.note, r.sources);
}

template <class A>
void serialize(A& a, CudaFamily& f) {
  a(f.major, f.minor_compat_min_driver, f.min_compute_capability, f.max_compute_capability, f.sources);
}

template <class A>
void serialize(A& a, FrameworkVariant& v) {
  a(v.framework, v.version, v.variant, v.cuda, v.rocm, v.cudnn, v.arch_list, v.gfx_targets, v.ptx,
    v.min_compute_capability, v.max_compute_capability, v.pypi_default, v.torch, v.checked, v.note, v.sources);
}

template <class A>
void serialize(A& a, NgcRelease& n) {
  a(n.framework, n.tag, n.release, n.cuda, n.cudnn, n.nccl, n.framework_version, n.min_driver,
    n.forward_compat_branches, n.min_compute_capability, n.sources);
}

template <class A>
void serialize(A& a, RocmRelease& r) {
  a(r.version, r.gfx_targets, r.deprecated_gfx_targets, r.os, r.note, r.sources);
}

template <class A>
void serialize(A& a, DriverBranch& b) {
  a(b.branch, b.kind, b.end_of_life, b.sources);
}

template <class A>
void serialize(A& a, XidEntry& x) {
  a(x.code, x.name, x.meaning, x.severity, x.action, x.rule, x.nvidia_bucket, x.sources);
}

template <class A>
void serialize(A& a, XidRecoveryAction& x) {
  a(x.text, x.severity, x.action, x.sources);
}

template <class A>
void serialize(A& a, SonamePrefixes& s) {
  a(s.family, s.prefixes, s.sources);
}

template <class A>
void serialize(A& a, SubLibraries& s) {
  a(s.library, s.shim, s.sonames, s.sources);
}

template <class A>
void serialize(A& a, LibraryWheels& w) {
  a(w.library, w.wheels, w.metapackages, w.sources);
}

template <class A>
void serialize(A& a, PcieGeneration& g) {
  a(g.generation, g.transfer_rate_gts, g.encoding, g.note, g.sources);
}

template <class A>
void serialize(A& a, CudaError& e) {
  a(e.code, e.name, e.sources);
}

template <class A>
void serialize(A& a, KnownModel& m) {
  auto& s = m.shape;
  a(m.id, m.name, m.repo, s.hidden, s.layers, s.heads, s.kv_heads, s.head_dim, s.intermediate, s.vocab, s.tied_embeddings,
    s.experts, s.experts_per_token, s.max_context, m.note, m.sources);
}

// The tables alone: the image writes the version and date ahead of them,
// so they are read without the tables, and a run sets where the matrix
// came from (origin, provenance) when it loads it.
template <class A>
void serialize(A& a, Matrix& m) {
  a(m.gpus, m.gpu_ids, m.arch_precisions, m.cuda_releases, m.cuda_families, m.frameworks, m.ngc,
    m.rocm_releases, m.driver_branches, m.xids, m.xid_recovery_actions, m.soname_prefixes, m.sub_libraries,
    m.library_wheels, m.pcie_generations, m.cuda_errors, m.models);
}

}  // namespace gpucheck
