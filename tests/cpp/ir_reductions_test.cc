// reduce_max and reduce_min: values over every axis subset against a serial
// reference, every dtype, empty reductions and NaN; the JVP against finite
// differences and on ties; and their errors. argmax / argmin (ties, NaN)
// against loops, cumsum against float64 sums with its JVP and transpose.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "exec/lockstep_program.h"
#include "ir/transforms/jvp.h"
#include "ir/tracing/ops.h"
#include "ir/forms/print.h"
#include "ir_checks.h"
#include "test_util.h"

namespace shardlab::ir {
namespace {

using exec::as_floats;
using exec::as_ints;
using exec::host_f32;
using exec::host_i32;
using exec::interpret;

using Reduction = Atom (*)(Builder&, const Atom&, const std::vector<int64_t>&);

// The reference: every output element is the max (or min) of the input
// elements whose kept coordinates match it, in float64.
std::vector<double> reference(const std::vector<float>& x, const Shape& shape, const std::vector<int64_t>& axes,
                              bool is_max) {
  Shape out_shape;
  std::vector<bool> reduced(shape.size(), false);
  for (int64_t a : axes) reduced[a] = true;
  for (size_t d = 0; d < shape.size(); ++d)
    if (!reduced[d]) out_shape.push_back(shape[d]);
  std::vector<double> out(num_elements(out_shape), is_max ? -INFINITY : INFINITY);
  for (int64_t k = 0; k < num_elements(shape); ++k) {
    const auto idx = testing::unravel(k, shape);
    std::vector<int64_t> oidx;
    for (size_t d = 0; d < shape.size(); ++d)
      if (!reduced[d]) oidx.push_back(idx[d]);
    double& o = out[testing::ravel(oidx, out_shape)];
    o = is_max ? std::max(o, static_cast<double>(x[k])) : std::min(o, static_cast<double>(x[k]));
  }
  return out;
}

TEST(ReduceMaxMin, ValuesOverEveryAxisSubset) {
  const Shape shape = {2, 3, 4};
  const auto x = testing::random_floats(24, 5);
  const std::vector<std::vector<int64_t>> subsets = {{}, {0}, {1}, {2}, {0, 1}, {0, 2}, {1, 2}, {0, 1, 2}};
  for (bool is_max : {true, false}) {
    for (const auto& axes : subsets) {
      const Reduction op = is_max ? &reduce_max : &reduce_min;
      const auto got =
          as_floats(evaluate([&](Builder& b, auto in) { return op(b, in[0], axes); }, {host_f32(shape, x)}));
      const auto want = reference(x, shape, axes, is_max);
      ASSERT_EQ(got.size(), want.size());
      for (size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i], want[i]) << is_max << " " << shape_str(axes) << i;
    }
  }
}

TEST(ReduceMaxMin, Int32BoolEmptyAndNaN) {
  const std::vector<int32_t> x = {3, -7, 2147483647, -2147483647 - 1, 0, 5};
  auto ints = [&](Reduction op, std::vector<int64_t> axes) {
    return as_ints(evaluate([&](Builder& b, auto in) { return op(b, in[0], axes); }, {host_i32({2, 3}, x)}));
  };
  EXPECT_EQ(ints(&reduce_max, {1}), (std::vector<int32_t>{2147483647, 5}));
  EXPECT_EQ(ints(&reduce_min, {0}), (std::vector<int32_t>{-2147483647 - 1, -7, 5}));
  // Bools: any and all.
  auto bools = [&](Reduction op) {
    return as_ints(evaluate(
        [&](Builder& b, auto in) { return op(b, compare(b, Prim::kGt, in[0], Atom::constant(0, DType::kInt32)), {1}); },
        {host_i32({2, 3}, x)}));
  };
  EXPECT_EQ(bools(&reduce_max), (std::vector<int32_t>{1, 1}));
  EXPECT_EQ(bools(&reduce_min), (std::vector<int32_t>{0, 0}));
  // Reducing no elements gives the identity, as XLA.
  const auto empty = [](Reduction op, const exec::HostArray& a) {
    return evaluate([&](Builder& b, auto in) { return op(b, in[0], {1}); }, {a});
  };
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(as_floats(empty(&reduce_max, host_f32({2, 0}, {}))), (std::vector<float>{-inf, -inf}));
  EXPECT_EQ(as_floats(empty(&reduce_min, host_f32({2, 0}, {}))), (std::vector<float>{inf, inf}));
  EXPECT_EQ(as_ints(empty(&reduce_max, host_i32({1, 0}, {}))), (std::vector<int32_t>{-2147483647 - 1}));
  EXPECT_EQ(as_ints(empty(&reduce_min, host_i32({1, 0}, {}))), (std::vector<int32_t>{2147483647}));
  // NaN anywhere in a reduction wins.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (Reduction op : {&reduce_max, &reduce_min}) {
    const auto z = as_floats(
        evaluate([&](Builder& b, auto in) { return op(b, in[0], {1}); }, {host_f32({2, 3}, {1, nan, 2, 3, 4, nan})}));
    EXPECT_TRUE(std::isnan(z[0]) && std::isnan(z[1]));
  }
}

