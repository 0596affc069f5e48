// Fragment layouts of the mma.sync shapes the kernel checks use (PTX ISA
// reference, section "Matrix Fragments for mma.m16n8k*"; see fragments.hpp).
#include "kernels/fragments.hpp"

namespace gpucheck::kernels {

Coord fragment_coord(const MmaShape& s, Operand op, int lane, int i) {
  const int g = lane >> 2, t = lane & 3;
  if (op == Operand::c) {
    if (s.m == 8) return {g, t * 2 + i};                        // m8n8: c0, c1
    return {g + 8 * (i >= 2), t * 2 + (i & 1)};                 // m16n8: c0..c3
  }
  if (s.m == 16 && s.k == 8 && s.in_bits == 32) {               // m16n8k8 .tf32
    if (op == Operand::a) return {g + 8 * (i & 1), t + 4 * (i >= 2)};
    return {t + 4 * i, g};
  }
  if (s.m == 16 && s.k == 8 && s.in_bits == 16) {               // m16n8k8 .f16
    if (op == Operand::a) return {g + 8 * (i >= 2), t * 2 + (i & 1)};
    return {t * 2 + i, g};
  }
  if (s.m == 16 && s.k == 16 && s.in_bits == 16) {              // m16n8k16 .f16/.bf16
    if (op == Operand::a) return {g + 8 * ((i >> 1) & 1), t * 2 + (i & 1) + 8 * (i >= 4)};
    return {t * 2 + (i & 1) + 8 * (i >= 2), g};
  }
  if (s.m == 8 && s.k == 16 && s.in_bits == 8) {                // m8n8k16 .s8
    if (op == Operand::a) return {g, t * 4 + i};
    return {t * 4 + i, g};
  }
  if (s.m == 16 && s.k == 32 && s.in_bits == 8) {               // m16n8k32 .s8/.e4m3/.e5m2
    if (op == Operand::a) return {g + 8 * ((i >> 2) & 1), t * 4 + (i & 3) + 16 * (i >= 8)};
    return {t * 4 + (i & 3) + 16 * (i >= 4), g};
  }
  return {-1, -1};
}

Coord wgmma_coord(const MmaShape& s, Operand op, int warp, int lane, int i) {
  Coord c{-1, -1};
  if (op == Operand::a) c = fragment_coord({16, 8, s.k, s.in_bits}, Operand::a, lane, i);
  if (op == Operand::c) {
    c = fragment_coord({16, 8, s.k, s.in_bits}, Operand::c, lane, i & 3);
    c.col += 8 * (i >> 2);
  }
  if (c.row >= 0) c.row += 16 * warp;
  return c;
}

std::size_t core_matrix_offset(int row, int kbyte) {
  return static_cast<std::size_t>((row / 8) * 256 + (kbyte / 16) * 128 + (row % 8) * 16 + kbyte % 16);
}

std::size_t wgmma_b_offset(const MmaShape& s, int k, int n) { return core_matrix_offset(n, k * s.in_bits / 8); }

std::size_t tcgen05_bit_offset(int element_bits, int row, int k) {
  const int per_segment = element_bits >= 8 ? 128 / element_bits : 16;
  return core_matrix_offset(row, 16 * (k / per_segment)) * 8 +
         static_cast<std::size_t>((k % per_segment) * element_bits);
}

}  // namespace gpucheck::kernels
