// The program layer's foundation: the registry, the builder's shape checks,
// jaxpr printing, and the elementwise primitives' rules. Values are checked
// against float64 references, JVP rules against central finite differences,
// and transpose rules with the dot-product identity <ct, J t> = <J^T ct, t>.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>

#include "exec/lockstep_program.h"
#include "ir/tracing/builder.h"
#include "ir/transforms/jvp.h"
#include "ir/transforms/lower.h"
#include "ir/transforms/vjp.h"
#include "ir/tracing/ops.h"
#include "ir/forms/print.h"
#include "ir_checks.h"
#include "test_util.h"

namespace shardlab::ir {
namespace {

using exec::as_floats;
using exec::host_f32;
using exec::interpret;

const Aval kF32x4{DType::kFloat32, {4}, {}};

TEST(Registry, EveryPrimitiveHasItsRules) {
  for (size_t i = 0; i < kNumPrims; ++i) {
    const PrimitiveDef& d = primitive(static_cast<Prim>(i));
    EXPECT_NE(d.name, nullptr);
    EXPECT_NE(d.shape, nullptr);
    // One kind of evaluation: local, on a device, lowered to others
    // (ir/transforms/lower.h), or by the executors themselves (shard_map, while).
    const bool by_executor = static_cast<Prim>(i) == Prim::kShardMap || static_cast<Prim>(i) == Prim::kWhile;
    EXPECT_EQ((d.eval != nullptr) + (d.eval_on_device != nullptr) + (d.lower != nullptr), by_executor ? 0 : 1) << d.name;
    EXPECT_EQ((d.jvp != nullptr) + (d.jvp_with_primal != nullptr), 1) << d.name;  // one JVP rule
    EXPECT_NE(d.transpose, nullptr);
  }
  EXPECT_STREQ(primitive(Prim::kMul).name, "mul");
}

TEST(Div, ByAFloatConstantRunsAsXlaRunsItAProductWithTheReciprocal) {
  // JAX's jnp.mean of 12 elements summing to 46 prints 3.8333335: XLA runs
  // sum / 12 as sum * f32(1/12), whose rounding differs from 46 / 12's.
  Builder b;
  const Atom x = b.input(Aval{DType::kFloat32, {2}, {}});
  const Atom y = b.input(Aval{DType::kFloat32, {2}, {}});
  const auto traced = std::make_shared<const Program>(b.build({div(b, x, Atom::constant(12.0, DType::kFloat32)), div(b, x, y)}));
  EXPECT_EQ(to_text(*traced), "{ lambda ; a:f32[2] b:f32[2]. let\n    c:f32[2] = div a 12.0:f32[]\n    d:f32[2] = div a b\n  in (c, d) }");
  const ProgramRef lowered = lower(traced);
  EXPECT_EQ(lowered->eqns[0].prim, Prim::kMul);
  EXPECT_EQ(lowered->eqns[1].prim, Prim::kDiv);  // a divisor that is no constant stays a division
  const auto out = interpret(*lowered, {host_f32({2}, {46.0f, 1.0f}), host_f32({2}, {12.0f, 12.0f})});
  const float reciprocal = 1.0f / 12.0f;
  EXPECT_EQ(as_floats(out[0]), (std::vector<float>{46.0f * reciprocal, reciprocal}));
  EXPECT_EQ(as_floats(out[0])[0], 3.83333349f);
  EXPECT_EQ(as_floats(out[1]), (std::vector<float>{46.0f / 12.0f, 1.0f / 12.0f}));
  EXPECT_EQ(as_floats(out[1])[0], 3.83333325f);
  // An integer division by a constant stays one (it truncates).
  Builder ib;
  const Atom i = ib.input(Aval{DType::kInt32, {1}, {}});
  EXPECT_EQ(lower(std::make_shared<const Program>(ib.build({div(ib, i, Atom::constant(3.0, DType::kInt32))})))->eqns[0].prim, Prim::kDiv);
}

TEST(Log, OfAnExpPowerOrSqrtRunsAsXlaSimplifiesIt) {
  // JAX's faq: under jit jnp.log(jnp.exp(100.)) is 100, not inf (XLA's
  // ln(exp(A)) => A); ln(pow(A, B)) => ln|A|·B, ln(sqrt(A)) => ln(A)·0.5,
  // ln(rsqrt(A)) => ln(A)·-0.5. The traced program keeps what was written.
  Builder b;
  const Atom x = b.input(Aval{DType::kFloat32, {2}, {}});
  const Atom y = b.input(Aval{DType::kFloat32, {2}, {}});
  auto log_of = [&](Prim p, std::vector<Atom> in) { return unary(b, Prim::kLog, b.emit1(p, {}, std::move(in))); };
  const auto traced = std::make_shared<const Program>(b.build(
      {log_of(Prim::kExp, {x}), log_of(Prim::kPow, {x, y}), log_of(Prim::kSqrt, {x}), log_of(Prim::kRsqrt, {x})}));
  EXPECT_EQ(traced->eqns[1].prim, Prim::kLog);
  const ProgramRef lowered = lower(traced);
  const auto out = interpret(*lowered, {host_f32({2}, {100.0f, -2.0f}), host_f32({2}, {3.0f, 2.0f})});
  EXPECT_EQ(as_floats(out[0]), (std::vector<float>{100.0f, -2.0f}));
  // pow(-2, 2) = 4, whose log the rewrite gives as ln|-2|·2.
  EXPECT_EQ(as_floats(out[1]), (std::vector<float>{std::log(100.0f) * 3.0f, std::log(2.0f) * 2.0f}));
  EXPECT_EQ(as_floats(out[2])[0], std::log(100.0f) * 0.5f);
  EXPECT_EQ(as_floats(out[3])[0], std::log(100.0f) * -0.5f);
  // Op by op (each its own program) the log of exp(100) = inf stays inf.
  Builder ob;
  const Atom e = ob.input(Aval{DType::kFloat32, {1}, {}});
  const auto alone = std::make_shared<const Program>(ob.build({unary(ob, Prim::kLog, e)}));
  EXPECT_TRUE(std::isinf(as_floats(interpret(*lower(alone), {host_f32({1}, {std::exp(100.0f)})})[0])[0]));
}

TEST(Print, OneLineLikeMakeJaxpr) {
  Builder b;
  const Atom x = b.input(Aval{DType::kFloat32, {8, 1}, {}});
  const Atom y = b.input(Aval{DType::kFloat32, {8, 1}, {}});
  EXPECT_EQ(to_text(b.build({mul(b, x, y)})), "{ lambda ; a:f32[8,1] b:f32[8,1]. let c:f32[8,1] = mul a b in (c,) }");
}

TEST(Print, TheScalarOperandExampleOfMakeJaxpr) {
  Builder b;
  const Atom x = b.input(Aval{DType::kFloat32, {8, 1}, {}});
  const Atom s = b.input(Aval{DType::kFloat32, {}, {}});
  EXPECT_EQ(to_text(b.build({mul(b, x, s)})), "{ lambda ; a:f32[8,1] b:f32[]. let c:f32[8,1] = mul a b in (c,) }");
}

// JAX prints a literal as str() of its value widened to a Python float: a
// float32 1.1 is 1.100000023841858 (what make_jaxpr(lambda x: x * 1.1) prints
// in JAX 0.11), 2 is 2.0, and Python's repr switches to an exponent below
// 1e-4 and from 1e16.
TEST(Print, FloatLiteralsAsPythonPrintsTheFloat32Value) {
  const auto printed = [](double v) {
    Builder b;
    const Atom x = b.input(Aval{DType::kFloat32, {}, {}});
    const std::string text = to_text(b.build({mul(b, x, Atom::constant(v, DType::kFloat32))}));
    const size_t at = text.find("mul a ") + 6;
    return text.substr(at, text.find(':', at) - at);
  };
  EXPECT_EQ(printed(1.1), "1.100000023841858");
  EXPECT_EQ(printed(2), "2.0");
  EXPECT_EQ(printed(-0.5), "-0.5");
  EXPECT_EQ(printed(0.1), "0.10000000149011612");
  EXPECT_EQ(printed(1e-4), "9.999999747378752e-05");
  EXPECT_EQ(printed(1e-3), "0.0010000000474974513");
  EXPECT_EQ(printed(1e16), "1.0000000272564224e+16");
  EXPECT_EQ(printed(123456.0), "123456.0");
  EXPECT_EQ(printed(1e15), "999999986991104.0");
}

// A value used twice gets the sum of two cotangents, which JAX's autodiff
// writes add_any (add_jaxvals): the gradient of sin(x) * x reads so, and
// add_any has add's values and derivatives.
TEST(AddAny, SumsTheCotangentsOfOneValue) {
  Builder b;
  const Atom x = b.input(f32({}));
  const Program g = vjp(b.build({mul(b, unary(b, Prim::kSin, x), x)}));
  EXPECT_NE(to_text(g).find("add_any"), std::string::npos) << to_text(g);
  EXPECT_EQ(to_text(g).find(" add "), std::string::npos) << to_text(g);
  EXPECT_EQ(evaluate([](Builder& bb, auto in) { return add_any(bb, in[0], in[1]); }, {f32({3}), f32({3})}, {{1, 2, 3}, {10, 20, 30}}),
            (std::vector<float>{11, 22, 33}));
  check_jvp([](Builder& bb, auto in) { return add_any(bb, in[0], in[1]); }, {f32({3}), f32({3})});
  for (size_t linear : {0, 1}) check_transpose([](Builder& bb, auto in) { return add_any(bb, in[0], in[1]); }, {f32({3}), f32({3})}, linear);
}

TEST(Print, ManyEquationsOnePerLineWithVaryingAxes) {
  Builder b;
  const Atom x = b.input(Aval{DType::kFloat32, {4, 2}, {"data"}});
  const Atom y = b.input(Aval{DType::kFloat32, {4, 2}, {}});
  const Atom z = neg(b, sub(b, add(b, x, y), y));
  EXPECT_EQ(to_text(b.build({z, y})),
            "{ lambda ; a:f32[4,2]{V:data} b:f32[4,2]. let\n"
            "    c:f32[4,2]{V:data} = add a b\n"
            "    d:f32[4,2]{V:data} = sub c b\n"
            "    e:f32[4,2]{V:data} = neg d\n"
            "  in (e, b) }");
}

TEST(Print, VariableNamesContinuePastZ) {
  EXPECT_EQ(var_name(0), "a");
  EXPECT_EQ(var_name(25), "z");
  EXPECT_EQ(var_name(26), "ba");
  EXPECT_EQ(var_name(27), "bb");
  EXPECT_EQ(var_name(52), "ca");
}

TEST(Shapes, BadOperandsAreRejectedWhenTraced) {
  Builder b;
  const Atom x = b.input(kF32x4);
  const Atom y = b.input(Aval{DType::kFloat32, {3}, {}});
  const Atom i = b.input(Aval{DType::kInt32, {4}, {}});
  EXPECT_EQ(testing::error_message([&] { add(b, x, y); }),
            "add: operand shapes must be equal (or one a scalar), got f32[4] and f32[3]; broadcast one first "
            "(broadcast_in_dim; the np.* functions broadcast for you)");
  EXPECT_EQ(testing::error_message([&] { mul(b, x, i); }),
            "mul: operand dtypes differ (f32[4] and i32[4]); convert one with convert_element_type");
}

// Builds f(x, y) with one primitive, for the rule tests.
using BinaryOp = std::function<Atom(Builder&, const Atom&, const Atom&)>;

struct Case {
  const char* name;
  BinaryOp op;
  std::function<double(double, double)> reference;
};

const std::vector<Case>& cases() {
  static const std::vector<Case> c = {
      {"add", [](Builder& b, const Atom& x, const Atom& y) { return add(b, x, y); },
       [](double x, double y) { return x + y; }},
      {"sub", [](Builder& b, const Atom& x, const Atom& y) { return sub(b, x, y); },
       [](double x, double y) { return x - y; }},
      {"mul", [](Builder& b, const Atom& x, const Atom& y) { return mul(b, x, y); },
       [](double x, double y) { return x * y; }},
      {"neg", [](Builder& b, const Atom& x, const Atom&) { return neg(b, x); }, [](double x, double) { return -x; }},
  };
  return c;
}

const std::vector<float> kX = {0.5f, -1.25f, 2.0f, 3.5f};
const std::vector<float> kY = {-0.75f, 1.5f, 0.25f, -2.0f};

std::vector<float> run(const Case& c, const std::vector<float>& x, const std::vector<float>& y) {
  Builder b;
  const Atom a = b.input(kF32x4), bb = b.input(kF32x4);
  return as_floats(interpret(b.build({c.op(b, a, bb)}), {host_f32({4}, x), host_f32({4}, y)})[0]);
}

TEST(Elementwise, ValuesMatchFloat64) {
  for (const Case& c : cases()) {
    const auto got = run(c, kX, kY);
    for (int i = 0; i < 4; ++i) EXPECT_NEAR(got[i], c.reference(kX[i], kY[i]), 1e-6) << c.name << " " << i;
  }
}

// The JVP rule's tangent output, evaluated, against (f(x + h t) - f(x - h t)) / 2h.
TEST(Elementwise, JvpMatchesFiniteDifferences) {
  const std::vector<float> tx = {1.0f, -0.5f, 0.25f, 2.0f}, ty = {0.5f, 1.0f, -1.5f, 0.75f};
  for (const Case& c : cases()) {
    for (int which = 0; which < 3; ++which) {  // tangent on x only, y only, both
      Builder b;
      const Atom x = b.input(kF32x4), y = b.input(kF32x4), dx = b.input(kF32x4), dy = b.input(kF32x4);
      const Atom z = c.op(b, x, y);
      const Eqn e = b.build({z}).eqns.back();
      std::vector<MaybeAtom> tangents(e.inputs.size());
      tangents[0] = which != 1 ? MaybeAtom(dx) : std::nullopt;
      if (tangents.size() > 1) tangents[1] = which != 0 ? MaybeAtom(dy) : std::nullopt;
      const MaybeAtom dz = primitive(e.prim).jvp(b, e.params, e.inputs, {z}, tangents)[0];
      const bool zero = !dz;
      const auto got = zero ? std::vector<float>(4, 0.0f)
                            : as_floats(interpret(b.build({*dz}), {host_f32({4}, kX), host_f32({4}, kY),
                                                                   host_f32({4}, tx), host_f32({4}, ty)})[0]);
      const double h = 1e-3;
      for (int i = 0; i < 4; ++i) {
        const double sx = which != 1 ? tx[i] : 0.0, sy = which != 0 ? ty[i] : 0.0;
        const double fd =
            (c.reference(kX[i] + h * sx, kY[i] + h * sy) - c.reference(kX[i] - h * sx, kY[i] - h * sy)) / (2 * h);
        EXPECT_NEAR(got[i], fd, 1e-4) << c.name << " tangent case " << which << " element " << i;
      }
    }
  }
}

// For each operand the primitive is linear in, <ct, f(t)> = <f^T(ct), t>.
TEST(Elementwise, TransposeSatisfiesTheDotProductIdentity) {
  const std::vector<float> t = {0.3f, -1.1f, 0.7f, 2.2f}, ct = {1.5f, 0.25f, -0.5f, 1.0f};
  for (const Case& c : cases()) {
    const int arity = std::string(c.name) == "neg" ? 1 : 2;
    for (int lin = 0; lin < arity; ++lin) {
      Builder b;
      const Atom x = b.input(kF32x4), y = b.input(kF32x4), tv = b.input(kF32x4), ctv = b.input(kF32x4);
      // f(t) with the other operand fixed: the linear map whose transpose we check.
      const Atom ft = lin == 0 ? c.op(b, tv, y) : c.op(b, x, tv);
      const Eqn e = b.build({ft}).eqns.back();
      std::vector<bool> linear(e.inputs.size(), false);
      linear[lin] = true;
      // add and sub are linear in both operands jointly; fix the other one at zero for them.
      const auto cts = primitive(e.prim).transpose(b, e.params, {ctv}, e.inputs, linear);
      ASSERT_TRUE(cts[lin].has_value()) << c.name;
      const std::vector<float> zeros(4, 0.0f);
      const bool affine = std::string(c.name) == "add" || std::string(c.name) == "sub";
      const std::vector<float> other = affine ? zeros : (lin == 0 ? kY : kX);
      const auto outs = interpret(b.build({ft, *cts[lin]}),
                                  {host_f32({4}, lin == 0 ? kX : other), host_f32({4}, lin == 0 ? other : kY),
                                   host_f32({4}, t), host_f32({4}, ct)});
      const auto f_t = as_floats(outs[0]), ft_ct = as_floats(outs[1]);
      double lhs = 0, rhs = 0;
      for (int i = 0; i < 4; ++i) {
        lhs += static_cast<double>(ct[i]) * f_t[i];
        rhs += static_cast<double>(ft_ct[i]) * t[i];
      }
      EXPECT_NEAR(lhs, rhs, 1e-5) << c.name << " linear in operand " << lin;
    }
  }
}

TEST(Elementwise, MulOfTwoLinearOperandsCannotBeTransposed) {
  Builder b;
  const Atom x = b.input(kF32x4), y = b.input(kF32x4);
  const Atom z = mul(b, x, y);
  const Eqn e = b.build({z}).eqns.back();
  EXPECT_NE(testing::error_message([&] {
              primitive(Prim::kMul).transpose(b, e.params, {z}, e.inputs, {true, true});
            }).find("mul: cannot transpose a product of two linear operands"),
            std::string::npos);
}

// max, min and pow.

TEST(MaxMin, Float32ValuesPropagateNaN) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> x = {1, -2, 3, nan, 0.5f, -0.0f}, y = {1, 2, -3, 4, nan, 7};
  const auto hi = as_floats(
      evaluate([](Builder& b, auto in) { return max(b, in[0], in[1]); }, {host_f32({6}, x), host_f32({6}, y)}));
  const auto lo = as_floats(
      evaluate([](Builder& b, auto in) { return min(b, in[0], in[1]); }, {host_f32({6}, x), host_f32({6}, y)}));
  for (int i = 0; i < 6; ++i) {
    if (std::isnan(x[i]) || std::isnan(y[i])) {
      EXPECT_TRUE(std::isnan(hi[i]) && std::isnan(lo[i])) << i;
    } else {
      EXPECT_EQ(hi[i], x[i] > y[i] ? x[i] : y[i]) << i;
      EXPECT_EQ(lo[i], x[i] < y[i] ? x[i] : y[i]) << i;
    }
  }
  // relu: max(x, 0.0) with a scalar literal.
  EXPECT_EQ(as_floats(evaluate([](Builder& b, auto in) { return max(b, in[0], f32_scalar(0.0)); },
                               {host_f32({3}, {-1, 0.25f, 2})})),
            (std::vector<float>{0, 0.25f, 2}));
}

TEST(MaxMin, Int32AndBoolValues) {
  const std::vector<int32_t> x = {-7, 3, 2147483647, 0}, y = {5, 3, -2147483647 - 1, -1};
  const auto hi = exec::as_ints(evaluate([](Builder& b, auto in) { return max(b, in[0], in[1]); },
                                         {exec::host_i32({4}, x), exec::host_i32({4}, y)}));
  const auto lo = exec::as_ints(evaluate([](Builder& b, auto in) { return min(b, in[0], in[1]); },
                                         {exec::host_i32({4}, x), exec::host_i32({4}, y)}));
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(hi[i], std::max(x[i], y[i]));
    EXPECT_EQ(lo[i], std::min(x[i], y[i]));
  }
  // Bools: max is or, min is and.
  const auto any = exec::as_ints(
      evaluate([](Builder& b,
                  auto in) { return max(b, compare(b, Prim::kGt, in[0], in[1]), compare(b, Prim::kLt, in[0], in[1])); },
               {exec::host_i32({4}, x), exec::host_i32({4}, y)}));
  for (int i = 0; i < 4; ++i) EXPECT_EQ(any[i], x[i] != y[i] ? 1 : 0);
}

