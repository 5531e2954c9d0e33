// gather, scatter, scatter-add/mul/min/max and rev: values against
// references computed element by element from XLA's definitions (clamped,
// filled and dropped windows, batching dimensions, duplicate indices), JVPs
// against finite differences, transposes by the dot-product identity
// (scatter's with duplicate indices, where only the surviving write gets a
// cotangent), printing as JAX prints, and the errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "exec/lockstep_program.h"
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
using testing::error_message;

constexpr double kNone = std::numeric_limits<double>::quiet_NaN();

// An int32 constant array built inside the program (test bodies take float inputs only).
Atom const_i32(Builder& b, const Shape& shape, const std::vector<int32_t>& values) {
  std::vector<Atom> parts;
  for (int32_t v : values) parts.push_back(broadcast_in_dim(b, Atom::constant(v, DType::kInt32), {1}, {}));
  return reshape(b, concatenate(b, parts, 0), shape);
}

std::vector<float> counting(int64_t n) {
  std::vector<float> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = static_cast<float>(i);
  return v;
}

const IntLists kRows{{1}, {0}, {0}, {}, {}};  // x[idx[i], :] for a rank-2 x and indices [n, 1]

TEST(Gather, RowsClampedOrFilledOutOfBounds) {
  const auto x = counting(20);  // f32[5,4]
  const std::vector<int32_t> rows = {2, 0, 7, -1};
  for (const char* mode : {"promise_in_bounds", "clip", "fill"}) {
    SCOPED_TRACE(mode);
    const auto z = as_floats(evaluate(
        [&](Builder& b, auto in) {
          return gather(b, in[0], const_i32(b, {4, 1}, rows), kRows, {1, 4}, IndexMode{mode}, kNone);
        },
        {host_f32({5, 4}, x)}));
    ASSERT_EQ(z.size(), 16u);
    for (int r = 0; r < 4; ++r)
      for (int c = 0; c < 4; ++c) {
        const int32_t i = rows[r];
        if (std::string(mode) == "fill" && (i < 0 || i > 4)) {
          EXPECT_TRUE(std::isnan(z[r * 4 + c])) << r;
        } else {
          EXPECT_EQ(z[r * 4 + c], x[std::clamp(i, 0, 4) * 4 + c]) << r << "," << c;
        }
      }
  }
  // An explicit fill value; int32 operands fill with the smallest int32 by default.
  const auto filled = as_floats(evaluate(
      [&](Builder& b, auto in) {
        return gather(b, in[0], const_i32(b, {2, 1}, {9, 1}), kRows, {1, 4}, IndexMode{"fill"}, -5.0);
      },
      {host_f32({5, 4}, x)}));
  EXPECT_EQ(filled, (std::vector<float>{-5, -5, -5, -5, 4, 5, 6, 7}));
  const auto ints = as_ints(evaluate(
      [&](Builder& b, auto in) {
        return gather(b, in[0], const_i32(b, {2, 1}, {3, -4}), {{}, {0}, {0}, {}, {}}, {1}, IndexMode{"fill"}, kNone);
      },
      {host_i32({3}, {10, 11, 12})}));
  EXPECT_EQ(ints, (std::vector<int32_t>{std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::min()}));
}

TEST(Gather, WindowsOfTwoIndexedDimensionsAndBatchingDimensions) {
  // Windows of 2x2 at (1, 2) and (3, 4) (clamped to (2, 3)) of f32[4,5]: out[k, i, j] = x[s_k + (i, j)].
  const auto x = counting(20);
  const auto z = as_floats(evaluate(
      [&](Builder& b, auto in) {
        return gather(b, in[0], const_i32(b, {2, 2}, {1, 2, 3, 4}), {{1, 2}, {}, {0, 1}, {}, {}}, {2, 2},
                      IndexMode{"clip"}, kNone);
      },
      {host_f32({4, 5}, x)}));
  const int starts[2][2] = {{1, 2}, {2, 3}};
  ASSERT_EQ(z.size(), 8u);
  for (int k = 0; k < 2; ++k)
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j)
        EXPECT_EQ(z[k * 4 + i * 2 + j], x[(starts[k][0] + i) * 5 + starts[k][1] + j]) << k << i << j;
  // A batching dimension: out[b] = x[b, idx[b]] (what vmap of x[i] makes).
  const auto y = as_floats(evaluate(
      [&](Builder& b, auto in) {
        return gather(b, in[0], const_i32(b, {3, 1}, {2, 0, 1}), {{}, {1}, {1}, {0}, {0}}, {1, 1},
                      IndexMode{}, kNone);
      },
      {host_f32({3, 3}, counting(9))}));
  EXPECT_EQ(y, (std::vector<float>{2, 3, 7}));
}

