// One rounding routine for every binary floating-point format: round the
// magnitude to the format's quantum at its exponent (ties to even), then
// encode, with the format's own overflow and NaN rules.
#include "kernels/formats.hpp"

#include <cfenv>
#include <cmath>
#include <cstring>
#include <limits>

namespace gpucheck::kernels {
namespace {

struct Format {
  int exp_bits, man_bits, bias;
  bool has_inf;             // IEEE-style: all-ones exponent is Inf/NaN
  std::uint32_t nan_code;   // the NaN this conversion produces (without sign)
  double max_finite;
  bool has_nan = true;      // false: the MX formats, where every code is finite
};

constexpr Format kFp16{5, 10, 15, true, 0x7E00u, 65504.0};
constexpr Format kBf16{8, 7, 127, true, 0x7FC0u, 3.3895313892515355e38};
constexpr Format kE4m3{4, 3, 7, false, 0x7Fu, 448.0};
constexpr Format kE5m2{5, 2, 15, true, 0x7Eu, 57344.0};
constexpr Format kE2m1{2, 1, 1, false, 0, 6.0, false};
constexpr Format kE2m3{2, 3, 1, false, 0, 7.5, false};
constexpr Format kE3m2{3, 2, 3, false, 0, 28.0, false};

// x rounded to the format's precision with an unbounded exponent range above
// (overflow is decided by the caller) and gradual underflow below.
double round_to(const Format& f, double a) {
  int e = 0;
  std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1): the leading bit has exponent e-1
  const int emin = 1 - f.bias;
  const int lead = std::max(e - 1, emin);
  const double quantum = std::ldexp(1.0, lead - f.man_bits);
  const double q = a / quantum;  // exact: a scaling by a power of two
  // nearbyint honours the current rounding mode; the default is to nearest, ties to even.
  const int saved = std::fegetround();
  std::fesetround(FE_TONEAREST);
  const double r = std::nearbyint(q);
  std::fesetround(saved);
  return r * quantum;
}

std::uint32_t encode(const Format& f, double x, bool saturate) {
  const std::uint32_t sign = std::signbit(x) ? 1u << (f.exp_bits + f.man_bits) : 0u;
  const std::uint32_t exp_all = (1u << f.exp_bits) - 1;
  if (std::isnan(x)) return sign | f.nan_code;
  double a = std::fabs(x);
  if (std::isinf(a) || round_to(f, a) > f.max_finite) {
    if (saturate) a = f.max_finite;
    else if (f.has_inf) return sign | (exp_all << f.man_bits);
    else return sign | f.nan_code;
  } else {
    a = round_to(f, a);
  }
  if (a == 0) return sign;
  int e = 0;
  const double m = std::frexp(a, &e);  // a = m * 2^e
  int biased = e - 1 + f.bias;
  std::uint32_t frac;
  if (biased <= 0) {  // subnormal: a = frac * 2^(1 - bias - man_bits)
    frac = static_cast<std::uint32_t>(std::ldexp(a, f.bias - 1 + f.man_bits));
    biased = 0;
  } else {
    frac = static_cast<std::uint32_t>(std::ldexp(m * 2 - 1, f.man_bits));
  }
  return sign | (static_cast<std::uint32_t>(biased) << f.man_bits) | frac;
}

double decode(const Format& f, std::uint32_t v) {
  const std::uint32_t man_mask = (1u << f.man_bits) - 1, exp_all = (1u << f.exp_bits) - 1;
  const bool neg = (v >> (f.exp_bits + f.man_bits)) & 1u;
  const std::uint32_t exp = (v >> f.man_bits) & exp_all, man = v & man_mask;
  double a;
  if (f.has_inf && exp == exp_all) {
    a = man ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  } else if (!f.has_inf && f.has_nan && exp == exp_all && man == man_mask) {
    a = std::numeric_limits<double>::quiet_NaN();
  } else if (exp == 0) {
    a = std::ldexp(static_cast<double>(man), 1 - f.bias - f.man_bits);
  } else {
    a = std::ldexp(1.0 + static_cast<double>(man) / (1u << f.man_bits), static_cast<int>(exp) - f.bias);
  }
  return neg ? -a : a;
}

}  // namespace

std::uint16_t to_fp16(double x) { return static_cast<std::uint16_t>(encode(kFp16, x, false)); }
double from_fp16(std::uint16_t h) { return decode(kFp16, h); }
std::uint16_t to_bf16(double x) { return static_cast<std::uint16_t>(encode(kBf16, x, false)); }
double from_bf16(std::uint16_t h) { return decode(kBf16, h); }

float round_tf32(double x) {
  // TF32 has binary32's exponent range and 10 fraction bits: the bf16 routine
  // with three more fraction bits.
  constexpr Format kTf32{8, 10, 127, true, 0, 3.4011621342146535e38};
  if (std::isnan(x)) return std::numeric_limits<float>::quiet_NaN();
  const double a = std::fabs(x);
  double r = std::isinf(a) ? a : round_to(kTf32, a);
  if (r > kTf32.max_finite) r = std::numeric_limits<double>::infinity();
  return static_cast<float>(std::signbit(x) ? -r : r);
}

std::uint8_t to_e4m3(double x, Overflow mode) {
  return static_cast<std::uint8_t>(encode(kE4m3, x, mode == Overflow::saturate));
}
double from_e4m3(std::uint8_t v) { return decode(kE4m3, v); }
std::uint8_t to_e5m2(double x, Overflow mode) {
  return static_cast<std::uint8_t>(encode(kE5m2, x, mode == Overflow::saturate));
}
double from_e5m2(std::uint8_t v) { return decode(kE5m2, v); }

// NaN has no code in the MX formats; it saturates like an overflow (never fed
// to the GPU: the checks draw finite inputs).
std::uint8_t to_e2m1(double x) { return static_cast<std::uint8_t>(encode(kE2m1, std::isnan(x) ? 7.0 : x, true)); }
double from_e2m1(std::uint8_t v) { return decode(kE2m1, v & 0xFu); }
std::uint8_t to_e2m3(double x) { return static_cast<std::uint8_t>(encode(kE2m3, std::isnan(x) ? 8.0 : x, true)); }
double from_e2m3(std::uint8_t v) { return decode(kE2m3, v & 0x3Fu); }
std::uint8_t to_e3m2(double x) { return static_cast<std::uint8_t>(encode(kE3m2, std::isnan(x) ? 29.0 : x, true)); }
double from_e3m2(std::uint8_t v) { return decode(kE3m2, v & 0x3Fu); }

}  // namespace gpucheck::kernels
