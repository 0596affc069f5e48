// The CPU reference of the kernel checks: fragment layouts cover each matrix
// exactly once (PTX ISA "Matrix Fragments for mma"), INT8 accumulates exactly
// in int32, NaN and unwritten outputs never pass, and the embedded PTX is the
// committed PTX.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <set>
#include <string>

#include "kernels/catalog.hpp"
#include "kernels/formats.hpp"
#include "kernels/reference.hpp"
#include "test_support.hpp"

using namespace gpucheck::kernels;

namespace {
const KernelSpec& kernel(const std::string& entry) {
  for (auto& k : all_kernels())
    if (entry == k.entry) return k;
  FAIL("no kernel " << entry);
  throw;
}

// What the GPU would write if it were right: the expected values, encoded.
std::vector<std::uint8_t> encode(const KernelSpec& k, const std::vector<double>& v) {
  std::vector<std::uint8_t> out(v.size() * static_cast<std::size_t>(k.elem_bytes));
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (k.elem_bytes == 8) std::memcpy(&out[i * 8], &v[i], 8);
    else if (std::string(k.precision) == "int8") { auto x = static_cast<std::int32_t>(v[i]); std::memcpy(&out[i * 4], &x, 4); }
    else { auto f = static_cast<float>(v[i]); std::memcpy(&out[i * 4], &f, 4); }
  }
  return out;
}
}  // namespace

TEST_CASE("every mma fragment layout covers its matrices exactly once", "[kernels][reference]") {
  for (auto& k : all_kernels()) {
    if (k.kind != KernelKind::mma) continue;
    const MmaShape s = shape_of(k);
    INFO(k.entry);
    for (auto [op, rows, cols, per_lane] : {std::tuple{Operand::a, s.m, s.k, s.a_elems()},
                                          std::tuple{Operand::b, s.k, s.n, s.b_elems()},
                                          std::tuple{Operand::c, s.m, s.n, s.c_elems()}}) {
      std::set<std::pair<int, int>> seen;
      for (int lane = 0; lane < 32; ++lane)
        for (int i = 0; i < per_lane; ++i) {
          const Coord c = fragment_coord(s, op, lane, i);
          REQUIRE(c.row >= 0);
          REQUIRE(c.row < rows);
          REQUIRE(c.col >= 0);
          REQUIRE(c.col < cols);
          seen.insert({c.row, c.col});
        }
      CHECK(seen.size() == static_cast<std::size_t>(rows * cols));
    }
    // Registers per lane agree with the catalog: elements * bits / 32.
    CHECK(s.a_elems() * s.in_bits / 32 == k.na);
    CHECK(s.b_elems() * s.in_bits / 32 == k.nb);
    CHECK(s.c_elems() == k.nd);
  }
}

TEST_CASE("fragment layouts match the PTX ISA figures at sample points", "[kernels][reference]") {
  // m16n8k16 .f16 A: a6 of lane 5 (groupID 1, threadID_in_group 1) is row 9, column 10.
  CHECK(fragment_coord({16, 8, 16, 16}, Operand::a, 5, 6).row == 9);
  CHECK(fragment_coord({16, 8, 16, 16}, Operand::a, 5, 6).col == 10);
  // m16n8k8 .tf32 A: a1 of lane 0 is row 8, column 0; a2 is row 0, column 4.
  CHECK(fragment_coord({16, 8, 8, 32}, Operand::a, 0, 1).row == 8);
  CHECK(fragment_coord({16, 8, 8, 32}, Operand::a, 0, 2).col == 4);
  // m16n8k32 .s8 B: b4 of lane 2 (threadID_in_group 2) is row 24, column 0.
  CHECK(fragment_coord({16, 8, 32, 8}, Operand::b, 2, 4).row == 24);
  // C of m16n8: c3 of lane 31 is row 15, column 7.
  CHECK(fragment_coord({16, 8, 16, 16}, Operand::c, 31, 3).row == 15);
  CHECK(fragment_coord({16, 8, 16, 16}, Operand::c, 31, 3).col == 7);
}

