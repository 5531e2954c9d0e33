// exp, log, tanh, logistic, sqrt, rsqrt, square, abs, sign, the
// trigonometric and hyperbolic functions, log1p, expm1, exp2, ceil, atan2
// and div: values against float64 references, JVPs against finite
// differences, transposes (div in its numerator; the others refuse), and
// dtype errors.
#include <gtest/gtest.h>

#include <cmath>

#include "ir/tracing/ops.h"
#include "ir_checks.h"
#include "test_util.h"

namespace shardlab::ir {
namespace {

// Where a primitive is defined: everywhere, for x > 0 (log, sqrt, rsqrt), or for |x| < 1 (asin, acos).
enum class Domain { kAll, kPositive, kUnit };

struct UnaryCase {
  Prim prim;
  double (*reference)(double);
  Domain domain;
};

const std::vector<UnaryCase>& unary_cases() {
  static const std::vector<UnaryCase> c = {
      {Prim::kExp, [](double x) { return std::exp(x); }, Domain::kAll},
      {Prim::kLog, [](double x) { return std::log(x); }, Domain::kPositive},
      {Prim::kTanh, [](double x) { return std::tanh(x); }, Domain::kAll},
      {Prim::kLogistic, [](double x) { return 1.0 / (1.0 + std::exp(-x)); }, Domain::kAll},
      {Prim::kSqrt, [](double x) { return std::sqrt(x); }, Domain::kPositive},
      {Prim::kRsqrt, [](double x) { return 1.0 / std::sqrt(x); }, Domain::kPositive},
      {Prim::kSquare, [](double x) { return x * x; }, Domain::kAll},
      {Prim::kAbs, [](double x) { return std::abs(x); }, Domain::kAll},
      {Prim::kSign, [](double x) { return static_cast<double>((x > 0) - (x < 0)); }, Domain::kAll},
      {Prim::kSin, [](double x) { return std::sin(x); }, Domain::kAll},
      {Prim::kCos, [](double x) { return std::cos(x); }, Domain::kAll},
      {Prim::kTan, [](double x) { return std::tan(x); }, Domain::kUnit},  // away from its poles
      {Prim::kAsin, [](double x) { return std::asin(x); }, Domain::kUnit},
      {Prim::kAcos, [](double x) { return std::acos(x); }, Domain::kUnit},
      {Prim::kAtan, [](double x) { return std::atan(x); }, Domain::kAll},
      {Prim::kSinh, [](double x) { return std::sinh(x); }, Domain::kAll},
      {Prim::kCosh, [](double x) { return std::cosh(x); }, Domain::kAll},
      {Prim::kLog1p, [](double x) { return std::log1p(x); }, Domain::kPositive},
      {Prim::kExpm1, [](double x) { return std::expm1(x); }, Domain::kAll},
      {Prim::kExp2, [](double x) { return std::exp2(x); }, Domain::kAll},
  };
  return c;
}

TEST(UnaryMath, ValuesMatchFloat64) {
  for (const UnaryCase& c : unary_cases()) {
    const std::vector<float> x = c.domain == Domain::kPositive ? std::vector<float>{0.25f, 1.0f, 2.5f, 9.0f}
                                 : c.domain == Domain::kUnit   ? std::vector<float>{-0.9f, -0.5f, 0.0f, 0.75f}
                                                               : std::vector<float>{-2.0f, -0.5f, 0.0f, 1.75f};
    const auto got = evaluate([&](Builder& b, auto in) { return unary(b, c.prim, in[0]); }, {f32({4})}, {x});
    for (int i = 0; i < 4; ++i)
      EXPECT_NEAR(got[i], c.reference(x[i]), 1e-6 * (1 + std::abs(c.reference(x[i]))))
          << primitive(c.prim).name << " " << x[i];
  }
}

TEST(UnaryMath, JvpMatchesFiniteDifferences) {
  for (const UnaryCase& c : unary_cases()) {
    SCOPED_TRACE(primitive(c.prim).name);
    // Composed with a product so a zero tangent (sign) is not the whole output;
    // x / 2 keeps |x| < 1 for the unit domain (the points are in [-1, 1)).
    check_jvp(
        [&](Builder& b, auto in) {
          const Atom x = c.domain == Domain::kUnit ? mul(b, in[0], f32_scalar(0.5)) : in[0];
          return mul(b, unary(b, c.prim, x), in[1]);
        },
        {f32({2, 3}), f32({2, 3})}, c.domain == Domain::kPositive);
  }
}

TEST(UnaryMath, TransposeRefusesNonLinearPrimitives) {
  Builder b;
  const Atom x = b.input(f32({4}));
  for (const UnaryCase& c : unary_cases()) {
    const Atom y = unary(b, c.prim, x);
    const std::string m = testing::error_message([&] { primitive(c.prim).transpose(b, {}, {y}, {x}, {true}); });
    EXPECT_EQ(
        m, std::string(primitive(c.prim).name) + ": the program is not linear in its operand f32[4]; cannot transpose");
  }
}

TEST(UnaryMath, FloatOnlyPrimitivesRejectInt32) {
  Builder b;
  const Atom i = b.input(Aval{DType::kInt32, {3}, {}});
  EXPECT_EQ(testing::error_message([&] { unary(b, Prim::kExp, i); }),
            "exp: needs a floating-point operand, got i32[3]; convert it with convert_element_type");
  EXPECT_EQ(unary(b, Prim::kAbs, i).aval.dtype, DType::kInt32);
  const auto a = evaluate([](Builder& bb, auto in) { return unary(bb, Prim::kSquare, in[0]); }, {f32({2})}, {{-3, 2}});
  EXPECT_EQ(a, (std::vector<float>{9, 4}));
}

TEST(CeilAtan2, ValuesAndJvp) {
  const std::vector<float> x{-1.5f, -0.25f, 0.0f, 2.0f, 2.5f, -3.0f};
  const auto ceil = evaluate([](Builder& b, auto in) { return unary(b, Prim::kCeil, in[0]); }, {f32({6})}, {x});
  for (int i = 0; i < 6; ++i) EXPECT_EQ(ceil[i], std::ceil(x[i]));
  // atan2(y, x) in every quadrant and on the axes, against std::atan2 in double.
  const std::vector<float> ys{1, 1, -1, -1, 0, 2}, xs{1, -1, -1, 1, -2, 0};
  const auto at = evaluate([](Builder& b, auto in) { return b.emit1(Prim::kAtan2, {}, {in[0], in[1]}); },
                           {f32({6}), f32({6})}, {ys, xs});
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(at[i], std::atan2(double{ys[i]}, double{xs[i]}), 1e-6) << i;
  check_jvp([](Builder& b, auto in) { return b.emit1(Prim::kAtan2, {}, {in[0], add(b, in[1], f32_scalar(2))}); },
            {f32({2, 3}), f32({2, 3})});
  // A scalar operand broadcasts, its tangent too.
  check_jvp([](Builder& b, auto in) { return b.emit1(Prim::kAtan2, {}, {in[0], add(b, in[1], f32_scalar(2))}); },
            {f32({2, 3}), f32({})});
}

TEST(Div, ValuesJvpAndTranspose) {
  const auto v =
      evaluate([](Builder& b, auto in) { return div(b, in[0], in[1]); }, {f32({3}), f32({})}, {{1, -2, 3}, {4}});
  EXPECT_EQ(v, (std::vector<float>{0.25f, -0.5f, 0.75f}));
  check_jvp([](Builder& b, auto in) { return div(b, in[0], in[1]); }, {f32({2, 2}), f32({2, 2})}, true);
  check_jvp([](Builder& b, auto in) { return div(b, in[0], in[1]); }, {f32({2, 2}), f32({})}, true);
  check_transpose([](Builder& b, auto in) { return div(b, in[0], f32_scalar(4.0)); }, f32({3}));
  Builder b;
  const Atom x = b.input(f32({3})), y = b.input(f32({3}));
  const Atom z = div(b, x, y);
  EXPECT_NE(testing::error_message([&] {
              primitive(Prim::kDiv).transpose(b, {}, {z}, {x, y}, {false, true});
            }).find("div: the program is not linear in the divisor"),
            std::string::npos);
  // int32 division truncates, as lax.div (ir_elementwise_test checks its values); bool has no division.
  const Atom i = b.input(Aval{DType::kInt32, {3}, {}});
  EXPECT_EQ(div(b, i, i).aval.str(), "i32[3]");
  const Atom p = compare(b, Prim::kLt, i, i);
  EXPECT_NE(testing::error_message([&] { div(b, p, p); }).find("div: needs numeric operands"), std::string::npos);
}

TEST(IntegerPow, SquareAndMultiplyNegativePowersIntsAndJvp) {
  const auto run = [](int64_t y, const exec::HostArray& x) {
    return evaluate([y](Builder& b, auto in) { return b.emit1(Prim::kIntegerPow, {{"y", y}}, {in[0]}); }, {x});
  };
  const std::vector<float> x = {1.5f, -2.0f, 0.5f};
  for (int64_t y : {0, 1, 2, 3, 7, -1, -2}) {
    const auto z = exec::as_floats(run(y, exec::host_f32({3}, x)));
    for (size_t i = 0; i < x.size(); ++i) EXPECT_NEAR(z[i], std::pow(double(x[i]), double(y)), 1e-6 * std::fabs(std::pow(double(x[i]), double(y)))) << y;
  }
  EXPECT_EQ(exec::as_ints(run(3, exec::host_i32({2}, {-3, 2000}))), (std::vector<int32_t>{-27, static_cast<int32_t>(8000000000ll & 0xFFFFFFFF)}));
  for (int64_t y : {2, 3, -2}) check_jvp([y](Builder& b, auto in) { return b.emit1(Prim::kIntegerPow, {{"y", y}}, {add(b, in[0], f32_scalar(3.0))}); }, {f32({4})});
  Builder b;
  EXPECT_EQ(testing::error_message([&] { b.emit1(Prim::kIntegerPow, {{"y", int64_t{-1}}}, {b.input(Aval{DType::kInt32, {2}, {}})}); }),
            "integer_pow: a negative power y=-1 needs a floating-point operand, got i32[2]");
}

}  // namespace
}  // namespace shardlab::ir
