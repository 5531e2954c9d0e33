// broadcast_in_dim, reshape and reduce_sum: values against references from
// the definitions, shape errors, each rule's transpose by the dot-product
// identity, and the whole-program JVP pass against finite differences.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "exec/lockstep_program.h"
#include "ir/tracing/builder.h"
#include "ir/transforms/jvp.h"
#include "ir/tracing/ops.h"
#include "ir/forms/print.h"
#include "ir/transforms/vjp.h"
#include "ir_checks.h"
#include "test_util.h"

namespace shardlab::ir {
namespace {

using exec::as_floats;
using exec::host_f32;
using exec::interpret;

TEST(BroadcastInDim, ValuesFollowTheDimensionMap) {
  // x[3] -> [2,3] along dimension 1: every row is x.
  const auto rows = evaluate(
      [](Builder& b, auto in) {
        return broadcast_in_dim(b, in[0], {2, 3}, {1});
      },
      {f32({3})}, {{1, 2, 3}});
  EXPECT_EQ(rows, (std::vector<float>{1, 2, 3, 1, 2, 3}));
  // x[2,1] -> [2,3] stretching the unit dimension: every column is x.
  const auto cols = evaluate(
      [](Builder& b, auto in) {
        return broadcast_in_dim(b, in[0], {2, 3}, {0, 1});
      },
      {f32({2, 1})}, {{5, 7}});
  EXPECT_EQ(cols, (std::vector<float>{5, 5, 5, 7, 7, 7}));
  // A scalar to [2,2].
  const auto full = evaluate(
      [](Builder& b, auto in) {
        return broadcast_in_dim(b, in[0], {2, 2}, {});
      },
      {f32({})}, {{4}});
  EXPECT_EQ(full, (std::vector<float>{4, 4, 4, 4}));
}

// Against the definition, out[idx] = x[idx at the mapped dimensions, 0 where
// the operand's is 1], for mixes of repeated, stretched and kept dimensions.
TEST(BroadcastInDim, ValuesMatchTheDefinitionAtHigherRanks) {
  struct Case {
    Shape x, out;
    std::vector<int64_t> dims;
  };
  for (const Case& c : std::vector<Case>{{{2, 1, 3}, {4, 2, 5, 3}, {1, 2, 3}},
                                         {{3}, {2, 3, 4}, {1}},
                                         {{2, 3}, {2, 4, 3, 1}, {0, 2}},
                                         {{1, 1}, {3, 2}, {0, 1}},
                                         {{5}, {0, 5}, {1}},
                                         // JAX 0.11: dimensions in any order, transposing the operand
                                         {{2, 3}, {3, 2}, {1, 0}},
                                         {{2, 1, 3}, {4, 3, 2}, {2, 0, 1}}}) {
    std::vector<float> x(static_cast<size_t>(num_elements(c.x)));
    for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i + 1);
    const auto got = evaluate([&](Builder& b, auto in) { return broadcast_in_dim(b, in[0], c.out, c.dims); },
                              {f32(c.x)}, {x});
    std::vector<float> want;
    for (int64_t k = 0; k < num_elements(c.out); ++k) {
      int64_t rest = k, offset = 0;
      std::vector<int64_t> idx(c.out.size());
      for (int d = static_cast<int>(c.out.size()) - 1; d >= 0; --d) {
        idx[d] = rest % c.out[d];
        rest /= c.out[d];
      }
      for (size_t i = 0; i < c.dims.size(); ++i) offset = offset * c.x[i] + (c.x[i] == 1 ? 0 : idx[c.dims[i]]);
      want.push_back(x[static_cast<size_t>(offset)]);
    }
    EXPECT_EQ(got, want) << shape_str(c.x) << " -> " << shape_str(c.out);
  }
}

TEST(BroadcastInDim, TransposeSumsTheRepeatedDimensions) {
  check_transpose([](Builder& b, auto in) { return broadcast_in_dim(b, in[0], {4, 3}, {1}); }, f32({3}));
  check_transpose([](Builder& b, auto in) { return broadcast_in_dim(b, in[0], {2, 3, 4}, {0, 2}); }, f32({2, 1}));
  check_transpose([](Builder& b, auto in) { return broadcast_in_dim(b, in[0], {5}, {}); }, f32({}));
  check_transpose([](Builder& b, auto in) { return broadcast_in_dim(b, in[0], {2, 3}, {0, 1}); }, f32({2, 3}));
  check_transpose([](Builder& b, auto in) { return broadcast_in_dim(b, in[0], {3, 4, 2}, {2, 0}); }, f32({2, 3}));
  check_transpose([](Builder& b, auto in) { return broadcast_in_dim(b, in[0], {3, 4, 2}, {2, 0}); }, f32({2, 1}));
  check_transpose([](Builder& b, auto in) { return broadcast_in_dim(b, in[0], {3, 5, 2, 4}, {3, 0, 2}); }, f32({4, 3, 2}));
}

TEST(BroadcastInDim, Errors) {
  Builder b;
  const Atom x = b.input(f32({3}));
  EXPECT_EQ(testing::error_message([&] {
              broadcast_in_dim(b, x, {3, 4}, {1});
            }),
            "broadcast_in_dim: operand dimension 0 of f32[3] has size 3 but output dimension 1 of [3,4] has size 4; "
            "they must be equal or the operand's must be 1");
  EXPECT_NE(testing::error_message([&] {
              broadcast_in_dim(b, x, {3, 4}, {});
            }).find("has 0 entries but the operand"),
            std::string::npos);
  const Atom m = b.input(f32({3, 3}));
  EXPECT_EQ(testing::error_message([&] { broadcast_in_dim(b, m, {3, 3}, {1, 1}); }),
            "broadcast_in_dim: broadcast_dimensions [1,1] must be distinct dimensions of the output shape [3,3]");
}

TEST(Reshape, ValuesAndErrors) {
  const auto v = evaluate(
      [](Builder& b, auto in) {
        return reshape(b, in[0], {3, 2});
      },
      {f32({2, 3})}, {{1, 2, 3, 4, 5, 6}});
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

// Ranks above 8 take the heap path of the dimension lists the rules build
// (Dims keeps 8 inline): transpose, reduce_sum and broadcast_in_dim at rank 10
// against index arithmetic written out here.
TEST(HighRank, TransposeReduceAndBroadcastBeyondEightDimensions) {
  const Shape shape = {2, 1, 3, 1, 2, 1, 1, 2, 1, 2};
  const int rank = static_cast<int>(shape.size());
  std::vector<int64_t> strides(rank, 1);
  for (int k = rank - 2; k >= 0; --k) strides[k] = strides[k + 1] * shape[k + 1];
  const int64_t n = num_elements(shape);
  std::vector<float> x(n);
  for (int64_t i = 0; i < n; ++i) x[i] = static_cast<float>(i * 7 % 23) - 5.0f;
  auto index_of = [&](int64_t flat) {
    std::vector<int64_t> idx(rank);
    for (int k = 0; k < rank; ++k) idx[k] = flat / strides[k] % shape[k];
    return idx;
  };

  // Reversing the dimensions: out[j0..j9] = x[j9..j0].
  std::vector<int64_t> perm(rank);
  for (int k = 0; k < rank; ++k) perm[k] = rank - 1 - k;
  Shape tshape(rank);
  for (int k = 0; k < rank; ++k) tshape[k] = shape[perm[k]];
  std::vector<float> expected_t(n);
  for (int64_t i = 0; i < n; ++i) {
    const auto idx = index_of(i);
    int64_t o = 0;
    for (int k = 0; k < rank; ++k) o = o * tshape[k] + idx[perm[k]];
    expected_t[o] = x[i];
  }
  EXPECT_EQ(evaluate([&](Builder& b, auto in) { return transpose(b, in[0], perm); }, {f32(shape)}, {x}), expected_t);

  // Summing dimensions 0, 2 and 9 leaves [1,1,2,1,1,2,1] (7 dims; the input has 10).
  const std::vector<int64_t> axes = {0, 2, 9};
  std::vector<float> expected_s(n / (2 * 3 * 2), 0.0f);
  for (int64_t i = 0; i < n; ++i) {
    const auto idx = index_of(i);
    int64_t o = 0;
    for (int k = 0; k < rank; ++k)
      if (k != 0 && k != 2 && k != 9) o = o * shape[k] + idx[k];
    expected_s[o] += x[i];
  }
  EXPECT_EQ(evaluate([&](Builder& b, auto in) { return reduce_sum(b, in[0], axes); }, {f32(shape)}, {x}), expected_s);

  // Broadcasting the rank-10 array into rank 11 along a new leading dimension of 2.
  Shape bshape = {2};
  bshape.insert(bshape.end(), shape.begin(), shape.end());
  std::vector<int64_t> dims(rank);
  for (int k = 0; k < rank; ++k) dims[k] = k + 1;
  std::vector<float> expected_b = x;
  expected_b.insert(expected_b.end(), x.begin(), x.end());
  EXPECT_EQ(evaluate([&](Builder& b, auto in) { return broadcast_in_dim(b, in[0], bshape, dims); }, {f32(shape)}, {x}),
            expected_b);
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

TEST(ScalarOperands, RepeatInValuesTangentsAndCotangents) {
  const auto v = evaluate([](Builder& b, auto in) { return sub(b, in[1], mul(b, in[0], in[1])); }, {f32({3}), f32({})},
                          {{1, 2, 3}, {10}});
  EXPECT_EQ(v, (std::vector<float>{0, -10, -20}));  // s - x * s
  const Body f = [](Builder& b, const std::vector<Atom>& in) {
    // (s - x) * x + s * s, with s a scalar: every rule sees a scalar operand.
    const Atom a = sub(b, in[1], in[0]);
    return add(b, mul(b, a, in[0]), mul(b, in[1], in[1]));
  };
  check_jvp(f, {f32({2, 3}), f32({})});
  check_transpose(
      [](Builder& b, auto in) {
        return mul(b, in[0], broadcast_in_dim(b, Atom::constant(2.0, DType::kFloat32), {4}, {}));
      },
      f32({}));
}

TEST(Transpose, PermutesDimensions) {
  // x[2,3] transposed: element (i, j) moves to (j, i).
  const auto t = evaluate(
      [](Builder& b, auto in) {
        return transpose(b, in[0], {1, 0});
      },
      {f32({2, 3})}, {{1, 2, 3, 4, 5, 6}});
  EXPECT_EQ(t, (std::vector<float>{1, 4, 2, 5, 3, 6}));
  // A rank-3 permutation against the definition out[i][j][k] = x[j][k][i].
  std::vector<float> x(24);
  for (int i = 0; i < 24; ++i) x[i] = static_cast<float>(i);
  const auto r = evaluate([](Builder& b, auto in) { return transpose(b, in[0], {2, 0, 1}); }, {f32({2, 3, 4})}, {x});
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 3; ++k) EXPECT_EQ(r[(i * 2 + j) * 3 + k], x[(j * 3 + k) * 4 + i]);
  check_transpose([](Builder& b, auto in) { return transpose(b, in[0], {2, 0, 1}); }, f32({2, 3, 4}));
  Builder b;
  const Atom a = b.input(f32({2, 3}));
  EXPECT_EQ(testing::error_message([&] {
              transpose(b, a, {0, 0});
            }),
            "transpose: permutation [0,0] is not a permutation of the 2 dimensions of f32[2,3]");
}

TEST(SqueezeAndExpandDims, InsertAndRemoveUnitDimensions) {
  Builder b;
  const Atom x = b.input(f32({3, 1, 2, 1}));
  EXPECT_EQ(squeeze(b, x, {1, 3}).aval.shape, (Shape{3, 2}));
  EXPECT_EQ(expand_dims(b, b.input(f32({3, 2})), {0, 2}).aval.shape, (Shape{1, 3, 1, 2}));
  EXPECT_NE(testing::error_message([&] { squeeze(b, x, {0}); }).find("must be distinct dimensions of size 1"),
            std::string::npos);
  EXPECT_NE(testing::error_message([&] { expand_dims(b, x, {9}); }).find("must be distinct positions in 0..4"),
            std::string::npos);
  check_transpose([](Builder& bb, auto in) { return squeeze(bb, in[0], {3, 1}); }, f32({3, 1, 2, 1}));
  check_transpose([](Builder& bb, auto in) { return expand_dims(bb, in[0], {0, 2}); }, f32({3, 2}));
  check_jvp(
      [](Builder& bb, const std::vector<Atom>& in) {
        const Atom sq = squeeze(bb, expand_dims(bb, mul(bb, in[0], in[0]), {1}), {1});
        return reduce_sum(bb, transpose(bb, sq, {1, 0}), {0});
      },
      {f32({2, 3})});
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
          (as_floats(interpret(primal, args_of(up))[0])[0] - as_floats(interpret(primal, args_of(down))[0])[0]) /
          (2 * h);
      EXPECT_NEAR(g[k], fd, 2e-2 * (1 + std::abs(fd))) << "input " << i << " element " << k << "\n" << to_text(grad);
    }
  }
}

}  // namespace
}  // namespace shardlab::ir