TEST_CASE("every wgmma layout covers its matrices exactly once", "[kernels][reference]") {
  int seen_kernels = 0;
  for (auto& k : all_kernels()) {
    if (k.kind != KernelKind::wgmma) continue;
    ++seen_kernels;
    const MmaShape s = shape_of(k);
    INFO(k.entry);
    const int a_per_warp = 16 * s.k / 32, c_per_warp = 16 * s.n / 32;
    for (auto [op, cols, per_lane] : {std::tuple{Operand::a, s.k, a_per_warp}, std::tuple{Operand::c, s.n, c_per_warp}}) {
      std::set<std::pair<int, int>> seen;
      for (int warp = 0; warp < 4; ++warp)
        for (int lane = 0; lane < 32; ++lane)
          for (int i = 0; i < per_lane; ++i) {
            const Coord c = wgmma_coord(s, op, warp, lane, i);
            REQUIRE(c.row >= 16 * warp);
            REQUIRE(c.row < 16 * warp + 16);  // a warp's own 16 rows
            REQUIRE(c.col >= 0);
            REQUIRE(c.col < cols);
            seen.insert({c.row, c.col});
          }
      CHECK(seen.size() == static_cast<std::size_t>(64 * cols));
    }
    // B's shared-memory image: every element's bytes once, nothing outside it.
    const int bytes = s.in_bits / 8;
    std::set<std::size_t> offsets;
    for (int kk = 0; kk < s.k; ++kk)
      for (int n = 0; n < s.n; ++n) {
        const std::size_t o = wgmma_b_offset(s, kk, n);
        REQUIRE(o % static_cast<std::size_t>(bytes) == 0);
        REQUIRE(o + static_cast<std::size_t>(bytes) <= static_cast<std::size_t>(k.nb) * 4);
        offsets.insert(o);
      }
    CHECK(offsets.size() == static_cast<std::size_t>(s.k * s.n));
    CHECK(static_cast<std::size_t>(k.nb) * 4 == static_cast<std::size_t>(s.k * s.n * bytes));
    CHECK(a_per_warp * s.in_bits / 32 == k.na);
    CHECK(c_per_warp == k.nd);
  }
  CHECK(seen_kernels == 6);  // fp16, bf16, tf32, int8, e4m3, e5m2
}

TEST_CASE("wgmma layouts at sample points", "[kernels][reference]") {
  // Accumulator of m64nNk16: warp 2, lane 5 (groupID 1, threadID_in_group 1),
  // d6: row 16*2 + 1 + 8 (d2, d3 of each group of four are 8 rows down),
  // column 8 * (6 / 4) + 2 * 1 + 0.
  CHECK(wgmma_coord({64, 256, 16, 16}, Operand::c, 2, 5, 6).row == 41);
  CHECK(wgmma_coord({64, 256, 16, 16}, Operand::c, 2, 5, 6).col == 10);
  // A of m64nNk32 .s8: warp 3's a9 of lane 6 is mma.m16n8k32's (row 1, column 25), 48 rows down.
  CHECK(wgmma_coord({64, 256, 32, 8}, Operand::a, 3, 6, 9).row == 49);
  CHECK(wgmma_coord({64, 256, 32, 8}, Operand::a, 3, 6, 9).col == 25);
  // B (fp16) element k=9, n=10: 8-column group 1 (256), second core matrix
  // along K (128), row 2 of it (32), byte 18 % 16 = 2 of that row.
  CHECK(wgmma_b_offset({64, 256, 16, 16}, 9, 10) == 418u);
}