// y + 2.5 in the first two columns and y - 2.5 in the others: against values
// in [-1, 1), max and min choose each operand somewhere, with a gap of at least
// 0.5, so the finite differences never cross a kink.
Atom apart(Builder& b, const Atom& y) {
  const Shape& s = y.aval.shape;
  const Atom first_two = compare(b, Prim::kLt, iota(b, DType::kInt32, s, static_cast<int64_t>(s.size()) - 1),
                                 Atom::constant(2, DType::kInt32));
  return select_n(b, first_two, {sub(b, y, f32_scalar(2.5)), add(b, y, f32_scalar(2.5))});
}

TEST(MaxMin, JvpMatchesFiniteDifferencesAwayFromTies) {
  for (auto op : {&max, &min}) {
    check_jvp([&](Builder& b, auto in) { return mul(b, op(b, in[0], apart(b, in[1])), in[0]); },
              {f32({2, 3}), f32({2, 3})});
    check_jvp([&](Builder& b, auto in) { return op(b, in[0], apart(b, in[1])); }, {f32({}), f32({4})});
    check_jvp([&](Builder& b, auto in) { return op(b, apart(b, in[0]), f32_scalar(0.1)); }, {f32({5})});
  }
}

// The tangent of f(x, y) at (x, y) in the direction (dx, dy), from the JVP pass.
std::vector<float> tangent_of(const BinaryOp& f, const Aval& aval, const std::vector<std::vector<float>>& values) {
  Builder b;
  const Atom x = b.input(aval), y = b.input(aval);
  const Program lin = jvp(b.build({f(b, x, y)}));
  std::vector<exec::HostArray> args;
  for (const auto& v : values) args.push_back(host_f32(aval.shape, v));
  return as_floats(interpret(lin, args)[1]);
}