TEST(ReduceMaxMin, JvpMatchesFiniteDifferences) {
  for (Reduction op : {&reduce_max, &reduce_min}) {
    check_jvp([&](Builder& b, auto in) { return op(b, in[0], {1}); }, {f32({3, 4})});
    check_jvp([&](Builder& b, auto in) { return op(b, in[0], {0, 2}); }, {f32({2, 3, 4})});
    check_jvp([&](Builder& b, auto in) { return mul(b, op(b, in[0], {}), in[0]); }, {f32({5})});
  }
}

TEST(ReduceMaxMin, TiesAverageTheTangents) {
  for (Reduction op : {&reduce_max, &reduce_min}) {
    Builder b;
    const Atom x = b.input(f32({2, 4}));
    const Program lin = jvp(b.build({op(b, x, {1})}));
    // Row 0 ties at 3 (max) or at -1 (min) twice; row 1 has one extremum.
    const auto out =
        interpret(lin, {host_f32({2, 4}, {3, -1, 3, -1, 0, 9, -9, 1}), host_f32({2, 4}, {2, 10, 4, 20, 1, 2, 3, 4})});
    const bool is_max = op == &reduce_max;
    EXPECT_EQ(as_floats(out[1]), (is_max ? std::vector<float>{3, 2} : std::vector<float>{15, 3}));
  }
}

TEST(ReduceMaxMin, PrintNotLinearAndErrors) {
  Builder b;
  const Atom x = b.input(Aval{DType::kFloat32, {2, 3}, {"data"}});
  const Atom z = reduce_max(b, x, {1});
  EXPECT_EQ(to_text(b.build({z})),
            "{ lambda ; a:f32[2,3]{V:data}. let\n"
            "    b:f32[2]{V:data} = reduce_max[axes=(1,)] a\n"
            "  in (b,) }");
  EXPECT_EQ(testing::error_message([&] {
              primitive(Prim::kReduceMin).transpose(b, {{"axes", std::vector<int64_t>{1}}}, {z}, {x}, {true});
            }),
            "reduce_min: the program is not linear in its operand f32[2,3]{V:data}; cannot transpose");
  EXPECT_EQ(testing::error_message([&] {
              reduce_min(b, x, {1, 0});
            }),
            "reduce_min: axes [1,0] must be distinct, increasing dimensions of f32[2,3]{V:data} (0..1)");
  EXPECT_EQ(testing::error_message([&] { reduce_max(b, x, {2}); }),
            "reduce_max: axes [2] must be distinct, increasing dimensions of f32[2,3]{V:data} (0..1)");
}