TEST_CASE("wgmma expectations are the instruction applied four times to the encoded inputs", "[kernels][reference]") {
  // Decodes the bytes the kernel would load through the layouts, and
  // recomputes one accumulator: INT8, so the sums are exact.
  const auto& k = kernel("gpucheck_wgmma_s8_m64n256k32");
  const MmaShape s = shape_of(k);
  const CheckData data = make_check_data(k, 2, 11);
  const int tile = 1, warp = 2, lane = 13;
  std::vector<int> A(64 * 32), B(32 * 256);
  for (int q = 0; q < 4; ++q)
    for (int l = 0; l < 32; ++l)
      for (int i = 0; i < 16; ++i) {
        const Coord c = wgmma_coord(s, Operand::a, q, l, i);
        A[static_cast<std::size_t>(c.row * 32 + c.col)] =
            static_cast<std::int8_t>(data.a[static_cast<std::size_t>(((tile * 4 + q) * 32 + l) * k.na * 4 + i)]);
      }
  for (int kk = 0; kk < 32; ++kk)
    for (int n = 0; n < 256; ++n)
      B[static_cast<std::size_t>(kk * 256 + n)] =
          static_cast<std::int8_t>(data.b[static_cast<std::size_t>(tile * k.nb * 4) + wgmma_b_offset(s, kk, n)]);
  for (int i : {0, 3, 77, 127}) {
    const std::size_t idx = static_cast<std::size_t>(((tile * 4 + warp) * 32 + lane) * k.nd + i);
    std::int32_t c;
    std::memcpy(&c, &data.c[idx * 4], 4);
    const Coord rc = wgmma_coord(s, Operand::c, warp, lane, i);
    long dot = 0;
    for (int kk = 0; kk < 32; ++kk) dot += long{A[static_cast<std::size_t>(rc.row * 32 + kk)]} * B[static_cast<std::size_t>(kk * 256 + rc.col)];
    CHECK(data.expected[idx] == static_cast<double>(c + k.unroll * dot));
    CHECK(data.tolerance[idx] == 0);
  }
  CHECK(k.unroll == 4);
  CHECK(tolerance_rule(kernel("gpucheck_wgmma_bf16_m64n256k16")).find("(4k+1)") != std::string::npos);
}

TEST_CASE("every tcgen05 image holds each element's bits once, FP4 and FP6 leave each segment's padding clear", "[kernels][reference]") {
  int seen_kernels = 0;
  for (auto& k : all_kernels()) {
    if (k.kind != KernelKind::tcgen05) continue;
    ++seen_kernels;
    INFO(k.entry);
    const MmaShape s = shape_of(k);
    const std::string p = k.precision;
    const int bits = p == "fp4" ? 4 : p.rfind("fp6_", 0) == 0 ? 6 : s.in_bits;
    CHECK(s.m == 128);
    CHECK(s.n == 256);
    CHECK(s.k * (bits < 8 ? 8 : bits) == 256);  // 32 bytes of K a row
    CHECK(k.nd == s.n);  // a thread holds one accumulator row
    for (auto [rows, words] : {std::pair{s.m, k.na}, std::pair{s.n, k.nb}}) {
      CHECK(static_cast<std::size_t>(words) * 4 == static_cast<std::size_t>(rows) * 32);  // 32 bytes a row
      std::vector<int> owner(static_cast<std::size_t>(words) * 32, -1);
      for (int row = 0; row < rows; ++row)
        for (int kk = 0; kk < s.k; ++kk) {
          const std::size_t at = tcgen05_bit_offset(bits, row, kk);
          for (int b = 0; b < bits; ++b) {
            REQUIRE(at + static_cast<std::size_t>(b) < owner.size());
            REQUIRE(owner[at + static_cast<std::size_t>(b)] == -1);
            owner[at + static_cast<std::size_t>(b)] = row * s.k + kk;
          }
        }
      // In each 16-byte segment, FP4's and FP6's 16 codes fill the low 8 or
      // 12 bytes, the rest is padding; the wider formats fill it.
      for (std::size_t bit = 0; bit < owner.size(); ++bit)
        CHECK((owner[bit] >= 0) == (bit % 128 < static_cast<std::size_t>(bits < 8 ? 16 * bits : 128)));
    }
  }
  // f16, bf16, tf32, e4m3, e5m2, s8; e2m1, e3m2, e2m3 at sm_100f and at sm_100a
  CHECK(seen_kernels == 12);
}