TEST(MaxMin, TiesSplitTheTangentHalfAndHalf) {
  // x == y everywhere: dz = (dx + dy) / 2, for max and min alike.
  for (auto op : {&max, &min}) {
    const auto dz = tangent_of([&](Builder& b, const Atom& x, const Atom& y) { return op(b, x, y); }, kF32x4,
                               {{1, 2, -3, 0}, {1, 2, -3, 0}, {1, 0, 2, -1}, {0, 4, 2, 3}});
    EXPECT_EQ(dz, (std::vector<float>{0.5f, 2, 2, 1}));
  }
  // Integer results have no tangent.
  Builder b;
  const Atom i = b.input(Aval{DType::kInt32, {2}, {}});
  const Atom z = max(b, i, i);
  EXPECT_FALSE(primitive(Prim::kMax).jvp(b, {}, {i, i}, {z}, {i, i})[0].has_value());
}

TEST(Pow, ValuesMatchStdPow) {
  const std::vector<float> x = {2, 0.5f, -2, 0, 0, 9, -8}, y = {3, -1.5f, 3, 0, 2, 0.5f, 0.5f};
  const auto z = as_floats(
      evaluate([](Builder& b, auto in) { return pow(b, in[0], in[1]); }, {host_f32({7}, x), host_f32({7}, y)}));
  for (int i = 0; i < 6; ++i)
    EXPECT_NEAR(z[i], std::pow(static_cast<double>(x[i]), static_cast<double>(y[i])), 1e-6) << i;
  EXPECT_TRUE(std::isnan(z[6]));  // a negative base to a fractional power
  const auto s = as_floats(
      evaluate([](Builder& b, auto in) { return pow(b, in[0], f32_scalar(2.0)); }, {host_f32({3}, {-3, 0.5f, 4})}));
  EXPECT_EQ(s, (std::vector<float>{9, 0.25f, 16}));
}

