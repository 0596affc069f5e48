// The CPU reference of the kernel checks: fragment layouts cover each matrix
// exactly once (PTX ISA "Matrix Fragments for mma"), INT8 accumulates exactly
// in int32, NaN and unwritten outputs never pass, and the embedded PTX is the
// committed PTX.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <set>
#include <string>

#include "kernels/catalog.hpp"
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

TEST_CASE("the right answer passes, a wrong, NaN or unwritten element fails", "[kernels][reference]") {
  for (auto& k : all_kernels()) {
    if (k.kind == KernelKind::copy) continue;
    INFO(k.entry);
    const CheckData data = make_check_data(k, 2, 42);
    REQUIRE(data.expected.size() == static_cast<std::size_t>(2 * k.chains * 32 * k.nd));
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
