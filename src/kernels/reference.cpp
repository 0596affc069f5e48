// Inputs, expected outputs and tolerances for the kernel checks.
#include "kernels/reference.hpp"

#include <cmath>
#include <cstring>
#include <sstream>

#include "kernels/formats.hpp"

namespace gpucheck::kernels {
namespace {

// SplitMix64: fully specified, so the same seed gives the same inputs with
// any standard library.
struct Rng {
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform(double lo, double hi) { return lo + (hi - lo) * static_cast<double>(next() >> 11) * 0x1p-53; }
  int integer(int lo, int hi) { return lo + static_cast<int>(next() % static_cast<std::uint64_t>(hi - lo + 1)); }
};

std::string prec(const KernelSpec& k) { return k.precision; }
bool is_int(const KernelSpec& k) { return prec(k) == "int8"; }

// Formats of 8 bits and fewer: FP8, FP6, FP4.
bool is_narrow_float(const KernelSpec& k) {
  const std::string p = prec(k);
  return p.rfind("fp8_", 0) == 0 || p.rfind("fp6_", 0) == 0 || p == "fp4";
}

// The unit roundoff assumed for the accumulation of an mma: FP32
// accumulators (2^-23 per addition, doubled for hardware that truncates
// instead of rounding), except FP8 on Hopper, whose tensor cores keep about
// 14 bits while accumulating (DeepSeek-V3 technical report, §3.3.2,
// https://arxiv.org/abs/2412.19437). FP6 and FP4 get FP8's allowance: no
// source states how Blackwell accumulates them.
double accumulation_unit(const KernelSpec& k) {
  return std::ldexp(1.0, is_narrow_float(k) ? -13 : -22);
}

// One input element: a random value rounded to the format; its encoding in
// the format's own width, and its value.
struct Elem {
  std::uint32_t bits;
  double value;
};

Elem random_input(const KernelSpec& k, Rng& rng) {
  const std::string p = prec(k);
  if (p == "int8") {
    const int v = rng.integer(-128, 127);
    return {static_cast<std::uint32_t>(static_cast<std::uint8_t>(static_cast<std::int8_t>(v))), double(v)};
  }
  const double x = rng.uniform(-1, 1);
  if (p == "fp16") { const auto h = to_fp16(x); return {h, from_fp16(h)}; }
  if (p == "bf16") { const auto h = to_bf16(x); return {h, from_bf16(h)}; }
  if (p == "tf32") {
    const float f = round_tf32(x);
    std::uint32_t u;
    std::memcpy(&u, &f, 4);
    return {u, f};
  }
  if (p == "fp8_e4m3") { const auto v = to_e4m3(x, Overflow::saturate); return {v, from_e4m3(v)}; }
  if (p == "fp8_e5m2") { const auto v = to_e5m2(x, Overflow::saturate); return {v, from_e5m2(v)}; }
  // FP6 and FP4 have so few values that a random code, not a rounded
  // uniform draw, is what exercises all of them (up to ±max).
  if (p == "fp6_e3m2") { const auto v = static_cast<std::uint8_t>(rng.integer(0, 63)); return {v, from_e3m2(v)}; }
  if (p == "fp6_e2m3") { const auto v = static_cast<std::uint8_t>(rng.integer(0, 63)); return {v, from_e2m3(v)}; }
  if (p == "fp4") { const auto v = static_cast<std::uint8_t>(rng.integer(0, 15)); return {v, from_e2m1(v)}; }
  return {0, 0};
}

void put(std::vector<std::uint8_t>& buf, std::size_t offset, const void* src, std::size_t n) {
  std::memcpy(buf.data() + offset, src, n);
}

void store_acc(const KernelSpec& k, std::vector<std::uint8_t>& buf, std::size_t index, double v) {
  if (k.elem_bytes == 8) {
    put(buf, index * 8, &v, 8);
  } else if (is_int(k)) {
    const auto i = static_cast<std::int32_t>(v);
    put(buf, index * 4, &i, 4);
  } else {
    const auto f = static_cast<float>(v);
    put(buf, index * 4, &f, 4);
  }
}

// Element `index` of an output buffer, and whether it still holds the poison.
double load_acc(const KernelSpec& k, const std::vector<std::uint8_t>& d, std::size_t index, bool& poisoned) {
  if (k.elem_bytes == 8) {
    std::uint64_t u;
    std::memcpy(&u, d.data() + index * 8, 8);
    poisoned = u == ((std::uint64_t{kPoison} << 32) | kPoison);
    double v;
    std::memcpy(&v, &u, 8);
    return v;
  }
  std::uint32_t u;
  std::memcpy(&u, d.data() + index * 4, 4);
  poisoned = u == kPoison;
  if (is_int(k)) return static_cast<double>(static_cast<std::int32_t>(u));
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

void make_fma(const KernelSpec& k, CheckData& out, Rng& rng) {
  const std::size_t n = static_cast<std::size_t>(out.tiles) * 32;
  out.a.assign(n * k.elem_bytes, 0);
  out.b.assign(n * k.elem_bytes, 0);
  out.c.assign(n * k.chains * k.elem_bytes, 0);
  out.expected.assign(n * k.chains, 0);
  out.tolerance.assign(n * k.chains, 0);  // IEEE 754 fma is correctly rounded: bit-exact
  const bool f64 = k.elem_bytes == 8;
  std::vector<double> av(n), bv(n);
  for (std::size_t i = 0; i < n; ++i) {
    av[i] = rng.uniform(0.5, 1.0);
    bv[i] = rng.uniform(-1, 1);
    if (!f64) { av[i] = static_cast<float>(av[i]); bv[i] = static_cast<float>(bv[i]); }
    store_acc(k, out.a, i, av[i]);
    store_acc(k, out.b, i, bv[i]);
  }
  for (int t = 0; t < out.tiles; ++t)
    for (int j = 0; j < k.chains; ++j)
      for (int lane = 0; lane < 32; ++lane) {
        const std::size_t idx = (static_cast<std::size_t>(t) * k.chains + j) * 32 + lane;
        const std::size_t in = static_cast<std::size_t>(t) * 32 + lane;
        double c = rng.uniform(-1, 1);
        if (!f64) c = static_cast<float>(c);
        store_acc(k, out.c, idx, c);
        if (f64) {
          double x = c;
          for (int u = 0; u < k.unroll; ++u) x = std::fma(av[in], bv[in], x);
          out.expected[idx] = x;
        } else {
          float x = static_cast<float>(c);
          for (int u = 0; u < k.unroll; ++u) x = std::fma(static_cast<float>(av[in]), static_cast<float>(bv[in]), x);
          out.expected[idx] = x;
        }
      }
}

// The expected value of one accumulator: c plus `times` the dot product of A's
// row and B's column, and its tolerance: one unit of accumulation per
// addition, over the magnitude of every term.
void expect(const KernelSpec& k, CheckData& out, std::size_t idx, double c, const std::vector<double>& A,
            const std::vector<double>& B, const MmaShape& s, Coord rc, int times) {
  double dot = 0, mag = 0;
  for (int kk = 0; kk < s.k; ++kk) {
    const double p = A[static_cast<std::size_t>(rc.row * s.k + kk)] * B[static_cast<std::size_t>(kk * s.n + rc.col)];
    dot += p;  // exact in binary64: products of <= 11-bit significands, k <= 32 terms
    mag += std::fabs(p);
  }
  out.expected[idx] = c + times * dot;
  out.tolerance[idx] = is_int(k) ? 0 : (times * s.k + 1) * accumulation_unit(k) * (std::fabs(c) + times * mag);
}

// An input's bits in an mma.sync register: each FP6 and FP4 code in a byte of
// its own, FP6 in bits 5..0, E2M1 in bits 5..2 (PTX ISA, mma ".kind::f8f6f4":
// "resides in central 4 bits"); every other format as it is.
std::uint32_t register_bits(const KernelSpec& k, const Elem& e) { return prec(k) == "fp4" ? e.bits << 2 : e.bits; }

void make_mma(const KernelSpec& k, CheckData& out, Rng& rng) {
  const MmaShape s = shape_of(k);
  const std::size_t tiles = static_cast<std::size_t>(out.tiles);
  const int in_bytes = s.in_bits / 8;
  out.a.assign(tiles * 32 * k.na * 4, 0);
  out.b.assign(tiles * 32 * k.nb * 4, 0);
  const std::size_t nout = tiles * k.chains * 32 * k.nd;
  out.c.assign(nout * 4, 0);
  out.expected.assign(nout, 0);
  out.tolerance.assign(nout, 0);
  for (std::size_t t = 0; t < tiles; ++t) {
    std::vector<double> A(static_cast<std::size_t>(s.m * s.k)), B(static_cast<std::size_t>(s.k * s.n));
    for (int lane = 0; lane < 32; ++lane) {
      for (int i = 0; i < s.a_elems(); ++i) {
        const Elem e = random_input(k, rng);
        const Coord rc = fragment_coord(s, Operand::a, lane, i);
        A[static_cast<std::size_t>(rc.row * s.k + rc.col)] = e.value;
        const std::uint32_t bits = register_bits(k, e);
        put(out.a, (t * 32 + lane) * k.na * 4 + static_cast<std::size_t>(i * in_bytes), &bits, in_bytes);
      }
      for (int i = 0; i < s.b_elems(); ++i) {
        const Elem e = random_input(k, rng);
        const Coord rc = fragment_coord(s, Operand::b, lane, i);
        B[static_cast<std::size_t>(rc.row * s.n + rc.col)] = e.value;
        const std::uint32_t bits = register_bits(k, e);
        put(out.b, (t * 32 + lane) * k.nb * 4 + static_cast<std::size_t>(i * in_bytes), &bits, in_bytes);
      }
    }
    for (int j = 0; j < k.chains; ++j)
      for (int lane = 0; lane < 32; ++lane)
        for (int i = 0; i < s.c_elems(); ++i) {
          const std::size_t idx = ((t * k.chains + j) * 32 + lane) * k.nd + i;
          const double c = is_int(k) ? static_cast<double>(rng.integer(-1000, 1000))
                                      : static_cast<double>(static_cast<float>(rng.uniform(-1, 1)));
          store_acc(k, out.c, idx, c);
          expect(k, out, idx, c, A, B, s, fragment_coord(s, Operand::c, lane, i), 1);
        }
  }
}

void make_wgmma(const KernelSpec& k, CheckData& out, Rng& rng) {
  const MmaShape s = shape_of(k);
  const std::size_t tiles = static_cast<std::size_t>(out.tiles);
  const int in_bytes = s.in_bits / 8;
  const int a_per_warp = 16 * s.k / 32, c_per_warp = 16 * s.n / 32;
  out.a.assign(tiles * 4 * 32 * k.na * 4, 0);
  out.b.assign(tiles * k.nb * 4, 0);
  const std::size_t nout = tiles * 4 * 32 * k.nd;
  out.c.assign(nout * 4, 0);
  out.expected.assign(nout, 0);
  out.tolerance.assign(nout, 0);
  for (std::size_t t = 0; t < tiles; ++t) {
    std::vector<double> A(static_cast<std::size_t>(s.m * s.k)), B(static_cast<std::size_t>(s.k * s.n));
    for (int q = 0; q < 4; ++q)
      for (int lane = 0; lane < 32; ++lane)
        for (int i = 0; i < a_per_warp; ++i) {
          const Elem e = random_input(k, rng);
          const Coord rc = wgmma_coord(s, Operand::a, q, lane, i);
          A[static_cast<std::size_t>(rc.row * s.k + rc.col)] = e.value;
          put(out.a, ((t * 4 + q) * 32 + lane) * k.na * 4 + static_cast<std::size_t>(i * in_bytes), &e.bits, in_bytes);
        }
    for (int n = 0; n < s.n; ++n)
      for (int kk = 0; kk < s.k; ++kk) {
        const Elem e = random_input(k, rng);
        B[static_cast<std::size_t>(kk * s.n + n)] = e.value;
        put(out.b, t * k.nb * 4 + wgmma_b_offset(s, kk, n), &e.bits, in_bytes);
      }
    // One loop trip applies the instruction `unroll` times to the same accumulators.
    for (int q = 0; q < 4; ++q)
      for (int lane = 0; lane < 32; ++lane)
        for (int i = 0; i < c_per_warp; ++i) {
          const std::size_t idx = ((t * 4 + q) * 32 + lane) * k.nd + i;
          const double c = is_int(k) ? static_cast<double>(rng.integer(-1000, 1000))
                                      : static_cast<double>(static_cast<float>(rng.uniform(-1, 1)));
          store_acc(k, out.c, idx, c);
          expect(k, out, idx, c, A, B, s, wgmma_coord(s, Operand::c, q, lane, i), k.unroll);
        }
  }
}

int code_bits(const KernelSpec& k, const MmaShape& s) {
  const std::string p = prec(k);
  return p == "fp4" ? 4 : p.rfind("fp6_", 0) == 0 ? 6 : s.in_bits;
}

void put_bits(std::vector<std::uint8_t>& buf, std::size_t bit, std::uint32_t code, int bits) {
  for (int i = 0; i < bits; ++i, ++bit)
    if (code >> i & 1) buf[bit / 8] |= static_cast<std::uint8_t>(1u << (bit % 8));
}

// A and B as shared-memory images (tcgen05_bit_offset), C and D row-major.
void make_tcgen05(const KernelSpec& k, CheckData& out, Rng& rng) {
  const MmaShape s = shape_of(k);
  const std::size_t tiles = static_cast<std::size_t>(out.tiles);
  const std::size_t a_bytes = static_cast<std::size_t>(k.na) * 4, b_bytes = static_cast<std::size_t>(k.nb) * 4;
  out.a.assign(tiles * a_bytes, 0);
  out.b.assign(tiles * b_bytes, 0);
  const std::size_t nout = tiles * static_cast<std::size_t>(s.m * s.n);
  out.c.assign(nout * 4, 0);
  out.expected.assign(nout, 0);
  out.tolerance.assign(nout, 0);
  const int bits = code_bits(k, s);
  for (std::size_t t = 0; t < tiles; ++t) {
    std::vector<double> A(static_cast<std::size_t>(s.m * s.k)), B(static_cast<std::size_t>(s.k * s.n));
    for (int row = 0; row < s.m; ++row)
      for (int kk = 0; kk < s.k; ++kk) {
        const Elem e = random_input(k, rng);
        A[static_cast<std::size_t>(row * s.k + kk)] = e.value;
        put_bits(out.a, t * a_bytes * 8 + tcgen05_bit_offset(bits, row, kk), e.bits, bits);
      }
    for (int n = 0; n < s.n; ++n)
      for (int kk = 0; kk < s.k; ++kk) {
        const Elem e = random_input(k, rng);
        B[static_cast<std::size_t>(kk * s.n + n)] = e.value;
        put_bits(out.b, t * b_bytes * 8 + tcgen05_bit_offset(bits, n, kk), e.bits, bits);
      }
    for (int row = 0; row < s.m; ++row)
      for (int col = 0; col < s.n; ++col) {
        const std::size_t idx = (t * static_cast<std::size_t>(s.m) + static_cast<std::size_t>(row)) * s.n + col;
        const double c = is_int(k) ? static_cast<double>(rng.integer(-1000, 1000))
                                    : static_cast<double>(static_cast<float>(rng.uniform(-1, 1)));
        store_acc(k, out.c, idx, c);
        expect(k, out, idx, c, A, B, s, {row, col}, k.unroll);
      }
  }
}

}  // namespace

std::size_t CheckData::d_bytes() const { return expected.size() * elem_bytes; }

MmaShape shape_of(const KernelSpec& k) {
  MmaShape s{0, 0, 0, 0};
  std::sscanf(k.shape.c_str(), "m%dn%dk%d", &s.m, &s.n, &s.k);
  const std::string p = prec(k);
  s.in_bits = p == "tf32" ? 32 : (p == "fp16" || p == "bf16") ? 16 : 8;
  return s;
}

CheckData make_check_data(const KernelSpec& k, int tiles, std::uint64_t seed) {
  CheckData out;
  out.tiles = tiles;
  out.elem_bytes = static_cast<std::size_t>(k.elem_bytes);
  Rng rng{seed};
  if (k.kind == KernelKind::fma) make_fma(k, out, rng);
  else if (k.kind == KernelKind::mma) make_mma(k, out, rng);
  else if (k.kind == KernelKind::wgmma) make_wgmma(k, out, rng);
  else if (k.kind == KernelKind::tcgen05) make_tcgen05(k, out, rng);
  return out;
}

Comparison compare(const KernelSpec& k, const CheckData& data, const std::vector<std::uint8_t>& d) {
  Comparison r;
  const std::size_t n = std::min(data.expected.size(), d.size() / data.elem_bytes);
  r.wrong = data.expected.size() - n;  // a short read-back fails what it lacks
  r.checked = data.expected.size();
  for (std::size_t i = 0; i < n; ++i) {
    bool poisoned = false;
    const double got = load_acc(k, d, i, poisoned);
    const double want = data.expected[i], tol = data.tolerance[i];
    const double err = std::fabs(got - want);
    const bool bad = poisoned || std::isnan(got) || !(err <= tol);
    if (poisoned) ++r.unwritten;
    else if (std::isnan(got)) ++r.nan;
    else if (std::isfinite(err)) r.max_abs_error = std::max(r.max_abs_error, err);
    if (!bad) continue;
    ++r.wrong;
    if (r.first_mismatch.empty()) {
      const std::size_t per_lane = static_cast<std::size_t>(k.nd);
      const std::size_t lane_index = i / per_lane, reg = i % per_lane;
      const std::size_t lane = lane_index % 32, chain = (lane_index / 32) % k.chains,
                        warp = lane_index / 32 / k.chains;
      std::ostringstream m;
      m.precision(9);
      m << "element " << i << " (tile ";
      // tcgen05: a row of the accumulator per thread; wgmma: a warpgroup a tile.
      if (k.kind == KernelKind::tcgen05) m << lane_index / 128 << ", row " << lane_index % 128 << ", column " << reg;
      else if (k.kind == KernelKind::wgmma) m << warp / 4 << ", warp " << warp % 4 << ", lane " << lane << ", register " << reg;
      else m << warp << ", chain " << chain << ", lane " << lane << ", register " << reg;
      m << "): got " << (poisoned ? std::string("the poison (never written)") : "");
      if (!poisoned) m << got;
      m << ", expected " << want << " ± " << tol;
      r.first_mismatch = m.str();
    }
  }
  return r;
}

std::uint64_t count_unwritten(const KernelSpec& k, const std::vector<std::uint8_t>& d) {
  std::uint64_t n = 0;
  for (std::size_t i = 0; i < d.size() / static_cast<std::size_t>(k.elem_bytes); ++i) {
    bool poisoned = false;
    const double v = load_acc(k, d, i, poisoned);
    if (poisoned || std::isnan(v)) ++n;
  }
  return n;
}

std::string tolerance_rule(const KernelSpec& k) {
  if (k.kind == KernelKind::fma) return "bit-exact: an IEEE 754 fused multiply-add is correctly rounded";
  if (is_int(k)) return "exact: INT8 products accumulate in int32 without rounding";
  const int bits = is_narrow_float(k) ? 13 : 22;
  const std::string unit = " * 2^-" + std::to_string(bits);
  if (k.unroll == 1) return "|error| <= (k+1)" + unit + " * (sum |a*b| + |c|)";
  const std::string u = std::to_string(k.unroll);
  return "|error| <= (" + u + "k+1)" + unit + " * (" + u + " * sum |a*b| + |c|): " + u +
         " instructions accumulate into the same registers";
}

}  // namespace gpucheck::kernels
