// The number formats the kernel checks feed the GPU, converted on the CPU so
// that inputs are exactly representable before they are sent (the reference
// then computes on exactly what the GPU sees). Round to nearest, ties to even
// everywhere (IEEE 754-2019 §4.3.1, roundTiesToEven).
#pragma once

#include <cstdint>

namespace gpucheck::kernels {

// IEEE 754 binary16: overflow rounds to infinity, subnormals kept.
std::uint16_t to_fp16(double x);
double from_fp16(std::uint16_t h);

// bfloat16: the top half of a binary32 (8 exponent bits, 7 fraction bits).
std::uint16_t to_bf16(double x);
double from_bf16(std::uint16_t h);

// TF32: binary32 with the 13 low fraction bits zero (10 fraction bits), as
// the tensor cores read it. Returned as the binary32 value it is.
float round_tf32(double x);

// OCP 8-bit floating point, revision 1.0 (2023-12-01):
// https://www.opencompute.org/documents/ocp-8-bit-floating-point-specification-ofp8-revision-1-0-2023-12-01-pdf-1
// E4M3: bias 7, no infinities, NaN is S.1111.111 only, max normal 448.
// E5M2: bias 15, IEEE-style infinities and NaNs, max normal 57344.
// Overflow (spec §5, conversion table): in saturating mode a finite value
// beyond max normal, and an infinity, become ±max normal; without saturation
// they become NaN (E4M3, which has no infinity) or ±infinity (E5M2). NaN stays NaN.
enum class Overflow { saturate, no_saturate };
std::uint8_t to_e4m3(double x, Overflow mode);
double from_e4m3(std::uint8_t v);
std::uint8_t to_e5m2(double x, Overflow mode);
double from_e5m2(std::uint8_t v);

// OCP Microscaling Formats (MX) v1.0, §5.3.2 (FP6) and §5.3.3 (FP4):
// https://www.opencompute.org/documents/ocp-microscaling-formats-mx-v1-0-spec-final-pdf
// No infinities and no NaN: every code is a finite number. E2M1 (FP4): bias
// 1, max 6; E2M3 (FP6): bias 1, max 7.5; E3M2 (FP6): bias 3, max 28. The same
// value sets as CUDA 13's cuda_fp4.hpp and cuda_fp6.hpp. Overflow saturates
// to ±max. Codes are right-aligned: E2M1 in bits 3..0, the FP6 formats in 5..0.
std::uint8_t to_e2m1(double x);
double from_e2m1(std::uint8_t v);
std::uint8_t to_e2m3(double x);
double from_e2m3(std::uint8_t v);
std::uint8_t to_e3m2(double x);
double from_e3m2(std::uint8_t v);

}  // namespace gpucheck::kernels
