// Format conversions of the kernel checks against known encodings.
// Vectors: IEEE 754-2019 binary16 (examples as tabulated in the IEEE
// half-precision literature: 0x3C00 = 1, 0x7BFF = 65504, 0x0001 = 2^-24,
// 0x3555 = 0.33325), bfloat16 (0x3F80 = 1, 0x4049 ~ pi, 0x7F7F = max), and
// the OCP 8-bit floating point specification rev. 1.0, tables 1-2 (E4M3 max
// 448 = S.1111.110, NaN S.1111.111, min subnormal 2^-9; E5M2 max 57344,
// infinity S.11111.00, min subnormal 2^-16) and its saturation rules:
// https://www.opencompute.org/documents/ocp-8-bit-floating-point-specification-ofp8-revision-1-0-2023-12-01-pdf-1
// The MX formats (OCP Microscaling Formats v1.0, §5.3): E2M1's eight
// magnitudes 0, 0.5, 1, 1.5, 2, 3, 4, 6; E2M3 min subnormal 0.125, max 7.5;
// E3M2 min subnormal 0.0625, min normal 0.25, max 28; no Inf or NaN codes
// (value sets as in CUDA 13's cuda_fp4.hpp and cuda_fp6.hpp).
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "kernels/formats.hpp"

using namespace gpucheck::kernels;

namespace {
const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();
}  // namespace

TEST_CASE("fp16 encodes known values with ties to even", "[kernels][formats]") {
  CHECK(to_fp16(1.0) == 0x3C00);
  CHECK(to_fp16(-2.0) == 0xC000);
  CHECK(to_fp16(65504.0) == 0x7BFF);
  CHECK(to_fp16(1.0 / 3) == 0x3555);
  CHECK(to_fp16(std::ldexp(1.0, -24)) == 0x0001);         // smallest subnormal
  CHECK(to_fp16(std::ldexp(1.0, -14)) == 0x0400);         // smallest normal
  CHECK(to_fp16(std::ldexp(1.0, -25)) == 0x0000);         // half the smallest subnormal: tie to even (0)
  CHECK(to_fp16(3 * std::ldexp(1.0, -25)) == 0x0002);     // 1.5 quanta: tie to even (2)
  CHECK(to_fp16(1.0 + std::ldexp(1.0, -11)) == 0x3C00);   // tie between 0x3C00 and 0x3C01: even
  CHECK(to_fp16(1.0 + 3 * std::ldexp(1.0, -11)) == 0x3C02);
  CHECK(to_fp16(65519.0) == 0x7BFF);                      // below the midpoint to 65536
  CHECK(to_fp16(65520.0) == 0x7C00);                      // the midpoint: ties to even overflow to infinity
  CHECK(to_fp16(kInf) == 0x7C00);
  CHECK(to_fp16(-kInf) == 0xFC00);
  CHECK(std::isnan(from_fp16(to_fp16(kNaN))));
  CHECK(from_fp16(0x7BFF) == 65504.0);
  CHECK(from_fp16(0x03FF) == std::ldexp(1023.0, -24));    // largest subnormal
}

TEST_CASE("bf16 and tf32 round to nearest even", "[kernels][formats]") {
  CHECK(to_bf16(1.0) == 0x3F80);
  CHECK(to_bf16(3.14159265358979) == 0x4049);
  CHECK(to_bf16(std::ldexp(1.0, -126)) == 0x0080);
  CHECK(to_bf16(3.3895313892515355e38) == 0x7F7F);
  CHECK(to_bf16(1.0 + std::ldexp(1.0, -8)) == 0x3F80);      // tie: even
  CHECK(to_bf16(1.0 + 3 * std::ldexp(1.0, -8)) == 0x3F82);  // tie: even (up)
  CHECK(to_bf16(1e39) == 0x7F80);
  CHECK(from_bf16(0x4049) == 3.140625);
  CHECK(round_tf32(1.0 + std::ldexp(1.0, -11)) == 1.0f);                      // tie: even
  CHECK(round_tf32(1.0 + 3 * std::ldexp(1.0, -11)) == 1.0f + 0x1p-9f);        // tie: even (up)
  CHECK(round_tf32(1.0 + std::ldexp(1.0, -10)) == 1.0f + 0x1p-10f);           // representable
  CHECK(round_tf32(-1.0 - std::ldexp(1.0, -12)) == -1.0f);
}

