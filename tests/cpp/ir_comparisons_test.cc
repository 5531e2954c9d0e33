// eq, ne, lt, le, gt, ge, is_finite and select_n: values against references computed
// here, zero tangents, select_n's JVP against finite differences and its
// transpose in every case position, the VMA of results, and every error.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

#include "exec/lockstep_program.h"
#include "ir/tracing/ops.h"
#include "ir/forms/print.h"
#include "ir_checks.h"
#include "test_util.h"

namespace shardlab::ir {
namespace {

using exec::as_ints;
using exec::host_f32;
using exec::host_i32;

struct ComparisonCase {
  Prim prim;
  std::function<bool(double, double)> reference;
};

const std::vector<ComparisonCase>& comparison_cases() {
  static const std::vector<ComparisonCase> c = {
      {Prim::kEq, [](double x, double y) { return x == y; }}, {Prim::kNe, [](double x, double y) { return x != y; }},
      {Prim::kLt, [](double x, double y) { return x < y; }},  {Prim::kLe, [](double x, double y) { return x <= y; }},
      {Prim::kGt, [](double x, double y) { return x > y; }},  {Prim::kGe, [](double x, double y) { return x >= y; }},
  };
  return c;
}

TEST(Comparisons, Float32ValuesIncludingTiesAndNaN) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> x = {1, -2, 3, 0.5f, nan, 4}, y = {1, 2, -3, 0.25f, 1, nan};
  for (const ComparisonCase& c : comparison_cases()) {
    const auto z = evaluate([&](Builder& b, auto in) { return compare(b, c.prim, in[0], in[1]); },
                            {host_f32({6}, x), host_f32({6}, y)});
    EXPECT_EQ(z.aval.dtype, DType::kBool);
    const auto got = as_ints(z);
    for (int i = 0; i < 6; ++i) EXPECT_EQ(got[i], c.reference(x[i], y[i]) ? 1 : 0) << primitive(c.prim).name << i;
  }
}

TEST(IsFinite, ValuesZeroTangentAndErrors) {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> x = {1, inf, -inf, nan, 0, -3.5f, std::numeric_limits<float>::max()};
  const auto z = evaluate([](Builder& b, auto in) { return b.emit1(Prim::kIsFinite, {}, {in[0]}); }, {host_f32({7}, x)});
  EXPECT_EQ(z.aval.dtype, DType::kBool);
  const auto got = as_ints(z);
  for (int i = 0; i < 7; ++i) EXPECT_EQ(got[i], std::isfinite(x[i]) ? 1 : 0) << i;
  Builder b;
  const Atom v = b.input(f32({3}));
  EXPECT_FALSE(primitive(Prim::kIsFinite).jvp(b, {}, {v}, {v}, {v})[0].has_value());
  const Atom i = b.input(Aval{DType::kInt32, {3}, {}});
  EXPECT_EQ(testing::error_message([&] { b.emit1(Prim::kIsFinite, {}, {i}); }),
            "is_finite: needs a floating-point operand, got i32[3]");
}

TEST(Comparisons, Int32AndBoolOperandsAndAScalar) {
  const std::vector<int32_t> x = {-5, 0, 7, 2147483647}, y = {-5, 1, 6, -2147483647 - 1};
  for (const ComparisonCase& c : comparison_cases()) {
    const auto got = as_ints(evaluate([&](Builder& b, auto in) { return compare(b, c.prim, in[0], in[1]); },
                                      {host_i32({4}, x), host_i32({4}, y)}));
    for (int i = 0; i < 4; ++i) EXPECT_EQ(got[i], c.reference(x[i], y[i]) ? 1 : 0) << primitive(c.prim).name << i;
    // x against the scalar 0.
    const auto s = as_ints(evaluate([&](Builder& b, auto in) { return compare(b, c.prim, in[0], in[1]); },
                                    {host_i32({4}, x), host_i32({}, {0})}));
    for (int i = 0; i < 4; ++i) EXPECT_EQ(s[i], c.reference(x[i], 0) ? 1 : 0) << primitive(c.prim).name << i;
    // Bools (0/1) compare as numbers: false < true.
    const auto bools = as_ints(evaluate(
        [&](Builder& b, auto in) {
          return compare(b, c.prim, compare(b, Prim::kGt, in[0], in[1]), compare(b, Prim::kLt, in[0], in[1]));
        },
        {host_i32({4}, x), host_i32({4}, y)}));
    for (int i = 0; i < 4; ++i)
      EXPECT_EQ(bools[i], c.reference(x[i] > y[i], x[i] < y[i]) ? 1 : 0) << primitive(c.prim).name << i;
  }
}

TEST(Comparisons, PrintAndVaryLikeBinaryPrimitives) {
  Builder b;
  const Atom x = b.input(Aval{DType::kFloat32, {4}, {"data"}});
  const Atom y = b.input(f32({4}));
  const Atom z = compare(b, Prim::kLt, x, y);
  EXPECT_EQ(z.aval, (Aval{DType::kBool, {4}, {"data"}}));
  EXPECT_EQ(to_text(b.build({z})), "{ lambda ; a:f32[4]{V:data} b:f32[4]. let c:bool[4]{V:data} = lt a b in (c,) }");
}

TEST(Comparisons, ZeroTangentAndNoTranspose) {
  Builder b;
  const Atom x = b.input(f32({4})), y = b.input(f32({4})), t = b.input(f32({4}));
  for (const ComparisonCase& c : comparison_cases()) {
    const Atom z = compare(b, c.prim, x, y);
    EXPECT_FALSE(primitive(c.prim).jvp(b, {}, {x, y}, {z}, {t, t})[0].has_value());
    EXPECT_EQ(
        testing::error_message([&] {
          primitive(c.prim).transpose(b, {}, {z}, {x, y}, {false, true});
        }),
        std::string(primitive(c.prim).name) + ": the program is not linear in its operand f32[4]; cannot transpose");
  }
}

TEST(Comparisons, Errors) {
  Builder b;
  const Atom x = b.input(f32({4})), y = b.input(f32({3})), i = b.input(Aval{DType::kInt32, {4}, {}});
  EXPECT_EQ(testing::error_message([&] { compare(b, Prim::kGe, x, i); }),
            "ge: operand dtypes differ (f32[4] and i32[4]); convert one with convert_element_type");
  EXPECT_EQ(testing::error_message([&] { compare(b, Prim::kEq, x, y); }),
            "eq: operand shapes must be equal (or one a scalar), got f32[4] and f32[3]; broadcast one first "
            "(broadcast_in_dim; the np.* functions broadcast for you)");
}

// which = (column index < 2), a bool array fixed under perturbations of the inputs.
Atom first_two_columns(Builder& b, const Shape& shape) {
  return compare(b, Prim::kLt, iota(b, DType::kInt32, shape, 1), Atom::constant(2, DType::kInt32));
}

TEST(SelectN, BoolWhichPicksTheSecondCaseWhereTrue) {
  const std::vector<float> x = {1, 2, 3, 4, 5, 6}, y = {-1, -2, -3, -4, -5, -6};
  const auto z = exec::as_floats(evaluate(
      [](Builder& b, auto in) {
        return select_n(b, first_two_columns(b, {2, 3}), {in[0], in[1]});
      },
      {host_f32({2, 3}, x), host_f32({2, 3}, y)}));
  for (int k = 0; k < 6; ++k) EXPECT_EQ(z[k], k % 3 < 2 ? y[k] : x[k]) << k;
}

TEST(SelectN, Int32WhichIsClampedIntoRangeAndAScalarWhichSelectsACase) {
  const std::vector<int32_t> which = {0, 1, 2, -1, 7, 1};
  const std::vector<float> c0 = {1, 2, 3, 4, 5, 6}, c1 = {10, 20, 30, 40, 50, 60}, c2 = {7, 8, 9, 10, 11, 12};
  const Body f = [](Builder& b, auto in) { return select_n(b, in[0], {in[1], in[2], in[3]}); };
  const auto z =
      exec::as_floats(evaluate(f, {host_i32({6}, which), host_f32({6}, c0), host_f32({6}, c1), host_f32({6}, c2)}));
  const std::vector<const std::vector<float>*> cases = {&c0, &c1, &c2};
  for (int k = 0; k < 6; ++k) EXPECT_EQ(z[k], (*cases[std::clamp(which[k], 0, 2)])[k]) << k;
  const auto s =
      exec::as_floats(evaluate(f, {host_i32({}, {2}), host_f32({6}, c0), host_f32({6}, c1), host_f32({6}, c2)}));
  EXPECT_EQ(s, c2);
  // Any dtype of cases: int32.
  const auto ints = as_ints(evaluate(
      [](Builder& b, auto in) {
        return select_n(b, in[0], {in[1], in[0]});
      },
      {host_i32({3}, {0, 1, 0}), host_i32({3}, {5, 6, 7})}));
  EXPECT_EQ(ints, (std::vector<int32_t>{5, 1, 7}));
}

TEST(SelectN, JvpSelectsTangentsWithZerosForConstantCases) {
  check_jvp(
      [](Builder& b, auto in) {
        return select_n(b, first_two_columns(b, {2, 3}), {in[0], in[1]});
      },
      {f32({2, 3}), f32({2, 3})});
  // Case 1 is a constant: its tangent is a symbolic zero that becomes zeros.
  check_jvp(
      [](Builder& b, auto in) {
        const Atom which = iota(b, DType::kInt32, {3, 2}, 0);
        return mul(b, select_n(b, which, {in[0], zeros_like(b, f32({3, 2})), in[1]}), in[0]);
      },
      {f32({3, 2}), f32({3, 2})});
  Builder b;
  const Atom w = b.input(Aval{DType::kBool, {}, {}}), x = b.input(f32({2}));
  const Atom z = select_n(b, w, {x, x});
  EXPECT_FALSE(primitive(Prim::kSelectN).jvp(b, {}, {w, x, x}, {z}, {std::nullopt, std::nullopt, std::nullopt})[0]);
}

TEST(SelectN, TransposeInEachCase) {
  for (size_t lin = 0; lin < 3; ++lin) {
    SCOPED_TRACE(lin);
    check_transpose(
        [](Builder& b, auto in) {
          return select_n(b, iota(b, DType::kInt32, {3, 2}, 0), {in[0], in[1], in[2]});
        },
        {f32({3, 2}), f32({3, 2}), f32({3, 2})}, lin);
  }
  // A bool which and a scalar which.
  check_transpose(
      [](Builder& b, auto in) {
        return select_n(b, first_two_columns(b, {2, 3}), {in[1], in[0]});
      },
      {f32({2, 3}), f32({2, 3})}, 0);
  check_transpose(
      [](Builder& b, auto in) {
        return select_n(b, compare(b, Prim::kGt, in[1], f32_scalar(0)), {in[0], zeros_like(b, f32({4}))});
      },
      {f32({4}), f32({})}, 0);
}

TEST(SelectN, NotLinearInWhich) {
  Builder b;
  const Atom w = b.input(Aval{DType::kInt32, {2}, {}}), x = b.input(f32({2}));
  const Atom z = select_n(b, w, {x, x});
  EXPECT_EQ(testing::error_message([&] {
              primitive(Prim::kSelectN).transpose(b, {}, {z}, {w, x, x}, {true, false, true});
            }),
            "select_n: the program is not linear in its operand i32[2]; cannot transpose");
}

TEST(SelectN, VaryingAlongTheUnionOfItsOperands) {
  Builder b;
  const Atom w = b.input(Aval{DType::kBool, {2}, {"model"}});
  const Atom x = b.input(Aval{DType::kFloat32, {2}, {"data"}}), y = b.input(f32({2}));
  const Atom z = select_n(b, w, {x, y});
  EXPECT_EQ(z.aval.str(), "f32[2]{V:(data,model)}");
  EXPECT_EQ(to_text(b.build({z})),
            "{ lambda ; a:bool[2]{V:model} b:f32[2]{V:data} c:f32[2]. let\n"
            "    d:f32[2]{V:(data,model)} = select_n a b c\n"
            "  in (d,) }");
}

TEST(SelectN, Errors) {
  Builder b;
  const Atom w = b.input(Aval{DType::kBool, {2}, {}}), i = b.input(Aval{DType::kInt32, {3}, {}});
  const Atom x = b.input(f32({2})), y = b.input(f32({3}));
  EXPECT_EQ(testing::error_message([&] { select_n(b, w, {}); }),
            "select_n: takes which and at least one case, got 1 operands");
  EXPECT_EQ(testing::error_message([&] {
              select_n(b, x, {x, x});
            }),
            "select_n: which must be bool or int32, got f32[2]");
  EXPECT_EQ(testing::error_message([&] {
              select_n(b, w, {x, x, x});
            }),
            "select_n: which bool[2] is a bool, so it selects between at most 2 cases, got 3");
  EXPECT_EQ(testing::error_message([&] {
              select_n(b, w, {x, y});
            }),
            "select_n: cases must have equal dtypes and shapes, got f32[2] and f32[3]");
  EXPECT_EQ(testing::error_message([&] {
              select_n(b, w, {x, w});
            }),
            "select_n: cases must have equal dtypes and shapes, got f32[2] and bool[2]");
  EXPECT_EQ(testing::error_message([&] {
              select_n(b, i, {x, x});
            }),
            "select_n: which i32[3] must be a scalar or have the shape of the cases f32[2]");
}

}  // namespace
}  // namespace shardlab::ir
