// reduce_prod, cumprod, reduce_and, reduce_or and sort: values against loops
// written here, JVPs against finite differences, the exact derivative of a
// product at zeros, sort's order (stable, several keys, NaN last, -0 before
// +0) and its tangents permuted with the values.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "exec/lockstep_program.h"
#include "ir/transforms/jvp.h"
#include "ir/tracing/ops.h"
#include "ir_checks.h"
#include "test_util.h"

namespace shardlab::ir {
namespace {

using exec::as_floats;
using exec::as_ints;
using exec::host_f32;
using exec::host_i32;
using testing::error_message;

Atom prod(Builder& b, const Atom& x, std::vector<int64_t> axes) {
  return b.emit1(Prim::kReduceProd, {{"axes", std::move(axes)}}, {x});
}
Atom cumprod(Builder& b, const Atom& x, int64_t axis, bool reverse) {
  return b.emit1(Prim::kCumprod, {{"axis", axis}, {"reverse", reverse}}, {x});
}
std::vector<Atom> sort(Builder& b, const std::vector<Atom>& xs, int64_t dim, int64_t keys) {
  return b.emit(Prim::kSort, {{"dimension", dim}, {"is_stable", true}, {"num_keys", keys}}, xs);
}

TEST(ReduceProd, ValuesInt32WrapsAndEmpty) {
  const std::vector<float> x = {1, 2, 3, 4, 5, 6};  // f32[2,3]
  EXPECT_EQ(as_floats(evaluate([](Builder& b, auto in) { return prod(b, in[0], {1}); }, {host_f32({2, 3}, x)})),
            (std::vector<float>{6, 120}));
  EXPECT_EQ(as_floats(evaluate([](Builder& b, auto in) { return prod(b, in[0], {0, 1}); }, {host_f32({2, 3}, x)})),
            (std::vector<float>{720}));
  EXPECT_EQ(as_ints(evaluate([](Builder& b, auto in) { return prod(b, in[0], {0}); },
                             {host_i32({3}, {65536, 65536, 3})})),
            (std::vector<int32_t>{0}));  // 2^32 * 3 wraps to 0
  EXPECT_EQ(as_floats(evaluate([](Builder& b, auto in) { return prod(b, in[0], {0}); }, {host_f32({0, 2}, {})})),
            (std::vector<float>{1, 1}));
}

TEST(ReduceProd, JvpIsExactAtZeros) {
  check_jvp([](Builder& b, auto in) { return prod(b, in[0], {0, 2}); }, {f32({2, 3, 2})});
  // d(x0 x1 x2) at (2, 0, 3): (0, 6, 0); at (0, 0, 5): zero everywhere.
  for (const auto& [at, want] : std::vector<std::pair<std::vector<float>, std::vector<float>>>{
           {{2, 0, 3}, {0, 6, 0}}, {{0, 0, 5}, {0, 0, 0}}}) {
    std::vector<float> grad;
    Builder b;
    const Atom x = b.input(f32({3}));
    const Program d = jvp(b.build({prod(b, x, {0})}));
    for (int k = 0; k < 3; ++k) {
      std::vector<float> e(3, 0.0f);
      e[k] = 1;
      grad.push_back(as_floats(exec::interpret(d, {host_f32({3}, at), host_f32({3}, e)})[1])[0]);
    }
    EXPECT_EQ(grad, want);
  }
}

TEST(Cumprod, ValuesBothWaysAndJvpThroughZeros) {
  const std::vector<float> x = {1, 2, 3, 4, 0, 2};  // f32[2,3]
  EXPECT_EQ(as_floats(evaluate([](Builder& b, auto in) { return cumprod(b, in[0], 1, false); }, {host_f32({2, 3}, x)})),
            (std::vector<float>{1, 2, 6, 4, 0, 0}));
  EXPECT_EQ(as_floats(evaluate([](Builder& b, auto in) { return cumprod(b, in[0], 1, true); }, {host_f32({2, 3}, x)})),
            (std::vector<float>{6, 6, 3, 0, 0, 2}));
  EXPECT_EQ(as_floats(evaluate([](Builder& b, auto in) { return cumprod(b, in[0], 0, false); }, {host_f32({2, 3}, x)})),
            (std::vector<float>{1, 2, 3, 4, 0, 6}));
  for (bool reverse : {false, true})
    for (int64_t n : {1, 2, 5, 8}) {
      SCOPED_TRACE(n);
      check_jvp([&](Builder& b, auto in) { return cumprod(b, in[0], 1, reverse); }, {f32({2, n})});
    }
}

TEST(ReduceAndOr, ValuesAndEmpty) {
  const auto bools = [](const Shape& s, std::vector<int32_t> v) {
    exec::HostArray a = host_i32(s, std::move(v));
    a.aval.dtype = DType::kBool;
    return a;
  };
  const auto x = bools({2, 3}, {1, 1, 0, 1, 1, 1});
  const auto run = [&](Prim p, std::vector<int64_t> axes, const exec::HostArray& a) {
    return as_ints(evaluate([&](Builder& b, auto in) { return b.emit1(p, {{"axes", axes}}, {in[0]}); }, {a}));
  };
  EXPECT_EQ(run(Prim::kReduceAnd, {1}, x), (std::vector<int32_t>{0, 1}));
  EXPECT_EQ(run(Prim::kReduceOr, {0}, x), (std::vector<int32_t>{1, 1, 1}));
  EXPECT_EQ(run(Prim::kReduceAnd, {0}, bools({0}, {})), (std::vector<int32_t>{1}));
  EXPECT_EQ(run(Prim::kReduceOr, {0}, bools({0}, {})), (std::vector<int32_t>{0}));
  Builder b;
  EXPECT_EQ(error_message([&] { b.emit1(Prim::kReduceOr, {{"axes", std::vector<int64_t>{0}}}, {b.input(f32({2}))}); }),
            "reduce_or: needs a bool operand, got f32[2]");
}

TEST(Sort, StableLexicographicNanLastAndNegativeZeroFirst) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const auto sorted = as_floats(evaluate([](Builder& b, auto in) { return sort(b, {in[0]}, 0, 1)[0]; },
                                         {host_f32({6}, {3, nan, 0.0f, -1, -0.0f, 3})}));
  EXPECT_EQ(sorted[0], -1);
  EXPECT_TRUE(std::signbit(sorted[1]) && sorted[1] == 0);
  EXPECT_TRUE(!std::signbit(sorted[2]) && sorted[2] == 0);
  EXPECT_EQ(sorted[3], 3);
  EXPECT_EQ(sorted[4], 3);
  EXPECT_TRUE(std::isnan(sorted[5]));
  // argsort: the positions carried along; equal keys keep their order (stable).
  const auto order = as_ints(evaluate(
      [](Builder& b, auto in) { return sort(b, {in[0], iota(b, DType::kInt32, {2, 4}, 1)}, 1, 1)[1]; },
      {host_f32({2, 4}, {2, 1, 2, 0, 5, 5, 5, 5})}));
  EXPECT_EQ(order, (std::vector<int32_t>{3, 1, 0, 2, 0, 1, 2, 3}));
  // two keys: by the first, ties by the second
  const auto two = as_ints(evaluate(
      [](Builder& b, auto in) {
        return sort(b, {in[0], in[1], iota(b, DType::kInt32, {4}, 0)}, 0, 2)[2];
      },
      {host_f32({4}, {1, 0, 1, 0}), host_f32({4}, {9, 8, 7, 9})}));
  EXPECT_EQ(two, (std::vector<int32_t>{1, 3, 2, 0}));
  // along dimension 0 of a matrix
  EXPECT_EQ(as_floats(evaluate([](Builder& b, auto in) { return sort(b, {in[0]}, 0, 1)[0]; },
                               {host_f32({3, 2}, {3, 0, 1, 5, 2, 4})})),
            (std::vector<float>{1, 0, 2, 4, 3, 5}));
}

TEST(Sort, TangentsFollowTheValuesAndErrors) {
  check_jvp([](Builder& b, auto in) { return sort(b, {in[0]}, 1, 1)[0]; }, {f32({3, 5})});
  check_jvp([](Builder& b, auto in) { return sort(b, {in[0], in[1]}, 0, 1)[1]; }, {f32({4, 2}), f32({4, 2})});
  Builder b;
  const Atom x = b.input(f32({3})), y = b.input(f32({2}));
  EXPECT_EQ(error_message([&] { sort(b, {x, y}, 0, 1); }), "sort: operands f32[3] and f32[2] must have the same shape");
  EXPECT_EQ(error_message([&] { sort(b, {x}, 0, 2); }), "sort: num_keys 2 must be in 1..1 (the number of operands)");
  EXPECT_EQ(error_message([&] { sort(b, {x}, 1, 1); }), "sort: dimension 1 is not a dimension of f32[3] (0..0)");
}

}  // namespace
}  // namespace shardlab::ir