TEST(Pow, JvpMatchesFiniteDifferences) {
  check_jvp([](Builder& b, auto in) { return pow(b, in[0], in[1]); }, {f32({2, 3}), f32({2, 3})}, true);
  check_jvp([](Builder& b, auto in) { return pow(b, in[0], in[1]); }, {f32({4}), f32({})}, true);
  check_jvp([](Builder& b, auto in) { return pow(b, in[1], in[0]); }, {f32({4}), f32({})}, true);
  check_jvp([](Builder& b, auto in) { return pow(b, in[0], f32_scalar(3.0)); }, {f32({5})});
}

TEST(Pow, JvpAtZeroBaseOrExponentIsFiniteAsInJax) {
  const BinaryOp f = [](Builder& b, const Atom& x, const Atom& y) { return pow(b, x, y); };
  // x = 0, y = 2: 2 * 0 * dx + 0; x = 0, y = 0: 0 + log(1) * 1 * dy; x = 2, y = 0: 0 + log(2) * dy;
  // x = 0, y = 1: 1 * 1 * dx.
  const auto dz = tangent_of(f, kF32x4, {{0, 0, 2, 0}, {2, 0, 0, 1}, {1, 1, 1, 1}, {1, 1, 1, 1}});
  EXPECT_EQ(dz[0], 0.0f);
  EXPECT_EQ(dz[1], 0.0f);
  EXPECT_NEAR(dz[2], std::log(2.0), 1e-6);
  EXPECT_EQ(dz[3], 1.0f);
}