// The reference scatter of rows: out = x, then for each update row k in
// order, out[idx[k]] = combine(out[idx[k]], u[k]), dropped out of bounds.
std::vector<float> scatter_rows(std::vector<float> x, const std::vector<int32_t>& idx, const std::vector<float>& u,
                                int cols, const std::function<float(float, float)>& combine) {
  const int rows = static_cast<int>(x.size()) / cols;
  for (size_t k = 0; k < idx.size(); ++k)
    if (idx[k] >= 0 && idx[k] < rows)
      for (int c = 0; c < cols; ++c) x[idx[k] * cols + c] = combine(x[idx[k] * cols + c], u[k * cols + c]);
  return x;
}

TEST(Scatter, EachCombinerWithDuplicatesAndDroppedWindows) {
  const std::vector<float> x = {1, -2, 3, 4, 5, -6, 7, 8};  // f32[4,2]
  const std::vector<float> u = {10, 20, -1, 2, 30, -40, 5, 5, 9, 9};  // f32[5,2]
  const std::vector<int32_t> idx = {1, 3, 1, 4, -1};  // row 1 twice; 4 and -1 out of bounds
  const std::vector<std::pair<Prim, std::function<float(float, float)>>> cases = {
      {Prim::kScatter, [](float, float b) { return b; }},
      {Prim::kScatterAdd, [](float a, float b) { return a + b; }},
      {Prim::kScatterMul, [](float a, float b) { return a * b; }},
      {Prim::kScatterMin, [](float a, float b) { return std::min(a, b); }},
      {Prim::kScatterMax, [](float a, float b) { return std::max(a, b); }}};
  for (const auto& c : cases) {
    const Prim prim = c.first;  // a plain variable: lambdas cannot capture structured bindings in C++17
    SCOPED_TRACE(primitive(prim).name);
    const auto z = as_floats(evaluate(
        [&](Builder& b, auto in) {
          return scatter(b, prim, in[0], const_i32(b, {5, 1}, idx), in[1], kRows, IndexMode{"fill"});
        },
        {host_f32({4, 2}, x), host_f32({5, 2}, u)}));
    EXPECT_EQ(z, scatter_rows(x, idx, u, 2, c.second));
  }
  // clip: the out-of-bounds rows land on the last and the first row.
  const auto clipped = as_floats(evaluate(
      [&](Builder& b, auto in) {
        return scatter(b, Prim::kScatterAdd, in[0], const_i32(b, {5, 1}, idx), in[1], kRows, IndexMode{"clip"});
      },
      {host_f32({4, 2}, x), host_f32({5, 2}, u)}));
  EXPECT_EQ(clipped, scatter_rows(x, {1, 3, 1, 3, 0}, u, 2, [](float a, float b) { return a + b; }));
  // int32 accumulates; bools combine as logic (add: or, mul: and).
  const auto ints = as_ints(evaluate(
      [&](Builder& b, auto in) {
        return scatter(b, Prim::kScatterAdd, in[0], const_i32(b, {3, 1}, {0, 0, 2}), in[1], {{}, {0}, {0}, {}, {}},
                       IndexMode{"fill"});
      },
      {host_i32({3}, {1, 2, 3}), host_i32({3}, {10, 20, 30})}));
  EXPECT_EQ(ints, (std::vector<int32_t>{31, 2, 33}));
}

TEST(Gather, JvpAndTransposeIsAScatterAdd) {
  const Body g = [](Builder& b, auto in) {
    return gather(b, in[0], const_i32(b, {4, 1}, {2, 0, 2, 3}), kRows, {1, 3}, IndexMode{}, kNone);
  };
  check_jvp([&](Builder& b, auto in) { return g(b, {mul(b, in[0], in[0])}); }, {f32({4, 3})});
  check_transpose(g, f32({4, 3}));
  // clip: the clamped rows get the cotangent; fill (with 0, as tangents fill): the filled row none.
  // (promise_in_bounds out of bounds clamps but its transpose drops, as JAX's: "gradients will not be correct".)
  for (const char* mode : {"clip", "fill"}) {
    SCOPED_TRACE(mode);
    check_transpose(
        [&](Builder& b, auto in) {
          return gather(b, in[0], const_i32(b, {3, 1}, {1, 5, -2}), kRows, {1, 3}, IndexMode{mode}, 0.0);
        },
        f32({4, 3}));
  }
}

