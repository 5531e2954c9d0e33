// broadcast_in_dim, reshape and reduce_sum: values against references from
// the definitions, shape errors, each rule's transpose by the dot-product
// identity, and the whole-program JVP pass against finite differences.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "exec/interpreter.h"
#include "ir/builder.h"
#include "ir/jvp.h"
#include "ir/vjp.h"
#include "ir/ops.h"
#include "ir/print.h"
#include "test_util.h"

namespace shardlab::ir {
namespace {

using exec::as_floats;
using exec::host_f32;
using exec::interpret;

Aval f32(Shape s) { return Aval{DType::kFloat32, std::move(s), {}}; }

using Body = std::function<Atom(Builder&, const std::vector<Atom>&)>;

std::vector<float> evaluate(const Body& f, const std::vector<Aval>& avals, const std::vector<std::vector<float>>& xs) {
  Builder b;
  std::vector<Atom> in;
  for (const Aval& a : avals) in.push_back(b.input(a));
  std::vector<exec::HostArray> args;
  for (size_t i = 0; i < xs.size(); ++i) args.push_back(host_f32(avals[i].shape, xs[i]));
  return as_floats(interpret(b.build({f(b, in)}), args)[0]);
}

// For a single-equation linear f of one input: <ct, f(t)> = <f^T(ct), t>.
void check_transpose(const Body& f, const Aval& in) {
  Builder b;
  const Atom t = b.input(in);
  const Atom y = f(b, {t});
  const Eqn e = b.build({y}).eqns.back();
  const Atom ct = b.input(y.aval);
  const auto cts = primitive(e.prim).transpose(b, e.params, {ct}, e.inputs, {true});
  ASSERT_TRUE(cts[0].has_value());
  EXPECT_EQ(cts[0]->aval, in) << "the cotangent has the operand's type";
  const auto tv = testing::random_floats(num_elements(in.shape), 1);
  const auto cv = testing::random_floats(num_elements(y.aval.shape), 2);
  const auto outs = interpret(b.build({y, *cts[0]}), {host_f32(in.shape, tv), host_f32(y.aval.shape, cv)});
  const auto ft = as_floats(outs[0]), ftc = as_floats(outs[1]);
  double lhs = 0, rhs = 0;
  for (size_t i = 0; i < ft.size(); ++i) lhs += static_cast<double>(cv[i]) * ft[i];
  for (size_t i = 0; i < ftc.size(); ++i) rhs += static_cast<double>(ftc[i]) * tv[i];
  EXPECT_NEAR(lhs, rhs, 1e-4 * (1 + std::abs(lhs))) << to_text(b.build({*cts[0]}));
}

// The JVP pass's tangent output against central finite differences of f.
void check_jvp(const Body& f, const std::vector<Aval>& avals) {
  Builder b;
  std::vector<Atom> in;
  for (const Aval& a : avals) in.push_back(b.input(a));
  const Program primal = b.build({f(b, in)});
  const Program lin = jvp(primal);
  std::vector<std::vector<float>> xs, ts;
  for (size_t i = 0; i < avals.size(); ++i) {
    xs.push_back(testing::random_floats(num_elements(avals[i].shape), 10 + i));
    ts.push_back(testing::random_floats(num_elements(avals[i].shape), 20 + i));
  }
  std::vector<exec::HostArray> args;
  for (size_t i = 0; i < avals.size(); ++i) args.push_back(host_f32(avals[i].shape, xs[i]));
  for (size_t i = 0; i < avals.size(); ++i) args.push_back(host_f32(avals[i].shape, ts[i]));
  const auto out = interpret(lin, args);
  const auto tangent = as_floats(out[1]);
  const float h = 1e-2f;
  auto shifted = [&](float sign) {
    std::vector<exec::HostArray> a;
    for (size_t i = 0; i < avals.size(); ++i) {
      std::vector<float> v = xs[i];
      for (size_t k = 0; k < v.size(); ++k) v[k] += sign * h * ts[i][k];
      a.push_back(host_f32(avals[i].shape, v));
    }
    return as_floats(interpret(primal, a)[0]);
  };
  const auto plus = shifted(1), minus = shifted(-1);
  for (size_t k = 0; k < tangent.size(); ++k)
    EXPECT_NEAR(tangent[k], (plus[k] - minus[k]) / (2 * h), 2e-3) << "element " << k << "\n" << to_text(lin);
}

TEST(BroadcastInDim, ValuesFollowTheDimensionMap) {
  // x[3] -> [2,3] along dimension 1: every row is x.
  const auto rows = evaluate([](Builder& b, auto in) { return broadcast_in_dim(b, in[0], {2, 3}, {1}); }, {f32({3})},
                             {{1, 2, 3}});
  EXPECT_EQ(rows, (std::vector<float>{1, 2, 3, 1, 2, 3}));
  // x[2,1] -> [2,3] stretching the unit dimension: every column is x.
  const auto cols = evaluate([](Builder& b, auto in) { return broadcast_in_dim(b, in[0], {2, 3}, {0, 1}); },
                             {f32({2, 1})}, {{5, 7}});
  EXPECT_EQ(cols, (std::vector<float>{5, 5, 5, 7, 7, 7}));
  // A scalar to [2,2].
  const auto full = evaluate([](Builder& b, auto in) { return broadcast_in_dim(b, in[0], {2, 2}, {}); }, {f32({})},
                             {{4}});
  EXPECT_EQ(full, (std::vector<float>{4, 4, 4, 4}));
}

TEST(BroadcastInDim, TransposeSumsTheRepeatedDimensions) {
  check_transpose([](Builder& b, auto in) { return broadcast_in_dim(b, in[0], {4, 3}, {1}); }, f32({3}));
  check_transpose([](Builder& b, auto in) { return broadcast_in_dim(b, in[0], {2, 3, 4}, {0, 2}); }, f32({2, 1}));
  check_transpose([](Builder& b, auto in) { return broadcast_in_dim(b, in[0], {5}, {}); }, f32({}));
  check_transpose([](Builder& b, auto in) { return broadcast_in_dim(b, in[0], {2, 3}, {0, 1}); }, f32({2, 3}));
}

TEST(BroadcastInDim, Errors) {
  Builder b;
  const Atom x = b.input(f32({3}));
  EXPECT_EQ(testing::error_message([&] { broadcast_in_dim(b, x, {3, 4}, {1}); }),
            "broadcast_in_dim: operand dimension 0 of f32[3] has size 3 but output dimension 1 of [3,4] has size 4; "
            "they must be equal or the operand's must be 1");
  EXPECT_NE(testing::error_message([&] { broadcast_in_dim(b, x, {3, 4}, {}); }).find("has 0 entries but the operand"),
            std::string::npos);
}

TEST(Reshape, ValuesAndErrors) {
  const auto v = evaluate([](Builder& b, auto in) { return reshape(b, in[0], {3, 2}); }, {f32({2, 3})},
                          {{1, 2, 3, 4, 5, 6}});
  EXPECT_EQ(v, (std::vector<float>{1, 2, 3, 4, 5, 6}));
  check_transpose([](Builder& b, auto in) { return reshape(b, in[0], {6}); }, f32({2, 3}));
  Builder b;
  const Atom x = b.input(f32({2, 3}));
  EXPECT_EQ(testing::error_message([&] { reshape(b, x, {4}); }),
            "reshape: cannot reshape f32[2,3] (6 elements) to [4] (4 elements)");
}

TEST(ReduceSum, ValuesOverEveryAxisSubset) {
  const std::vector<float> x = {1, 2, 3, 4, 5, 6};  // [[1,2,3],[4,5,6]]
  auto sum = [&](std::vector<int64_t> axes) {
    return evaluate([&](Builder& b, auto in) { return reduce_sum(b, in[0], axes); }, {f32({2, 3})}, {x});
  };
  EXPECT_EQ(sum({0}), (std::vector<float>{5, 7, 9}));
  EXPECT_EQ(sum({1}), (std::vector<float>{6, 15}));
  EXPECT_EQ(sum({0, 1}), (std::vector<float>{21}));
  EXPECT_EQ(sum({}), x);
  Builder b;
  const Atom a = b.input(f32({2, 3}));
  EXPECT_NE(testing::error_message([&] { reduce_sum(b, a, {2}); }).find("must be distinct, increasing dimensions"),
            std::string::npos);
  EXPECT_NE(testing::error_message([&] { reduce_sum(b, a, {1, 1}); }).find("must be distinct"), std::string::npos);
}

TEST(ReduceSum, TransposeBroadcastsBack) {
  check_transpose([](Builder& b, auto in) { return reduce_sum(b, in[0], {0}); }, f32({4, 3}));
  check_transpose([](Builder& b, auto in) { return reduce_sum(b, in[0], {0, 2}); }, f32({2, 3, 4}));
  check_transpose([](Builder& b, auto in) { return reduce_sum(b, in[0], {0}); }, f32({5}));
}

TEST(JvpPass, CompositeProgramsMatchFiniteDifferences) {
  // A squared-error loss: sum((x * w - y)^2) over rows and columns.
  check_jvp(
      [](Builder& b, const std::vector<Atom>& in) {
        const Atom r = sub(b, mul(b, in[0], in[1]), in[2]);
        return reduce_sum(b, mul(b, r, r), {0, 1});
      },
      {f32({4, 3}), f32({4, 3}), f32({4, 3})});
  // Broadcasting a bias, reshaping, negating.
  check_jvp(
      [](Builder& b, const std::vector<Atom>& in) {
        const Atom biased = add(b, in[0], broadcast_in_dim(b, in[1], {2, 3}, {1}));
        return neg(b, reshape(b, mul(b, biased, biased), {6}));
      },
      {f32({2, 3}), f32({3})});
}

TEST(JvpPass, AnOutputThatDoesNotDependOnTheInputsHasZeroTangent) {
  Builder b;
  const Atom x = b.input(f32({2}));
  const Atom c = broadcast_in_dim(b, Atom::constant(3.0, DType::kFloat32), {2}, {});
  const Program lin = jvp(b.build({x, c}));
  const auto out = interpret(lin, {host_f32({2}, {1, 2}), host_f32({2}, {5, 6})});
  EXPECT_EQ(as_floats(out[2]), (std::vector<float>{5, 6}));
  EXPECT_EQ(as_floats(out[3]), (std::vector<float>{0, 0}));
  EXPECT_EQ(as_floats(out[1]), (std::vector<float>{3, 3}));
}

// The gradient of a scalar loss from the VJP pass (cotangent 1) against
// central finite differences, coordinate by coordinate.
TEST(VjpPass, GradientOfALossMatchesFiniteDifferences) {
  const Body loss = [](Builder& b, const std::vector<Atom>& in) {
    // sum((x * w + broadcast(bias) - y)^2)
    const Atom pred = add(b, mul(b, in[0], in[1]), broadcast_in_dim(b, in[2], {4, 3}, {1}));
    const Atom r = sub(b, pred, in[3]);
    return reduce_sum(b, mul(b, r, r), {0, 1});
  };
  const std::vector<Aval> avals = {f32({4, 3}), f32({4, 3}), f32({3}), f32({4, 3})};
  Builder b;
  std::vector<Atom> in;
  for (const Aval& a : avals) in.push_back(b.input(a));
  const Program primal = b.build({loss(b, in)});
  const Program grad = vjp(primal);
  std::vector<std::vector<float>> xs;
  for (size_t i = 0; i < avals.size(); ++i) xs.push_back(testing::random_floats(num_elements(avals[i].shape), 30 + i));
  auto args_of = [&](const std::vector<std::vector<float>>& v) {
    std::vector<exec::HostArray> a;
    for (size_t i = 0; i < avals.size(); ++i) a.push_back(host_f32(avals[i].shape, v[i]));
    return a;
  };
  auto args = args_of(xs);
  args.push_back(host_f32({}, {1.0f}));
  const auto out = interpret(grad, args);
  ASSERT_EQ(out.size(), 1 + avals.size());
  const double h = 1e-2;
  for (size_t i = 0; i < avals.size(); ++i) {
    const auto g = as_floats(out[1 + i]);
    ASSERT_EQ(g.size(), xs[i].size());
    for (size_t k = 0; k < g.size(); ++k) {
      auto up = xs, down = xs;
      up[i][k] += static_cast<float>(h);
      down[i][k] -= static_cast<float>(h);
      const double fd =
          (as_floats(interpret(primal, args_of(up))[0])[0] - as_floats(interpret(primal, args_of(down))[0])[0]) / (2 * h);
      EXPECT_NEAR(g[k], fd, 2e-2 * (1 + std::abs(fd))) << "input " << i << " element " << k << "\n" << to_text(grad);
    }
  }
}

}  // namespace
}  // namespace shardlab::ir