TEST_CASE("tcgen05 image offsets at sample points", "[kernels][reference]") {
  // Row 9, k = 17: 8-row group 1 (256 bytes), second 16-byte segment along K
  // (128), row 1 of the core matrix (16); element 1 of that segment's codes.
  CHECK(tcgen05_bit_offset(4, 9, 17) == 400u * 8 + 4);
  CHECK(tcgen05_bit_offset(6, 9, 17) == 400u * 8 + 6);
  CHECK(tcgen05_bit_offset(8, 9, 17) == 400u * 8 + 8);
  CHECK(tcgen05_bit_offset(8, 9, 17) / 8 == wgmma_b_offset({64, 256, 32, 8}, 17, 9));  // FP8: wgmma's B image
  CHECK(tcgen05_bit_offset(6, 0, 15) == 90u);  // the last code of a segment ends at bit 95, byte 11
  CHECK(tcgen05_bit_offset(16, 9, 9) == 400u * 8 + 16);  // 8 a segment: k = 9 is the second of the second
  CHECK(tcgen05_bit_offset(32, 9, 5) == 400u * 8 + 32);  // 4 a segment
  // 8, 16 and 32 bits: the image wgmma's B uses, whose layout was checked
  // against CUTLASS's (docs/kernels.md).
  for (int bits : {8, 16, 32})
    for (int row : {0, 7, 8, 131, 255})
      for (int kk = 0; kk < 256 / bits; ++kk)
        CHECK(tcgen05_bit_offset(bits, row, kk) == 8 * wgmma_b_offset({64, 256, 256 / bits, bits}, kk, row));
}

TEST_CASE("tcgen05 expectations are the instruction applied four times to the decoded images, FP4, FP6 and INT8", "[kernels][reference]") {
  // Decodes A and B from the shared-memory images the kernel copies, and
  // recomputes accumulators: FP4 and FP6 products and their sums of 32 are
  // exact in binary64, so only C's float rounding is left and it is exact too.
  for (const char* entry : {"gpucheck_tcgen05_e2m1_m128n256k32", "gpucheck_tcgen05_e3m2_m128n256k32",
                            "gpucheck_tcgen05_e2m3_m128n256k32"}) {
    INFO(entry);
    const auto& k = kernel(entry);
    const std::string p = k.precision;
    const int bits = p == "fp4" ? 4 : 6;
    const auto decode = [&](std::uint8_t code) {
      return p == "fp4" ? from_e2m1(code) : p == "fp6_e3m2" ? from_e3m2(code) : from_e2m3(code);
    };
    const auto code_at = [&](const std::vector<std::uint8_t>& image, std::size_t base, std::size_t bit) {
      unsigned v = 0;
      for (int b = 0; b < bits; ++b, ++bit) v |= ((image[base + bit / 8] >> (bit % 8)) & 1u) << b;
      return static_cast<std::uint8_t>(v);
    };
    const MmaShape s = shape_of(k);
    const CheckData data = make_check_data(k, 2, 11);
    const std::size_t tile = 1;
    std::set<std::uint8_t> codes;
    for (auto [row, col] : {std::pair{0, 0}, std::pair{9, 17}, std::pair{127, 255}, std::pair{64, 130}}) {
      double dot = 0;
      for (int kk = 0; kk < s.k; ++kk) {
        const std::uint8_t a = code_at(data.a, tile * k.na * 4, tcgen05_bit_offset(bits, row, kk));
        const std::uint8_t b = code_at(data.b, tile * k.nb * 4, tcgen05_bit_offset(bits, col, kk));
        codes.insert(a);
        dot += decode(a) * decode(b);
      }
      const std::size_t idx = (tile * 128 + static_cast<std::size_t>(row)) * 256 + static_cast<std::size_t>(col);
      float c;
      std::memcpy(&c, &data.c[idx * 4], 4);
      CHECK(data.expected[idx] == c + k.unroll * dot);
      CHECK(data.tolerance[idx] > 0);
    }
    CHECK(codes.size() > 8);  // random codes, not one value
  }
  {  // INT8: exact sums; each code a byte of the image.
    const auto& k = kernel("gpucheck_tcgen05_s8_m128n256k32");
    const CheckData data = make_check_data(k, 2, 11);
    const std::size_t tile = 1;
    for (auto [row, col] : {std::pair{0, 0}, std::pair{9, 17}, std::pair{127, 255}}) {
      long dot = 0;
      for (int kk = 0; kk < 32; ++kk)
        dot += long{static_cast<std::int8_t>(data.a[tile * k.na * 4 + tcgen05_bit_offset(8, row, kk) / 8])} *
               static_cast<std::int8_t>(data.b[tile * k.nb * 4 + tcgen05_bit_offset(8, col, kk) / 8]);
      const std::size_t idx = (tile * 128 + static_cast<std::size_t>(row)) * 256 + static_cast<std::size_t>(col);
      std::int32_t c;
      std::memcpy(&c, &data.c[idx * 4], 4);
      CHECK(data.expected[idx] == static_cast<double>(c + k.unroll * dot));
      CHECK(data.tolerance[idx] == 0);
    }
  }
}