TEST(Scatter, JvpsAndTransposesInOperandAndUpdates) {
  const std::vector<Aval> avals = {f32({4, 3}), f32({5, 3})};
  const std::vector<int32_t> idx = {1, 3, 1, 9, 0};  // a duplicate and an out-of-bounds row
  for (Prim prim : {Prim::kScatter, Prim::kScatterAdd}) {
    SCOPED_TRACE(primitive(prim).name);
    const Body f = [&](Builder& b, auto in) {
      return scatter(b, prim, in[0], const_i32(b, {5, 1}, idx), in[1], kRows, IndexMode{"fill"});
    };
    check_jvp([&](Builder& b, auto in) { return mul(b, f(b, in), f(b, in)); }, avals);
    for (size_t lin = 0; lin < 2; ++lin) {
      SCOPED_TRACE(lin);
      check_transpose(f, avals, lin);
    }
  }
  // scatter-mul: linear in the operand; differentiable in the updates with unique indices.
  const std::vector<int32_t> unique = {1, 3, 0, 9, 2};
  const Body mul_f = [&](Builder& b, auto in) {
    return scatter(b, Prim::kScatterMul, in[0], const_i32(b, {5, 1}, unique), in[1], kRows,
                   IndexMode{"fill", true});
  };
  check_jvp(mul_f, avals);
  check_transpose(mul_f, avals, 0);
  // min and max: the tangent of the value that wins (random values do not tie).
  for (Prim prim : {Prim::kScatterMin, Prim::kScatterMax})
    check_jvp(
        [&](Builder& b, auto in) {
          return scatter(b, prim, in[0], const_i32(b, {5, 1}, idx), in[1], kRows, IndexMode{"fill"});
        },
        avals);
}

TEST(Scatter, TiedExtremaShareTheTangent) {
  // x = 1 and two updates of 1 tie at entry 0: each carries a third of the tangent.
  Builder b;
  const Atom x = b.input(f32({2})), u = b.input(f32({2}));
  const Atom idx = const_i32(b, {2, 1}, {0, 0});
  const IntLists dims{{}, {0}, {0}, {}, {}};
  const Atom z = scatter(b, Prim::kScatterMax, x, idx, u, dims, IndexMode{"fill"});
  const auto t = primitive(Prim::kScatterMax).jvp(b, b.build({z}).eqns.back().params, {x, idx, u}, {z},
                                                  {b.input(f32({2})), std::nullopt, b.input(f32({2}))});
  const auto out = exec::interpret(b.build({*t[0]}), {host_f32({2}, {1, 5}), host_f32({2}, {1, 1}),
                                                      host_f32({2}, {3, 7}), host_f32({2}, {6, 9})});
  EXPECT_EQ(as_floats(out[0]), (std::vector<float>{6, 7}));  // (3 + 6 + 9) / 3 at 0; x's 7 alone at 1
}

TEST(Scatter, MulOfUpdatesWithoutUniqueIndicesIsJaxsError) {
  EXPECT_EQ(error_message([] {
              check_jvp(
                  [](Builder& b, auto in) {
                    return scatter(b, Prim::kScatterMul, in[0], const_i32(b, {1, 1}, {0}), in[1], kRows,
                                   IndexMode{"fill"});
                  },
                  {f32({2, 2}), f32({1, 2})});
            }),
            "scatter_mul gradients are only implemented if `unique_indices=True`");
}

TEST(GatherScatter, PrintedAsJaxPrintsThem) {
  Builder b;
  const Atom x = b.input(f32({5, 4})), i = b.input(Aval{DType::kInt32, {3, 1}, {}}), u = b.input(f32({3, 4}));
  const Atom g = gather(b, x, i, kRows, {1, 4}, IndexMode{}, kNone);
  const Atom s = scatter(b, Prim::kScatterAdd, x, i, u, kRows, IndexMode{"fill"});
  EXPECT_EQ(to_text(b.build({g, s, rev(b, x, {0})})),
            "{ lambda ; a:f32[5,4] b:i32[3,1] c:f32[3,4]. let\n"
            "    d:f32[3,4] = gather[\n"
            "      dimension_numbers=GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(0,), "
            "start_index_map=(0,), operand_batching_dims=(), start_indices_batching_dims=())\n"
            "      fill_value=None\n"
            "      indices_are_sorted=False\n"
            "      mode=GatherScatterMode.PROMISE_IN_BOUNDS\n"
            "      slice_sizes=(1, 4)\n"
            "      unique_indices=False\n"
            "    ] a b\n"
            "    e:f32[5,4] = scatter-add[\n"
            "      dimension_numbers=ScatterDimensionNumbers(update_window_dims=(1,), inserted_window_dims=(0,), "
            "scatter_dims_to_operand_dims=(0,), operand_batching_dims=(), scatter_indices_batching_dims=())\n"
            "      indices_are_sorted=False\n"
            "      mode=GatherScatterMode.FILL_OR_DROP\n"
            "      unique_indices=False\n"
            "    ] a b c\n"
            "    f:f32[5,4] = rev[dimensions=(0,)] a\n"
            "  in (d, e, f) }");
}