TEST(MaxMinPow, NotLinearAndPowNeedsFloat32) {
  Builder b;
  const Atom x = b.input(kF32x4), y = b.input(kF32x4);
  for (Prim prim : {Prim::kMax, Prim::kMin, Prim::kPow}) {
    const Atom z = b.emit1(prim, {}, {x, y});
    EXPECT_EQ(
        testing::error_message([&] {
          primitive(prim).transpose(b, {}, {z}, {x, y}, {false, true});
        }),
        std::string(primitive(prim).name) + ": the program is not linear in its operand f32[4]; cannot transpose");
  }
  const Atom i = b.input(Aval{DType::kInt32, {4}, {}});
  EXPECT_EQ(testing::error_message([&] { pow(b, i, i); }),
            "pow: needs floating-point operands, got i32[4] and i32[4]; convert them with convert_element_type");
  EXPECT_EQ(testing::error_message([&] { max(b, x, i); }),
            "max: operand dtypes differ (f32[4] and i32[4]); convert one with convert_element_type");
  const Atom v = b.input(Aval{DType::kFloat32, {4}, {"data"}});
  EXPECT_EQ(min(b, v, f32_scalar(0.0)).aval.str(), "f32[4]{V:data}");
}

}  // namespace
}  // namespace shardlab::ir