TEST_CASE("the right answer passes, a wrong, NaN or unwritten element fails", "[kernels][reference]") {
  for (auto& k : all_kernels()) {
    if (k.kind == KernelKind::copy) continue;
    INFO(k.entry);
    const CheckData data = make_check_data(k, 2, 42);
    REQUIRE(data.expected.size() == static_cast<std::size_t>(2 * warps_per_tile(k) * k.chains * 32 * k.nd));
    REQUIRE(data.c.size() == data.d_bytes());
    auto good = encode(k, data.expected);
    auto r = compare(k, data, good);
    CHECK(r.wrong == 0);
    CHECK(r.checked == data.expected.size());

    auto off = data.expected;
    off[7] += std::max(1.0, 4 * data.tolerance[7]);
    r = compare(k, data, encode(k, off));
    CHECK(r.wrong == 1);
    CHECK(r.first_mismatch.find("element 7 ") == 0);

    auto poisoned = good;
    std::memcpy(&poisoned[3 * static_cast<std::size_t>(k.elem_bytes)], &kPoison, 4);
    if (k.elem_bytes == 8) std::memcpy(&poisoned[3 * 8 + 4], &kPoison, 4);
    r = compare(k, data, poisoned);
    CHECK(r.wrong == 1);
    CHECK(r.unwritten == 1);
    CHECK(count_unwritten(k, poisoned) == 1);

    if (std::string(k.precision) != "int8") {
      auto nan = data.expected;
      nan[0] = std::nan("");
      r = compare(k, data, encode(k, nan));
      CHECK(r.nan == 1);
      CHECK(r.wrong == 1);
    }
    // A short read-back fails what it lacks.
    good.resize(good.size() - static_cast<std::size_t>(k.elem_bytes));
    CHECK(compare(k, data, good).wrong == 1);
  }
}

TEST_CASE("INT8 expectations are exact int32 sums and FMA ones are bit-exact", "[kernels][reference]") {
  const auto& k = kernel("gpucheck_mma_s8_m16n8k32");
  const CheckData data = make_check_data(k, 4, 7);
  double largest = 0;
  for (std::size_t i = 0; i < data.expected.size(); ++i) {
    CHECK(data.tolerance[i] == 0);
    CHECK(data.expected[i] == std::floor(data.expected[i]));
    largest = std::max(largest, std::fabs(data.expected[i]));
  }
  CHECK(largest > 32767);  // beyond int16: the accumulator must be int32
  CHECK(largest <= 32 * 128 * 128 + 1000);
  // One off in the last place of an INT8 sum is wrong.
  auto off = data.expected;
  off[1] += 1;
  CHECK(compare(k, data, encode(k, off)).wrong == 1);
  const auto& f = kernel("gpucheck_fma_f32");
  for (double t : make_check_data(f, 1, 1).tolerance) CHECK(t == 0);
  CHECK(tolerance_rule(f).find("bit-exact") == 0);
}

TEST_CASE("inputs are already in the format: the fp16 bytes are the rounded values", "[kernels][reference]") {
  const auto& k = kernel("gpucheck_mma_f16_m16n8k16");
  const CheckData a = make_check_data(k, 1, 3), b = make_check_data(k, 1, 3), c = make_check_data(k, 1, 4);
  CHECK(a.a == b.a);  // deterministic for a seed
  CHECK(a.a != c.a);
  CHECK(a.a.size() == 32u * 4 * 4);
}

