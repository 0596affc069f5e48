// The kernel checks' PTX and what each kernel computes: the committed
// src/kernels/ptx/*.ptx (written by gen_ptx.py), embedded at build time, each
// described by its own header lines. Every mma/fma kernel has the
// same parameters: (a, b, c, d, iters, tiles); warp w works on tile w % tiles,
// lane l loads its `na` A registers at a[((tile*32)+l)*na], its `nb` B
// registers likewise, and chain j's `nd` accumulators at
// c[(((tile*chains)+j)*32+l)*nd]; after `iters` loop trips (each applying
// the instruction `unroll` times per chain) it stores them at the same place in d.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpucheck::kernels {

enum class KernelKind { fma, mma, wgmma, tcgen05, copy };

// What a PTX .target promises: "sm_80" runs on 8.0 and every later GPU;
// "sm_90a" (arch-specific) on 9.0 alone; "sm_120f" (family) on 12.x from 12.0.
enum class TargetKind { plain, arch_specific, family };

struct KernelSpec {
  std::string precision;    // "fp16", "fp8_e4m3", "copy"
  std::string entry;        // the .entry name
  KernelKind kind;
  std::string instruction;  // "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"
  std::string shape;        // "m16n8k16", "thread", "grid-stride"
  std::string target;       // the declared .target: "sm_80"
  std::string isa;          // the declared .version: "7.0"
  int na, nb, nd;           // registers per lane: A, B, accumulator (per chain); wgmma: nb is B's words a
                            // tile; tcgen05: na, nb are A's and B's words a tile, nd a row's accumulators
  int elem_bytes;           // bytes per accumulator element (and per FMA operand)
  int chains, unroll;
  long flops_per_op;        // per warp and instruction: 2*m*n*k, or 2*32 for an FMA
  const char* ptx;          // the whole file, as embedded
};

const std::vector<KernelSpec>& all_kernels();

// One PTX file's description, read from its header lines ("gpucheck-kernel:",
// "gpucheck-instruction:"), its .version, .target and .entry; nullopt when
// any is missing or malformed. `text` must outlive the result (it is `ptx`).
std::optional<KernelSpec> read_kernel_spec(const char* text);

// "sm_80" -> 80; "sm_120a" -> 120.
int target_number(const KernelSpec& k);

TargetKind target_kind(const KernelSpec& k);

// Warps that compute one tile together: a warpgroup for wgmma and tcgen05.
int warps_per_tile(const KernelSpec& k);

// Compute capability "9.0" -> 90; nullopt when it is not "<major>.<minor>".
std::optional<int> cc_number(std::string_view cc);

}  // namespace gpucheck::kernels