// argmax / argmin along `axis` of a f32[2, 5] as C++ loops: the first extreme, a NaN first of all.
std::vector<int32_t> arg_reference(const std::vector<float>& x, bool max, int axis) {
  std::vector<int32_t> out;
  const int outer = axis == 0 ? 5 : 2, n = axis == 0 ? 2 : 5;
  for (int o = 0; o < outer; ++o) {
    int best = 0;
    auto at = [&](int i) { return axis == 0 ? x[i * 5 + o] : x[o * 5 + i]; };
    for (int i = 1; i < n; ++i) {
      if (std::isnan(at(best))) break;
      if (std::isnan(at(i)) || (max ? at(i) > at(best) : at(i) < at(best))) best = i;
    }
    out.push_back(best);
  }
  return out;
}

TEST(Argmax, FirstExtremeAndFirstNaNAlongEitherAxis) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> x{3, 1, 4, 4, -2, 0, nan, 7, nan, 7};  // ties in row 0, NaNs in row 1
  for (Prim prim : {Prim::kArgmax, Prim::kArgmin})
    for (int axis : {0, 1}) {
      const Params p{{"axes", std::vector<int64_t>{axis}}, {"index_dtype", DType::kInt32}};
      const auto z = evaluate([&](Builder& b, auto in) { return b.emit1(prim, p, {in[0]}); }, {host_f32({2, 5}, x)});
      EXPECT_EQ(z.aval.dtype, DType::kInt32);
      EXPECT_EQ(as_ints(z), arg_reference(x, prim == Prim::kArgmax, axis)) << primitive(prim).name << " axis " << axis;
    }
  Builder b;
  const Atom v = b.input(f32({2, 0}));
  const Params along1{{"axes", std::vector<int64_t>{1}}, {"index_dtype", DType::kInt32}};
  EXPECT_EQ(testing::error_message([&] { b.emit1(Prim::kArgmax, along1, {v}); }),
            "attempt to get argmax of an empty sequence");
  EXPECT_EQ(to_text(b.build({b.emit1(Prim::kArgmin, along1, {b.input(f32({2, 3}))})})),
            "{ lambda ; a:f32[2,0] b:f32[2,3]. let\n"
            "    c:i32[2] = argmin[axes=(1,) index_dtype=int32] b\n"
            "  in (c,) }");
}

TEST(Cumsum, ValuesReverseJvpAndTranspose) {
  const std::vector<float> x = testing::random_floats(12, 5);
  for (bool reverse : {false, true})
    for (int axis : {0, 1}) {
      const Params p{{"axis", int64_t{axis}}, {"reverse", reverse}};
      const auto got = as_floats(
          evaluate([&](Builder& b, auto in) { return b.emit1(Prim::kCumsum, p, {in[0]}); }, {host_f32({3, 4}, x)}));
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 4; ++c) {
          double want = 0;  // float64 reference
          for (int k = 0; k < (axis == 0 ? 3 : 4); ++k) {
            const int at = axis == 0 ? r : c;
            if (reverse ? k >= at : k <= at) want += axis == 0 ? x[k * 4 + c] : x[r * 4 + k];
          }
          EXPECT_NEAR(got[r * 4 + c], want, 1e-5) << axis << reverse;
        }
      check_transpose([&](Builder& b, auto in) { return b.emit1(Prim::kCumsum, p, {in[0]}); }, f32({3, 4}));
      check_jvp([&](Builder& b, auto in) { return mul(b, b.emit1(Prim::kCumsum, p, {in[0]}), in[0]); }, {f32({3, 4})});
    }
  const auto ints = as_ints(evaluate(
      [](Builder& b, auto in) { return b.emit1(Prim::kCumsum, {{"axis", int64_t{0}}, {"reverse", false}}, {in[0]}); },
      {host_i32({3}, {2147483647, 1, 5})}));
  EXPECT_EQ(ints, (std::vector<int32_t>{2147483647, -2147483648, -2147483643}));  // wraps, as XLA
}

}  // namespace
}  // namespace shardlab::ir