TEST_CASE("FP4 inputs sit in bits 5..2 of their byte, FP6 in bits 5..0, and cover every code", "[kernels][reference]") {
  for (auto [entry, low_zero_bits, codes] : {std::tuple{"gpucheck_mma_e2m1_m16n8k32", 2, 16},
                                            std::tuple{"gpucheck_mma_e3m2_m16n8k32", 0, 64},
                                            std::tuple{"gpucheck_mma_e2m3_m16n8k32", 0, 64}}) {
    INFO(entry);
    const CheckData data = make_check_data(kernel(entry), 4, 5);
    std::set<int> seen;
    for (std::uint8_t b : data.a) {
      CHECK((b & 0xC0) == 0);  // the top two bits are padding
      CHECK((b & ((1 << low_zero_bits) - 1)) == 0);
      seen.insert(b >> low_zero_bits);
    }
    CHECK(seen.size() == static_cast<std::size_t>(codes));
  }
}

TEST_CASE("every committed PTX file is a kernel of the catalog", "[kernels][catalog]") {
  std::set<std::string> committed, embedded;
  for (auto& e : std::filesystem::directory_iterator(gpucheck::test::source_path("src/kernels/ptx")))
    if (e.path().extension() == ".ptx") committed.insert(e.path().stem().string());
  for (auto& k : all_kernels()) embedded.insert(k.entry);
  CHECK(committed.size() > 30);
  CHECK(embedded == committed);
}

TEST_CASE("a kernel's description is read from its PTX header", "[kernels][catalog]") {
  const std::string ptx = "// gpucheck-kernel: precision=bf16 kind=wgmma shape=m64n256k16 na=4 nb=2048 nd=128 "
                          "elem_bytes=4 chains=1 unroll=4 flops_per_op=131072\n"
                          "// gpucheck-instruction: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16\n"
                          ".version 8.0\n.target sm_90a\n.address_size 64\n\n.visible .entry gpucheck_x(\n)\n{\n}\n";
  auto k = read_kernel_spec(ptx.c_str());
  REQUIRE(k);
  CHECK(k->precision == "bf16");
  CHECK(k->kind == KernelKind::wgmma);
  CHECK(k->entry == "gpucheck_x");
  CHECK(k->target == "sm_90a");
  CHECK(k->isa == "8.0");
  CHECK(k->nb == 2048);
  CHECK(k->flops_per_op == 131072);
  CHECK(k->instruction == "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16");
  CHECK(target_kind(*k) == TargetKind::arch_specific);
  CHECK(target_number(*k) == 90);
  CHECK(warps_per_tile(*k) == 4);

  // Each missing or malformed part makes it no kernel, not a half-filled one.
  for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"kind=wgmma", "kind=warp"}, {"na=4", "na=four"}, {"nb=2048 ", "nb2048 "}, {".target sm_90a\n", ""},
           {"// gpucheck-instruction:", "// instruction:"}, {".visible .entry", ".entry"}, {"precision=bf16 ", ""}}) {
    INFO(from << " -> " << to);
    std::string bad = ptx;
    bad.replace(bad.find(from), from.size(), to);
    CHECK_FALSE(read_kernel_spec(bad.c_str()));
  }
}

TEST_CASE("compute capabilities read as numbers, or not at all", "[kernels][catalog]") {
  CHECK(cc_number("9.0") == 90);
  CHECK(cc_number("12.1") == 121);
  for (const char* bad : {"", "9", "9.", ".0", "9.0a", "a.0", "-9.0", "9.-1", "9..0"}) {
    INFO(bad);
    CHECK_FALSE(cc_number(bad));
  }
}

TEST_CASE("the embedded PTX is the committed PTX, at its declared version and target", "[kernels][catalog]") {
  for (auto& k : all_kernels()) {
    INFO(k.entry);
    const std::string file = gpucheck::test::read_file(gpucheck::test::source_path(std::string("src/kernels/ptx/") + k.entry + ".ptx"));
    CHECK(file == k.ptx);
    CHECK(file.find(std::string("\n.version ") + k.isa + "\n") != std::string::npos);
    CHECK(file.find(std::string("\n.target ") + k.target + "\n") != std::string::npos);
    CHECK(file.find(std::string(".entry ") + k.entry + "(") != std::string::npos);
  }
}