namespace shardlab::ir {
namespace {

// rem, int32 div, floor and round: values against std:: references (float64
// for the floats), XLA's results for division by zero, JVPs against finite
// differences away from the kinks, and zero tangents where piecewise constant.
TEST(RemDivFloorRound, ValuesAsXlaAndStd) {
  const std::vector<float> x = {7.5f, -7.5f, 7.5f, -7.5f, 0.0f, 5.0f}, y = {2.0f, 2.0f, -2.0f, -2.0f, 3.0f, 0.5f};
  const auto r = as_floats(evaluate([](Builder& b, auto in) { return b.emit1(Prim::kRem, {}, {in[0], in[1]}); },
                                    {host_f32({6}, x), host_f32({6}, y)}));
  for (int i = 0; i < 6; ++i) EXPECT_EQ(r[i], static_cast<float>(std::fmod(double{x[i]}, double{y[i]}))) << i;
  const std::vector<int32_t> a = {7, -7, 7, -7, 5, -2147483647 - 1, 9}, c = {2, 2, -2, -2, 0, -1, 3};
  const auto ri = exec::as_ints(evaluate([](Builder& b, auto in) { return b.emit1(Prim::kRem, {}, {in[0], in[1]}); },
                                         {exec::host_i32({7}, a), exec::host_i32({7}, c)}));
  const auto qi = exec::as_ints(evaluate([](Builder& b, auto in) { return b.emit1(Prim::kDiv, {}, {in[0], in[1]}); },
                                         {exec::host_i32({7}, a), exec::host_i32({7}, c)}));
  EXPECT_EQ(ri, (std::vector<int32_t>{1, -1, 1, -1, 5, 0, 0}));                   // x % 0 is x, as XLA
  EXPECT_EQ(qi, (std::vector<int32_t>{3, -3, -3, 3, -1, -2147483647 - 1, 3}));  // x / 0 is -1, as XLA
  const std::vector<float> v = {-2.5f, -1.5f, -0.5f, 0.5f, 1.5f, 2.5f, 2.7f, -2.2f};
  const auto fl = as_floats(evaluate([](Builder& b, auto in) { return unary(b, Prim::kFloor, in[0]); }, {host_f32({8}, v)}));
  const auto away = as_floats(evaluate([](Builder& b, auto in) { return b.emit1(Prim::kRound, {{"rounding_method", int64_t{0}}}, {in[0]}); },
                                       {host_f32({8}, v)}));
  const auto even = as_floats(evaluate([](Builder& b, auto in) { return b.emit1(Prim::kRound, {{"rounding_method", int64_t{1}}}, {in[0]}); },
                                       {host_f32({8}, v)}));
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(fl[i], static_cast<float>(std::floor(double{v[i]}))) << i;
    EXPECT_EQ(away[i], static_cast<float>(std::round(double{v[i]}))) << i;
    EXPECT_EQ(even[i], static_cast<float>(std::nearbyint(double{v[i]}))) << i;  // the default mode: halves to even
  }
  EXPECT_EQ(even, (std::vector<float>{-2, -2, -0.0f, 0, 2, 2, 3, -2}));
}

TEST(RemDivFloorRound, JvpsAndErrors) {
  // rem: dz = dx - dy * trunc(x / y); x in [-1, 1) against y in [2.5, 3.5): trunc(x / y) = 0 there, so
  // shift x far enough that the quotient is 1 or -1 without crossing an integer.
  check_jvp([](Builder& b, auto in) {
    const Atom x = add(b, mul(b, in[0], f32_scalar(0.3)), f32_scalar(4.0));
    const Atom y = add(b, mul(b, in[1], f32_scalar(0.3)), f32_scalar(3.0));
    return b.emit1(Prim::kRem, {}, {x, y});
  }, {f32({2, 3}), f32({2, 3})});
  Builder b;
  const Atom x = b.input(kF32x4);
  EXPECT_FALSE(primitive(Prim::kFloor).jvp(b, {}, {x}, {unary(b, Prim::kFloor, x)}, {x})[0].has_value());
  EXPECT_EQ(testing::error_message([&] { b.emit1(Prim::kRound, {{"rounding_method", int64_t{2}}}, {x}); }),
            "round: rounding_method is 2; it is 0 (halves away from zero) or 1 (halves to even)");
  const Atom i = b.input(Aval{DType::kInt32, {4}, {}});
  EXPECT_EQ(testing::error_message([&] { unary(b, Prim::kFloor, i); }),
            "floor: needs a floating-point operand, got i32[4]; convert it with convert_element_type");
}

TEST(Print, ClosedOverArraysAreConstvarsBeforeTheSemicolon) {
  Builder b;
  const Atom x = b.input(f32({3})), c = b.input(f32({3}));  // c: a constant the function closed over
  const Program p = b.build({add(b, x, c)});
  EXPECT_EQ(to_text(p, 1), "{ lambda a:f32[3]; b:f32[3]. let c:f32[3] = add b a in (c,) }");
  EXPECT_EQ(to_text(p), "{ lambda ; a:f32[3] b:f32[3]. let c:f32[3] = add a b in (c,) }");
}

}  // namespace
}  // namespace shardlab::ir
