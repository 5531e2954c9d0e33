// uint32 and the bit operations: and, or, xor, not, the shifts (XLA's
// results for shifts of 32 or more), uint32 arithmetic, comparisons,
// division and conversions; threefry2x32 against Random123's known-answer
// vectors; bitcast_convert_type; erf and erf_inv against float64 and each
// other; nextafter.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "exec/lockstep_program.h"
#include "ir/tracing/ops.h"
#include "ir_checks.h"
#include "test_util.h"

namespace shardlab::ir {
namespace {

using exec::as_floats;
using exec::as_ints;
using exec::HostArray;
using exec::host_f32;
using exec::host_i32;
using testing::error_message;

HostArray host_u32(const Shape& s, const std::vector<uint32_t>& v) {
  HostArray a{Aval{DType::kUInt32, s, {}}, v};
  return a;
}
std::vector<uint32_t> words(const HostArray& a) { return a.words; }

Atom bin(Builder& b, Prim p, const Atom& x, const Atom& y) { return b.emit1(p, {}, {x, y}); }

TEST(Bitwise, AndOrXorNotOnIntsUintsAndBools) {
  const auto run = [](Prim p, const HostArray& x, const HostArray& y) {
    return words(evaluate([&](Builder& b, auto in) { return bin(b, p, in[0], in[1]); }, {x, y}));
  };
  const auto x = host_u32({3}, {0xF0F0F0F0u, 0u, 0xFFFFFFFFu}), y = host_u32({3}, {0xFF00FF00u, 5u, 1u});
  EXPECT_EQ(run(Prim::kAnd, x, y), (std::vector<uint32_t>{0xF000F000u, 0u, 1u}));
  EXPECT_EQ(run(Prim::kOr, x, y), (std::vector<uint32_t>{0xFFF0FFF0u, 5u, 0xFFFFFFFFu}));
  EXPECT_EQ(run(Prim::kXor, x, y), (std::vector<uint32_t>{0x0FF00FF0u, 5u, 0xFFFFFFFEu}));
  EXPECT_EQ(as_ints(evaluate([](Builder& b, auto in) { return bin(b, Prim::kAnd, in[0], in[1]); },
                             {host_i32({2}, {-1, 12}), host_i32({2}, {6, 10})})),
            (std::vector<int32_t>{6, 8}));
  EXPECT_EQ(words(evaluate([](Builder& b, auto in) { return b.emit1(Prim::kNot, {}, {in[0]}); }, {x})),
            (std::vector<uint32_t>{0x0F0F0F0Fu, 0xFFFFFFFFu, 0u}));
  HostArray bools = host_i32({2}, {0, 1});
  bools.aval.dtype = DType::kBool;
  EXPECT_EQ(as_ints(evaluate([](Builder& b, auto in) { return b.emit1(Prim::kNot, {}, {in[0]}); }, {bools})),
            (std::vector<int32_t>{1, 0}));
  Builder b;
  EXPECT_EQ(error_message([&] { bin(b, Prim::kXor, b.input(f32({2})), b.input(f32({2}))); }),
            "xor: needs integer or bool operands, got f32[2] and f32[2]");
  EXPECT_EQ(error_message([&] { b.emit1(Prim::kShiftLeft, {}, {b.input(Aval{DType::kBool, {2}, {}}), b.input(Aval{DType::kBool, {2}, {}})}); }),
            "shift_left: needs integer operands, got bool[2] and bool[2]");
}

TEST(Bitwise, ShiftsAsXlaIncludingOutOfRangeAmounts) {
  const auto x = host_u32({5}, {0x80000001u, 0x80000001u, 0x80000001u, 0x80000001u, 0x80000001u});
  const auto s = host_u32({5}, {0u, 1u, 31u, 32u, 0xFFFFFFFFu});
  const auto run = [&](Prim p) {
    return words(evaluate([&](Builder& b, auto in) { return bin(b, p, in[0], in[1]); }, {x, s}));
  };
  EXPECT_EQ(run(Prim::kShiftLeft), (std::vector<uint32_t>{0x80000001u, 2u, 0x80000000u, 0u, 0u}));
  EXPECT_EQ(run(Prim::kShiftRightLogical), (std::vector<uint32_t>{0x80000001u, 0x40000000u, 1u, 0u, 0u}));
  EXPECT_EQ(run(Prim::kShiftRightArithmetic),
            (std::vector<uint32_t>{0x80000001u, 0xC0000000u, 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu}));
  // a positive int32 shifted arithmetically fills with zeros
  EXPECT_EQ(as_ints(evaluate([](Builder& b, auto in) { return bin(b, Prim::kShiftRightArithmetic, in[0], in[1]); },
                             {host_i32({2}, {64, 64}), host_i32({2}, {3, 40})})),
            (std::vector<int32_t>{8, 0}));
}

TEST(UInt32, ArithmeticComparisonsDivisionReductionsAndConversions) {
  const auto x = host_u32({3}, {4000000000u, 7u, 0u}), y = host_u32({3}, {3u, 0u, 5u});
  const auto run = [&](Prim p) { return words(evaluate([&](Builder& b, auto in) { return bin(b, p, in[0], in[1]); }, {x, y})); };
  EXPECT_EQ(run(Prim::kAdd), (std::vector<uint32_t>{4000000003u, 7u, 5u}));
  EXPECT_EQ(run(Prim::kSub), (std::vector<uint32_t>{3999999997u, 7u, 0xFFFFFFFBu}));
  EXPECT_EQ(run(Prim::kMul), (std::vector<uint32_t>{static_cast<uint32_t>(12000000000ull), 0u, 0u}));
  EXPECT_EQ(run(Prim::kDiv), (std::vector<uint32_t>{1333333333u, 0xFFFFFFFFu, 0u}));  // x / 0: all ones
  EXPECT_EQ(run(Prim::kRem), (std::vector<uint32_t>{1u, 7u, 0u}));                   // x % 0: x
  EXPECT_EQ(run(Prim::kMax), (std::vector<uint32_t>{4000000000u, 7u, 5u}));          // unsigned order
  EXPECT_EQ(as_ints(evaluate([](Builder& b, auto in) { return compare(b, Prim::kGt, in[0], in[1]); }, {x, y})),
            (std::vector<int32_t>{1, 1, 0}));
  EXPECT_EQ(words(evaluate([](Builder& b, auto in) { return reduce_max(b, in[0], {0}); }, {x})),
            (std::vector<uint32_t>{4000000000u}));
  EXPECT_EQ(as_floats(evaluate([](Builder& b, auto in) { return convert_element_type(b, in[0], DType::kFloat32); }, {x})),
            (std::vector<float>{4e9f, 7.0f, 0.0f}));
  EXPECT_EQ(as_ints(evaluate([](Builder& b, auto in) { return convert_element_type(b, in[0], DType::kInt32); }, {x})),
            (std::vector<int32_t>{-294967296, 7, 0}));  // wraps
  EXPECT_EQ(words(evaluate([](Builder& b, auto in) { return convert_element_type(b, in[0], DType::kUInt32); },
                           {host_f32({4}, {-3.0f, 2.9f, 5e9f, std::nanf("")})})),
            (std::vector<uint32_t>{0u, 2u, 0xFFFFFFFFu, 0u}));  // saturates
  // a literal above 2^31 keeps its bits
  EXPECT_EQ(words(evaluate([](Builder& b, auto in) { return add(b, in[0], Atom::constant(4294967295.0, DType::kUInt32)); },
                           {host_u32({1}, {1u})})),
            (std::vector<uint32_t>{0u}));
  Builder b;
  EXPECT_EQ(error_message([&] { unary(b, Prim::kAbs, b.input(Aval{DType::kUInt32, {2}, {}})); }),
            "abs: needs a floating-point or signed integer operand, got u32[2]");
}

// Random123's known-answer vectors for threefry2x32_20 (its kat_vectors file),
// as JAX's random_test.py testThreefry2x32 checks them: key, counter -> output.
TEST(Threefry2x32, Random123KnownAnswers) {
  struct Case {
    uint32_t k1, k2, x1, x2, o1, o2;
  };
  for (const Case& c : {Case{0u, 0u, 0u, 0u, 0x6b200159u, 0x99ba4efeu},
                        Case{0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x1cb996fcu, 0xbb002be7u},
                        Case{0x13198a2eu, 0x03707344u, 0x243f6a88u, 0x85a308d3u, 0xc4923a9cu, 0x483df7a0u}}) {
    Builder b;
    std::vector<Atom> in;
    for (int i = 0; i < 4; ++i) in.push_back(b.input(Aval{DType::kUInt32, {}, {}}));
    const auto out = b.emit(Prim::kThreefry2x32, {}, in);
    const auto got = exec::interpret(b.build(out), {host_u32({}, {c.k1}), host_u32({}, {c.k2}), host_u32({}, {c.x1}),
                                                   host_u32({}, {c.x2})});
    EXPECT_EQ(got[0].words[0], c.o1);
    EXPECT_EQ(got[1].words[0], c.o2);
  }
  // scalar keys repeat over arrays of counters
  Builder b;
  const Atom k = b.input(Aval{DType::kUInt32, {}, {}}), x = b.input(Aval{DType::kUInt32, {2}, {}});
  const auto out = b.emit(Prim::kThreefry2x32, {}, {k, k, x, x});
  const auto got = exec::interpret(b.build(out), {host_u32({}, {0xffffffffu}), host_u32({2}, {0xffffffffu, 0xffffffffu})});
  EXPECT_EQ(got[0].words, (std::vector<uint32_t>{0x1cb996fcu, 0x1cb996fcu}));
  EXPECT_EQ(error_message([&] { b.emit(Prim::kThreefry2x32, {}, {k, k, x, b.input(f32({2}))}); }),
            "threefry2x32: needs uint32 operands, got u32[], u32[], u32[2] and f32[2]");
}

TEST(BitcastAndErf, BitsReadAsFloatsErfAndItsInverse) {
  EXPECT_EQ(as_floats(evaluate([](Builder& b, auto in) { return b.emit1(Prim::kBitcastConvertType, {{"new_dtype", DType::kFloat32}}, {in[0]}); },
                               {host_u32({2}, {0x3F800000u, 0xC0000000u})})),
            (std::vector<float>{1.0f, -2.0f}));
  std::vector<float> ys;
  for (float y = -0.999f; y < 1.0f; y += 0.0371f) ys.push_back(y);
  ys.push_back(std::nextafter(1.0f, 0.0f));
  ys.push_back(std::nextafter(-1.0f, 0.0f));
  const auto x = as_floats(evaluate([](Builder& b, auto in) { return unary(b, Prim::kErfInv, in[0]); },
                                    {host_f32({static_cast<int64_t>(ys.size())}, ys)}));
  for (size_t i = 0; i < ys.size(); ++i) {
    // erf(x) recovers y to float32 rounding of x (the slope of erf scales it)
    const double back = std::erf(static_cast<double>(x[i]));
    const double ulp = std::nextafter(std::fabs(x[i]), INFINITY) - std::fabs(x[i]);
    EXPECT_NEAR(back, ys[i], 1.2 * 1.1283791670955126 * std::exp(-double(x[i]) * x[i]) * ulp + 1e-12) << ys[i];
  }
  const auto e = as_floats(evaluate([](Builder& b, auto in) { return unary(b, Prim::kErf, in[0]); }, {host_f32({3}, {0.0f, 0.5f, -3.0f})}));
  EXPECT_EQ(e, (std::vector<float>{0.0f, static_cast<float>(std::erf(0.5)), static_cast<float>(std::erf(-3.0))}));
  const auto edges = as_floats(evaluate([](Builder& b, auto in) { return unary(b, Prim::kErfInv, in[0]); }, {host_f32({3}, {1.0f, -1.0f, 2.0f})}));
  EXPECT_TRUE(std::isinf(edges[0]) && edges[0] > 0 && std::isinf(edges[1]) && edges[1] < 0 && std::isnan(edges[2]));
  check_jvp([](Builder& b, auto in) { return unary(b, Prim::kErf, in[0]); }, {f32({5})});
  check_jvp([](Builder& b, auto in) { return unary(b, Prim::kErfInv, mul(b, in[0], f32_scalar(0.4))); }, {f32({5})});
  EXPECT_EQ(as_floats(evaluate([](Builder& b, auto in) { return bin(b, Prim::kNextafter, in[0], in[1]); },
                               {host_f32({2}, {1.0f, 0.0f}), host_f32({2}, {2.0f, -1.0f})})),
            (std::vector<float>{std::nextafter(1.0f, 2.0f), -std::numeric_limits<float>::denorm_min()}));
}

}  // namespace
}  // namespace shardlab::ir
