// float16, bfloat16, int8, uint8, int16 and uint16, held in 4-byte lanes:
// rounding against every value of each float format (enumerated from its
// bits by ldexp, independent of the conversion under test), integer wrapping
// against C++'s own narrow types, results narrowed after every equation,
// conversions, bitcasts and names (the bytes collectives report: ir_parallel_test).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "exec/lockstep_program.h"
#include "ir/forms/print.h"
#include "ir/tracing/ops.h"
#include "ir_checks.h"
#include "test_util.h"

namespace shardlab::ir {
namespace {

using exec::as_floats;
using exec::as_ints;
using exec::host_array;
using exec::host_f32;

// Every finite value of a binary float format with `mant` mantissa bits and
// exponent bias `bias`, sorted (each from its fields by ldexp), and its largest.
std::vector<double> format_values(int exp_bits, int mant, int bias) {
  std::vector<double> v;
  for (int e = 0; e < (1 << exp_bits) - 1; ++e)
    for (int m = 0; m < (1 << mant); ++m) {
      const double x = e == 0 ? std::ldexp(m, 1 - bias - mant) : std::ldexp((1 << mant) + m, e - bias - mant);
      v.push_back(x);
      v.push_back(-x);
    }
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

// The nearest value of `values` to x, ties to the one with an even last
// mantissa bit (found as the one whose index among the non-negative values is
// even), beyond the largest value by half an ulp infinity.
double nearest(const std::vector<double>& values, double x, double overflow) {
  if (std::fabs(x) >= overflow) return std::copysign(HUGE_VAL, x);
  const auto hi = std::lower_bound(values.begin(), values.end(), x);
  if (hi == values.begin() || *hi == x) return *hi;
  const double a = *(hi - 1), b = *hi;
  if (x - a != b - x) return x - a < b - x ? a : b;
  const auto rank = [&](double y) { return std::lower_bound(values.begin(), values.end(), std::fabs(y)) - values.begin(); };
  return rank(a) % 2 == rank(0.0) % 2 ? a : b;
}

std::vector<float> probes() {
  std::vector<float> xs{0.0f, -0.0f, 1.0f, 0.1f, 65504.0f, 65519.99f, 65520.0f, -65520.0f, 1e-8f, 2.9802322e-08f,
                        5.9604645e-08f, 8.940697e-08f, 6.1035156e-05f, 3.3895314e38f, 3.4e38f, 1.00390625f, 1.01171875f};
  std::mt19937 gen(7);
  std::uniform_int_distribution<uint32_t> bits(0, 0x7F7FFFFFu);
  for (int i = 0; i < 20000; ++i) {
    uint32_t w = bits(gen) | (i % 2 ? 0x80000000u : 0u);
    float f;
    std::memcpy(&f, &w, 4);
    xs.push_back(f);
  }
  return xs;
}

TEST(NarrowFloats, Float16RoundsToNearestEvenAndOverflowsToInfinity) {
  const std::vector<double> values = format_values(5, 10, 15);
  for (float x : probes()) {
    const double want = nearest(values, x, 65520.0);
    EXPECT_EQ(static_cast<double>(round_to_float16(x)), want) << x;
  }
  EXPECT_TRUE(std::isnan(round_to_float16(std::numeric_limits<float>::quiet_NaN())));
  EXPECT_EQ(round_to_float16(HUGE_VALF), HUGE_VALF);
}

TEST(NarrowFloats, BFloat16RoundsToNearestEven) {
  const std::vector<double> values = format_values(8, 7, 127);
  const double overflow = std::ldexp(2.0 - std::ldexp(1.0, -8), 127);  // bfloat16's largest plus half an ulp
  for (float x : probes()) EXPECT_EQ(static_cast<double>(round_to_bfloat16(x)), nearest(values, x, overflow)) << x;
  EXPECT_TRUE(std::isnan(round_to_bfloat16(std::numeric_limits<float>::quiet_NaN())));
}

TEST(NarrowFloats, BitsRoundTrip) {
  for (uint32_t h = 0; h < 0x10000u; ++h) {
    if ((h & 0x7C00u) == 0x7C00u && (h & 0x3FFu)) continue;  // NaNs: one NaN is as good as another
    EXPECT_EQ(to_bits(from_bits(h, DType::kFloat16), DType::kFloat16), h);
    if ((h & 0x7F80u) == 0x7F80u && (h & 0x7Fu)) continue;
    EXPECT_EQ(to_bits(from_bits(h, DType::kBFloat16), DType::kBFloat16), h);
  }
  EXPECT_EQ(to_bits(from_bits(0xFFu, DType::kInt8), DType::kInt8), 0xFFu);
  EXPECT_EQ(static_cast<int32_t>(from_bits(0xFFu, DType::kInt8)), -1);
  EXPECT_EQ(from_bits(0xFFFFu, DType::kUInt16), 0xFFFFu);
}

exec::HostArray run(const Body& f, const std::vector<exec::HostArray>& args) { return evaluate(f, args); }

// Each result is narrowed where it is made: float16's 2048 + 1 is 2048, and
// x * 1000 / 1000 is not x once the product has been rounded.
TEST(NarrowFloats, EveryResultIsRoundedToItsDtype) {
  const auto x = host_array(DType::kFloat16, {3}, std::vector<float>{2048.0f, 0.0999755859375f, 60000.0f});
  const auto sum = run([](Builder& b, auto in) { return add(b, in[0], Atom::constant(1.0, DType::kFloat16)); }, {x});
  EXPECT_EQ(sum.aval.str(), "f16[3]");
  // 1.0999755859375 lies between float16's 1.099609375 and 1.1005859375, nearer the first.
  EXPECT_EQ(as_floats(sum), (std::vector<float>{2048.0f, 1.099609375f, 60000.0f}));
  const auto twice = run([](Builder& b, auto in) { return mul(b, in[0], Atom::constant(2.0, DType::kFloat16)); }, {x});
  EXPECT_EQ(as_floats(twice)[2], HUGE_VALF);
  // bfloat16 keeps 8 significant bits: 1 + 2^-8 is 1, 1 + 2^-7 is itself.
  const auto y = host_array(DType::kBFloat16, {2}, std::vector<float>{1.0f, 1.0f});
  const auto steps = run([](Builder& b, auto in) { return add(b, in[0], Atom::constant(std::ldexp(1.0, -8), DType::kBFloat16)); }, {y});
  EXPECT_EQ(as_floats(steps), (std::vector<float>{1.0f, 1.0f}));
}

TEST(NarrowInts, ArithmeticWrapsAsCsNarrowTypes) {
  const auto i8 = host_array(DType::kInt8, {4}, std::vector<int32_t>{127, -128, -5, 100});
  const auto sum = run([](Builder& b, auto in) { return add(b, in[0], in[0]); }, {i8});
  for (int k = 0; k < 4; ++k) {
    const int v = std::vector<int>{127, -128, -5, 100}[static_cast<size_t>(k)];
    EXPECT_EQ(as_ints(sum)[static_cast<size_t>(k)], static_cast<int8_t>(static_cast<uint8_t>(v + v)));
  }
  const auto u8 = host_array(DType::kUInt8, {3}, std::vector<uint32_t>{3, 0, 255});
  const auto diff = run([](Builder& b, auto in) { return sub(b, in[0], Atom::constant(5, DType::kUInt8)); }, {u8});
  EXPECT_EQ(exec::host_values<uint32_t>(diff), (std::vector<uint32_t>{254, 251, 250}));
  // -128 / -1 overflows to -128, as int8's two's complement.
  const auto q = run([](Builder& b, auto in) { return div(b, in[0], Atom::constant(-1, DType::kInt8)); }, {i8});
  EXPECT_EQ(as_ints(q), (std::vector<int32_t>{-127, -128, 5, -100}));
  // A logical shift moves only the dtype's own 8 bits: -5 is 0xFB, >> 1 is 0x7D.
  const auto shifted = run([](Builder& b, auto in) { return b.emit1(Prim::kShiftRightLogical, {}, {in[0], Atom::constant(1, DType::kInt8)}); }, {i8});
  EXPECT_EQ(as_ints(shifted), (std::vector<int32_t>{63, 64, 125, 50}));
  const auto i16 = host_array(DType::kInt16, {1}, std::vector<int32_t>{32767});
  EXPECT_EQ(as_ints(run([](Builder& b, auto in) { return add(b, in[0], Atom::constant(1, DType::kInt16)); }, {i16})),
            (std::vector<int32_t>{-32768}));
}

TEST(NarrowDtypes, ConversionsSaturateFloatsWrapIntegersAndRoundFloats) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const auto x = host_f32({6}, {300.7f, -300.0f, -1.5f, 2.9f, nan, 1e5f});
  const auto to = [&](DType dtype) { return run([dtype](Builder& b, auto in) { return convert_element_type(b, in[0], dtype); }, {x}); };
  EXPECT_EQ(as_ints(to(DType::kInt8)), (std::vector<int32_t>{127, -128, -1, 2, 0, 127}));
  EXPECT_EQ(exec::host_values<uint32_t>(to(DType::kUInt8)), (std::vector<uint32_t>{255, 0, 0, 2, 0, 255}));
  const auto halves = as_floats(to(DType::kFloat16));
  EXPECT_EQ(halves[0], 300.75f);  // 300.7 between 300.5 and 300.75 (steps of 0.25 from 256)
  EXPECT_EQ(halves[5], HUGE_VALF);
  // int32 -> int8 keeps the low 8 bits.
  const auto ints = exec::host_i32({3}, {300, -129, 255});
  EXPECT_EQ(as_ints(run([](Builder& b, auto in) { return convert_element_type(b, in[0], DType::kInt8); }, {ints})),
            (std::vector<int32_t>{44, 127, -1}));
}

TEST(NarrowDtypes, BitcastReadsTheDtypesOwnBits) {
  const auto h = host_array(DType::kFloat16, {2}, std::vector<float>{1.0f, -2.0f});
  const auto bits = run([](Builder& b, auto in) { return b.emit1(Prim::kBitcastConvertType, {{"new_dtype", DType::kUInt16}}, {in[0]}); }, {h});
  EXPECT_EQ(exec::host_values<uint32_t>(bits), (std::vector<uint32_t>{0x3C00u, 0xC000u}));
  const auto bf = host_array(DType::kBFloat16, {1}, std::vector<float>{1.0f});
  const auto bfbits = run([](Builder& b, auto in) { return b.emit1(Prim::kBitcastConvertType, {{"new_dtype", DType::kInt16}}, {in[0]}); }, {bf});
  EXPECT_EQ(as_ints(bfbits), (std::vector<int32_t>{0x3F80}));
  Builder b;
  const Atom f = b.input(f32({2}));
  EXPECT_EQ(testing::error_message([&] { b.emit1(Prim::kBitcastConvertType, {{"new_dtype", DType::kInt8}}, {f}); }),
            "bitcast_convert_type: converts between dtypes of one width (float32, int32 and uint32; float16, bfloat16, "
            "int16 and uint16; int8 and uint8), got f32[2] to int8");
}

TEST(NarrowDtypes, ExtremaAndNextafterUseTheDtypesRange) {
  const auto empty = host_array(DType::kInt8, {0}, std::vector<int32_t>{});
  EXPECT_EQ(as_ints(run([](Builder& b, auto in) { return reduce_max(b, in[0], {0}); }, {empty})),
            (std::vector<int32_t>{-128}));
  const auto one = host_array(DType::kFloat16, {3}, std::vector<float>{1.0f, 0.0f, 1.0f});
  const auto toward = host_array(DType::kFloat16, {3}, std::vector<float>{2.0f, -1.0f, 0.0f});
  const auto next = run([](Builder& b, auto in) { return b.emit1(Prim::kNextafter, {}, {in[0], in[1]}); }, {one, toward});
  EXPECT_EQ(as_floats(next), (std::vector<float>{1.0f + 0.0009765625f, -5.9604645e-08f, 1.0f - 0.00048828125f}));
}

TEST(NarrowDtypes, NamesPrintAsJaxAndParse) {
  const std::vector<std::pair<DType, std::string>> names{{DType::kFloat16, "f16"}, {DType::kBFloat16, "bf16"},
                                                         {DType::kInt8, "i8"},     {DType::kUInt8, "u8"},
                                                         {DType::kInt16, "i16"},   {DType::kUInt16, "u16"}};
  for (const auto& [dtype, name] : names) {
    EXPECT_EQ(dtype_name(dtype), name);
    EXPECT_EQ(dtype_from_name(dtype_long_name(dtype), "test"), dtype);
  }
  EXPECT_EQ(itemsize(DType::kBFloat16), 2u);
  EXPECT_EQ(itemsize(DType::kBool), 1u);
  // A float16 literal prints the value float16 holds, as JAX's repr of it.
  Builder b;
  const Atom x = b.input(Aval{DType::kFloat16, {2}, {}});
  const Program p = b.build({mul(b, x, Atom::constant(0.1, DType::kFloat16))});
  EXPECT_EQ(to_text(p), "{ lambda ; a:f16[2]. let b:f16[2] = mul a 0.0999755859375:f16[] in (b,) }");
  EXPECT_NE(testing::error_message([] { dtype_from_name("float64", "put"); }).find("'bfloat16'"), std::string::npos);
}

}  // namespace
}  // namespace shardlab::ir