TEST(GatherScatter, Errors) {
  Builder b;
  const Atom x = b.input(f32({5, 4})), i = b.input(Aval{DType::kInt32, {3, 1}, {}}), u = b.input(f32({3, 4}));
  EXPECT_EQ(error_message([&] { gather(b, x, b.input(f32({3, 1})), kRows, {1, 4}, IndexMode{}, kNone); }),
            "gather: the indices are f32[3,1]; they must be int32 of rank 1 or more, the index vectors along the "
            "last dimension");
  EXPECT_EQ(error_message([&] { gather(b, x, i, kRows, {2, 4}, IndexMode{}, kNone); }),
            "gather: slice size of collapsed or batching dimension 0 must be 1, got 2");
  EXPECT_EQ(error_message([&] { gather(b, x, i, kRows, {1, 5}, IndexMode{}, kNone); }),
            "gather: slice size 5 of dimension 1 must be in 0..4 for f32[5,4]");
  EXPECT_EQ(error_message([&] { gather(b, x, i, {{1}, {0}, {0, 1}, {}, {}}, {1, 4}, IndexMode{}, kNone); }),
            "gather: start_index_map [0,1] must have one entry per index in the index vectors (the last dimension "
            "of i32[3,1], 1)");
  EXPECT_EQ(error_message([&] { gather(b, x, i, kRows, {1, 4}, IndexMode{"wrap"}, kNone); }),
            "gather: mode 'wrap' must be 'clip', 'fill' or 'promise_in_bounds'");
  EXPECT_EQ(error_message([&] { scatter(b, Prim::kScatter, x, i, b.input(f32({2, 4})), kRows, IndexMode{}); }),
            "scatter: the batch dimensions of the updates f32[2,4] must equal those of the indices i32[3,1] but the "
            "last");
  EXPECT_EQ(error_message([&] { scatter(b, Prim::kScatterAdd, x, i, b.input(f32({3, 6})), kRows, IndexMode{}); }),
            "scatter-add: update window dimension 1 of f32[3,6] is larger than dimension 1 of the operand f32[5,4]");
  EXPECT_EQ(error_message([&] {
              scatter(b, Prim::kScatterAdd, x, i, b.input(Aval{DType::kInt32, {3, 4}, {}}), kRows, IndexMode{});
            }),
            "scatter-add: the updates i32[3,4] must have the operand's dtype (f32[5,4])");
  EXPECT_EQ(error_message([&] { scatter(b, Prim::kScatter, x, i, u, {{1}, {0}, {2}, {}, {}}, IndexMode{}); }),
            "scatter: scatter_dims_to_operand_dims [2] must name distinct operand dimensions (0..1) outside "
            "operand_batching_dims");
}

TEST(Rev, ValuesAndTranspose) {
  const auto z = as_floats(evaluate([](Builder& b, auto in) { return rev(b, in[0], {1}); },
                                    {host_f32({2, 3}, {0, 1, 2, 3, 4, 5})}));
  EXPECT_EQ(z, (std::vector<float>{2, 1, 0, 5, 4, 3}));
  const auto both = as_floats(evaluate([](Builder& b, auto in) { return rev(b, in[0], {0, 1}); },
                                       {host_f32({2, 2}, {0, 1, 2, 3})}));
  EXPECT_EQ(both, (std::vector<float>{3, 2, 1, 0}));
  check_transpose([](Builder& b, auto in) { return rev(b, in[0], {0}); }, f32({4, 2}));
  Builder b;
  EXPECT_EQ(error_message([&] { rev(b, b.input(f32({2})), {1}); }),
            "rev: dimensions [1] must be distinct dimensions in 0..0 of f32[2]");
}

}  // namespace
}  // namespace shardlab::ir