TEST_CASE("E4M3 follows the OCP FP8 spec: no infinity, one NaN, 448", "[kernels][formats]") {
  CHECK(to_e4m3(1.0, Overflow::saturate) == 0x38);
  CHECK(to_e4m3(448.0, Overflow::no_saturate) == 0x7E);
  CHECK(to_e4m3(-448.0, Overflow::no_saturate) == 0xFE);
  CHECK(to_e4m3(std::ldexp(1.0, -6), Overflow::saturate) == 0x08);      // min normal
  CHECK(to_e4m3(std::ldexp(7.0, -9), Overflow::saturate) == 0x07);      // max subnormal
  CHECK(to_e4m3(std::ldexp(1.0, -9), Overflow::saturate) == 0x01);      // min subnormal
  CHECK(to_e4m3(std::ldexp(1.0, -10), Overflow::saturate) == 0x00);     // tie: even (zero)
  CHECK(to_e4m3(std::ldexp(3.0, -10), Overflow::saturate) == 0x02);     // tie: even (up)
  CHECK(to_e4m3(464.0, Overflow::no_saturate) == 0x7E);                 // midpoint 448/480: even is 448
  CHECK(to_e4m3(465.0, Overflow::no_saturate) == 0x7F);                 // overflow without saturation: NaN
  CHECK(to_e4m3(465.0, Overflow::saturate) == 0x7E);                    // saturation: max normal
  CHECK(to_e4m3(kInf, Overflow::no_saturate) == 0x7F);
  CHECK(to_e4m3(-kInf, Overflow::saturate) == 0xFE);
  CHECK((to_e4m3(kNaN, Overflow::saturate) & 0x7F) == 0x7F);            // NaN stays NaN, even saturating
  int nans = 0;
  double max = 0;
  for (int v = 0; v < 256; ++v) {
    const double d = from_e4m3(static_cast<std::uint8_t>(v));
    CHECK_FALSE(std::isinf(d));
    if (std::isnan(d)) ++nans;
    else max = std::max(max, d);
  }
  CHECK(nans == 2);  // 0x7F and 0xFF
  CHECK(max == 448.0);
  CHECK(from_e4m3(0x78) == 256.0);  // S.1111.000 is a number in E4M3, not infinity
}

TEST_CASE("E5M2 follows the OCP FP8 spec: IEEE-style infinity, 57344", "[kernels][formats]") {
  CHECK(to_e5m2(1.0, Overflow::saturate) == 0x3C);
  CHECK(to_e5m2(57344.0, Overflow::no_saturate) == 0x7B);
  CHECK(to_e5m2(std::ldexp(1.0, -14), Overflow::saturate) == 0x04);
  CHECK(to_e5m2(std::ldexp(1.0, -16), Overflow::saturate) == 0x01);
  CHECK(to_e5m2(60000.0, Overflow::no_saturate) == 0x7B);
  CHECK(to_e5m2(61440.0, Overflow::no_saturate) == 0x7C);  // midpoint to 2^16: even rounds up, overflows to infinity
  CHECK(to_e5m2(61440.0, Overflow::saturate) == 0x7B);
  CHECK(to_e5m2(kInf, Overflow::no_saturate) == 0x7C);
  CHECK(to_e5m2(-kInf, Overflow::saturate) == 0xFB);
  CHECK(std::isinf(from_e5m2(0x7C)));
  CHECK(std::isnan(from_e5m2(0x7D)));
  CHECK(std::isnan(from_e5m2(to_e5m2(kNaN, Overflow::saturate))));
  CHECK(from_e5m2(0x7B) == 57344.0);
}

TEST_CASE("every E4M3 and E5M2 value converts back to itself", "[kernels][formats]") {
  for (int v = 0; v < 256; ++v) {
    const auto b = static_cast<std::uint8_t>(v);
    const double d4 = from_e4m3(b), d5 = from_e5m2(b);
    if (!std::isnan(d4)) CHECK(to_e4m3(d4, Overflow::no_saturate) == b);
    if (!std::isnan(d5)) CHECK(to_e5m2(d5, Overflow::no_saturate) == b);
  }
  for (int v = 0; v < 65536; ++v) {
    const auto h = static_cast<std::uint16_t>(v);
    const double d = from_fp16(h);
    if (!std::isnan(d)) REQUIRE(to_fp16(d) == h);
  }
}

TEST_CASE("E2M1, E2M3 and E3M2 follow the OCP MX spec: every code finite, overflow saturates", "[kernels][formats]") {
  const double e2m1[8] = {0, 0.5, 1, 1.5, 2, 3, 4, 6};
  for (int v = 0; v < 8; ++v) {
    CHECK(from_e2m1(static_cast<std::uint8_t>(v)) == e2m1[v]);
    CHECK(from_e2m1(static_cast<std::uint8_t>(v | 8)) == -e2m1[v]);
    CHECK(to_e2m1(e2m1[v]) == v);
  }
  CHECK(to_e2m1(5.0) == 0x6);    // tie between 4 and 6: even mantissa (4)
  CHECK(to_e2m1(2.5) == 0x4);    // tie between 2 and 3: 2
  CHECK(to_e2m1(0.25) == 0x0);   // tie between 0 and 0.5: zero
  CHECK(to_e2m1(0.75) == 0x2);   // tie between 0.5 and 1: 1
  CHECK(to_e2m1(100.0) == 0x7);  // saturates at 6
  CHECK(to_e2m1(-kInf) == 0xF);
  CHECK(from_e2m3(0x01) == 0.125);
  CHECK(from_e2m3(0x08) == 1.0);
  CHECK(from_e2m3(0x1F) == 7.5);
  CHECK(from_e2m3(0x3F) == -7.5);
  CHECK(to_e2m3(7.75) == 0x1F);  // tie with 8 rounds to even (8), which overflows: saturates
  CHECK(from_e3m2(0x01) == 0.0625);
  CHECK(from_e3m2(0x04) == 0.25);
  CHECK(from_e3m2(0x1F) == 28.0);
  CHECK(to_e3m2(1.0) == 0x0C);
  CHECK(to_e3m2(30.0) == 0x1F);
  for (int v = 0; v < 64; ++v) {
    const auto b = static_cast<std::uint8_t>(v);
    const double d3 = from_e2m3(b), d2 = from_e3m2(b);
    CHECK(std::isfinite(d3));
    CHECK(std::isfinite(d2));
    CHECK(to_e2m3(d3) == b);  // 0x20 too: -0 keeps its sign
    CHECK(to_e3m2(d2) == b);
  }
}
