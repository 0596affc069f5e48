// Where each element of an mma.sync fragment sits in the matrix: lane and
// element index -> (row, column). From the PTX ISA reference, "Matrix
// fragments for mma.m16n8k8 / m16n8k16 / m8n8k16 / m16n8k32"
// (https://docs.nvidia.com/cuda/parallel-thread-execution/#warp-level-matrix-fragment-mma-16816),
// with groupID = lane / 4 and threadID_in_group = lane % 4. Elements of one
// 32-bit register are numbered from its low bits.
#pragma once

#include <cstddef>
#include <string>

namespace gpucheck::kernels {

enum class Operand { a, b, c };

struct Coord {
  int row, col;
};

// One mma.sync shape and input width, as the kernel catalog names them.
struct MmaShape {
  int m, n, k;
  int in_bits;  // 32 (tf32), 16 (f16, bf16), 8 (s8, e4m3, e5m2)
  // Elements per lane of each operand.
  int a_elems() const { return m * k / 32; }
  int b_elems() const { return k * n / 32; }
  int c_elems() const { return m * n / 32; }
};

// nullopt-free: the caller passes only shapes the catalog uses; an unknown
// shape yields {-1, -1}.
Coord fragment_coord(const MmaShape& s, Operand op, int lane, int elem);

// wgmma.m64nNkK (PTX ISA, "Register Fragments" for wgmma.m64nNk16 and its
// k8/k32 siblings,
// https://docs.nvidia.com/cuda/parallel-thread-execution/index.html#asynchronous-warpgroup-level-matrix-register-fragment-wgmma-64n16):
// warp q of the warpgroup holds rows 16q..16q+15. Its A registers are laid
// out as mma.m16n8kK's A; its accumulator repeats mma.m16n8's C layout once
// per 8 columns (c0..c3 for columns 0-7, c4..c7 for 8-15, …). Operand::a or c.
Coord wgmma_coord(const MmaShape& s, Operand op, int warp, int lane, int elem);

// Where B's element (row k, column n) sits, in bytes, in the shared-memory
// image the wgmma kernels give their descriptor: K-major, no swizzle, core
// matrices of 8 columns x 16 bytes; the two core matrices of one 8-column
// group adjacent along K (leading byte offset 128), groups 256 bytes apart
// (stride byte offset). PTX ISA "Strides": the leading byte offset is "the
// distance, in bytes, between two adjacent core matrices in the K dimension",
// the stride byte offset the same "in the M or N dimension"
// (https://docs.nvidia.com/cuda/archive/12.4.0/parallel-thread-execution/index.html#strides,
// #matrix-descriptor-format for the descriptor's bits; in the current pages
// #asynchronous-warpgroup-level-leading-dimension-byte-offset and
// #asynchronous-warpgroup-level-matrix-shared-memory-layout-matrix-descriptor).
std::size_t wgmma_b_offset(const MmaShape& s, int k, int n);

// The byte where the 16-byte row segment holding K-byte `kbyte` of matrix
// row `row` starts (plus kbyte's place in it), in the K-major no-swizzle
// image both wgmma's B and tcgen05's A and B use: core matrices of 8 rows x
// 16 bytes, the two along K 128 bytes apart, each 8 rows 256 bytes on.
std::size_t core_matrix_offset(int row, int kbyte);

// tcgen05.mma (A and B in shared memory, 32 bytes of K a row): where
// element k of matrix row `row` sits, in bits, in the tile's image. Each
// 16-byte segment of a row holds its elements from its low bits up: 4 of
// 32 bits (TF32), 8 of 16, 16 of 8; for FP4 and FP6 (.kind::f8f6f4), "16
// consecutive 4-bit or 6-bit elements are packed contiguously and then
// padded" to 16 bytes (PTX ISA, "Packing
// format used for matrix A and B by .kind::mxf8f6f4 in Shared Memory",
// https://docs.nvidia.com/cuda/parallel-thread-execution/#tcgen05-packing-formats-mxf8f6f4-smem,
// the same format as TMA's CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B and
// 16U6_ALIGN16B in cuda.h, which CUTLASS uses for .kind::f8f6f4 too). The
// order inside the packed bytes, element 0 in the lowest bits, is CUTLASS's
// sub-byte convention, which TMA copies unchanged: the PTX ISA shows it
// only in a figure.
std::size_t tcgen05_bit_offset(int element_bits, int row, int k);

}  // namespace gpucheck::kernels
