// Where each element of an mma.sync fragment sits in the matrix: lane and
// element index -> (row, column). From the PTX ISA reference, "Matrix
// fragments for mma.m16n8k8 / m16n8k16 / m8n8k16 / m16n8k32"
// (https://docs.nvidia.com/cuda/parallel-thread-execution/#warp-level-matrix-fragment-mma-16816),
// with groupID = lane / 4 and threadID_in_group = lane % 4. Elements of one
// 32-bit register are numbered from its low bits.
#pragma once

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

}  // namespace gpucheck::kernels
