// dot_general and matmul: values against a serial float64 (or wrapping
// integer) reference computed from the definition, for matrix products,
// vector products, batched and general contractions; JVPs against finite
// differences, transposes in each operand, a gradient through the VJP pass,
// printing, and every error.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "exec/lockstep_program.h"
#include "ir/transforms/lower.h"
#include "ir/tracing/ops.h"
#include "ir/forms/print.h"
#include "ir/transforms/vjp.h"
#include "platform/platform.h"
#include "ir/forms/json_value.h"
#include "ir_checks.h"
#include "matmul_cases.h"
#include "test_util.h"

namespace shardlab::ir {
namespace {

using exec::as_floats;
using exec::as_ints;
using exec::host_f32;
using exec::host_i32;
using testing::error_message;
using testing::ravel;
using testing::unravel;

// dot_general by its definition: out[batch, x free, y free] = sum over the
// contracting indices of x * y, in float64, over the elements in `x` and `y`.
template <class T>
std::vector<T> dot_reference(const std::vector<T>& x, const Shape& xs, const std::vector<T>& y, const Shape& ys,
                             const IntLists& dims) {
  const auto& lc = dims[0];
  const auto& rc = dims[1];
  const auto& lb = dims[2];
  const auto& rb = dims[3];
  auto rest = [](const Shape& s, const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
    std::vector<int64_t> r;
    for (int64_t d = 0; d < static_cast<int64_t>(s.size()); ++d)
      if (std::find(a.begin(), a.end(), d) == a.end() && std::find(b.begin(), b.end(), d) == b.end()) r.push_back(d);
    return r;
  };
  const auto xf = rest(xs, lc, lb), yf = rest(ys, rc, rb);
  Shape out_shape, contract_shape;
  for (int64_t d : lb) out_shape.push_back(xs[d]);
  for (int64_t d : xf) out_shape.push_back(xs[d]);
  for (int64_t d : yf) out_shape.push_back(ys[d]);
  for (int64_t d : lc) contract_shape.push_back(xs[d]);
  std::vector<T> out(num_elements(out_shape));
  for (int64_t o = 0; o < num_elements(out_shape); ++o) {
    const auto oi = unravel(o, out_shape);
    std::vector<int64_t> xi(xs.size()), yi(ys.size());
    size_t at = 0;
    for (size_t i = 0; i < lb.size(); ++i, ++at) xi[lb[i]] = yi[rb[i]] = oi[at];
    for (int64_t d : xf) xi[d] = oi[at++];
    for (int64_t d : yf) yi[d] = oi[at++];
    double sum = 0;
    int64_t isum = 0;
    for (int64_t c = 0; c < num_elements(contract_shape); ++c) {
      const auto ci = unravel(c, contract_shape);
      for (size_t i = 0; i < lc.size(); ++i) xi[lc[i]] = yi[rc[i]] = ci[i];
      sum += static_cast<double>(x[ravel(xi, xs)]) * y[ravel(yi, ys)];
      isum += static_cast<int64_t>(x[ravel(xi, xs)]) * y[ravel(yi, ys)];
    }
    if constexpr (std::is_same_v<T, float>) {
      out[o] = static_cast<float>(sum);
    } else {
      out[o] = static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(isum)));
    }
  }
  return out;
}

struct DotCase {
  Shape xs, ys;
  IntLists dims;
};

// Matrix products in every operand layout (read in place, row- or
// column-major), vector products, batches in any position, several
// contracting dimensions in any order (copied), empty contractions.
const std::vector<DotCase>& dot_cases() {
  static const std::vector<DotCase> c = {
      {{4, 3}, {3, 5}, {{1}, {0}, {}, {}}},          // x @ y
      {{3, 4}, {3, 5}, {{0}, {0}, {}, {}}},          // x.T @ y
      {{4, 3}, {5, 3}, {{1}, {1}, {}, {}}},          // x @ y.T
      {{3, 4}, {5, 3}, {{0}, {1}, {}, {}}},          // x.T @ y.T
      {{6}, {6}, {{0}, {0}, {}, {}}},                // inner product
      {{3}, {3, 4}, {{0}, {0}, {}, {}}},             // vector @ matrix
      {{2, 3}, {4}, {{}, {}, {}, {}}},               // outer product
      {{2, 4, 3}, {2, 3, 5}, {{2}, {1}, {0}, {0}}},  // batched matmul
      {{2, 3, 4}, {2, 5, 3}, {{1}, {2}, {0}, {0}}},  // batched, both operands transposed
      {{4, 2, 3}, {3, 5, 2}, {{2}, {0}, {1}, {2}}},  // batch dimensions elsewhere
      {{2, 3, 4, 5}, {5, 3, 2, 6}, {{1, 3}, {1, 0}, {0}, {2}}},
      {{2, 3, 4, 5}, {5, 3, 2, 6}, {{3, 1}, {0, 1}, {0}, {2}}},
      {{3, 0}, {0, 2}, {{1}, {0}, {}, {}}},  // contracting an empty dimension gives zeros
  };
  return c;
}

TEST(DotGeneral, Float32ValuesMatchTheDefinition) {
  for (const DotCase& c : dot_cases()) {
    const auto x = testing::random_floats(num_elements(c.xs), 1), y = testing::random_floats(num_elements(c.ys), 2);
    const auto got = as_floats(evaluate([&](Builder& b, auto in) { return dot_general(b, in[0], in[1], c.dims); },
                                        {host_f32(c.xs, x), host_f32(c.ys, y)}));
    const auto want = dot_reference(x, c.xs, y, c.ys, c.dims);
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i)
      EXPECT_NEAR(got[i], want[i], 1e-5) << shape_str(c.xs) << " . " << shape_str(c.ys) << " element " << i;
  }
}

// The primitives of a program's equations, in order.
std::vector<Prim> prims(const Program& p) {
  std::vector<Prim> out;
  for (const Eqn& e : p.eqns) out.push_back(e.prim);
  return out;
}

TEST(DotGeneral, ATransposeSwappingTheFreeDimensionsIsLoweredIntoTheProductOfTheSwappedOperands) {
  struct Case {
    Shape xs, ys;
    IntLists dims;
    std::vector<int64_t> perm;
    bool fused;
  };
  const std::vector<Case> cases = {
      {{3, 4}, {4, 5}, {{1}, {0}, {}, {}}, {1, 0}, true},                 // (x y)^T = y^T x^T
      {{4, 3}, {4, 5}, {{0}, {0}, {}, {}}, {1, 0}, true},                 // a weight's gradient, as the VJP emits it
      {{2, 3, 4}, {2, 4, 5}, {{2}, {1}, {0}, {0}}, {0, 2, 1}, true},      // batched: the batch stays first
      {{2, 3, 4}, {4, 5}, {{2}, {0}, {}, {}}, {2, 0, 1}, true},           // two free dimensions of x, moved together
      {{2, 3, 4}, {4, 5}, {{2}, {0}, {}, {}}, {1, 0, 2}, false},          // reorders x's own free dimensions
      {{2, 3, 4}, {2, 4, 5}, {{2}, {1}, {0}, {0}}, {2, 0, 1}, false},     // moves the batch dimension
  };
  for (const Case& c : cases) {
    Builder b;
    const Atom x = b.input(f32(c.xs)), y = b.input(f32(c.ys));
    const auto traced = std::make_shared<const Program>(b.build({transpose(b, dot_general(b, x, y, c.dims), c.perm)}));
    const ProgramRef lowered = lower(traced);
    EXPECT_EQ(prims(*traced), (std::vector<Prim>{Prim::kDotGeneral, Prim::kTranspose}));
    EXPECT_EQ(prims(*lowered), c.fused ? std::vector<Prim>{Prim::kDotGeneral} : prims(*traced)) << to_text(*traced);
    // The same values either way: the definition's, transposed.
    const auto xv = testing::random_floats(num_elements(c.xs), 3), yv = testing::random_floats(num_elements(c.ys), 4);
    const auto got = as_floats(exec::interpret(*traced, {host_f32(c.xs, xv), host_f32(c.ys, yv)})[0]);
    const auto ref = dot_reference(xv, c.xs, yv, c.ys, c.dims);
    const Shape& out = traced->avals[traced->eqns[0].outputs[0]].shape;  // the product's
    ASSERT_EQ(got.size(), ref.size());
    for (size_t i = 0; i < got.size(); ++i) {
      // Element i of the result sits at index `at` of the product: its coordinates through the permutation.
      std::vector<int64_t> idx = unravel(static_cast<int64_t>(i), traced->avals[traced->outvars[0].var].shape), at(idx.size());
      for (size_t k = 0; k < idx.size(); ++k) at[static_cast<size_t>(c.perm[k])] = idx[k];
      EXPECT_NEAR(got[i], ref[static_cast<size_t>(ravel(at, out))], 1e-5) << shape_str(c.xs) << " . " << shape_str(c.ys);
    }
  }
  // A product with another use stays: its result is needed as it is.
  Builder b;
  const Atom x = b.input(f32({3, 4})), y = b.input(f32({4, 3}));
  const Atom p = dot_general(b, x, y, {{1}, {0}, {}, {}});
  const auto traced = std::make_shared<const Program>(b.build({transpose(b, p, {1, 0}), p}));
  EXPECT_EQ(prims(*lower(traced)), prims(*traced));
}

TEST(DotGeneral, Int32ValuesWrapAround) {
  for (const DotCase& c : dot_cases()) {
    std::vector<int32_t> x(num_elements(c.xs)), y(num_elements(c.ys));
    for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<int32_t>(i * 7 % 11) - 5;
    for (size_t i = 0; i < y.size(); ++i) y[i] = static_cast<int32_t>(i * 5 % 13) - 6;
    const auto got = as_ints(evaluate([&](Builder& b, auto in) { return dot_general(b, in[0], in[1], c.dims); },
                                      {host_i32(c.xs, x), host_i32(c.ys, y)}));
    EXPECT_EQ(got, dot_reference(x, c.xs, y, c.ys, c.dims)) << shape_str(c.xs) << " . " << shape_str(c.ys);
  }
  // 65536 * 65536 + 3 * 5 = 2^32 + 15 wraps to 15.
  const auto w = as_ints(evaluate([](Builder& b, auto in) { return matmul(b, in[0], in[1]); },
                                  {host_i32({1, 2}, {65536, 3}), host_i32({2, 1}, {65536, 5})}));
  EXPECT_EQ(w, (std::vector<int32_t>{15}));
}

// Large and ragged: past the wasm kernel's 256-deep blocks and not a whole
// number of its 4 x 8 tiles, with each operand in either storage order.
TEST(DotGeneral, ALargeMatmulIsAccurate) {
  const std::vector<DotCase> cases = {
      {{64, 96}, {96, 80}, {{1}, {0}, {}, {}}},          {{37, 300}, {300, 45}, {{1}, {0}, {}, {}}},
      {{300, 37}, {300, 45}, {{0}, {0}, {}, {}}},        {{37, 300}, {45, 300}, {{1}, {1}, {}, {}}},
      {{3, 37, 261}, {3, 261, 9}, {{2}, {1}, {0}, {0}}},
  };
  for (const DotCase& c : cases) {
    const auto x = testing::random_floats(num_elements(c.xs), 3), y = testing::random_floats(num_elements(c.ys), 4);
    const auto got = as_floats(evaluate([&](Builder& b, auto in) { return dot_general(b, in[0], in[1], c.dims); },
                                        {host_f32(c.xs, x), host_f32(c.ys, y)}));
    const auto want = dot_reference(x, c.xs, y, c.ys, c.dims);
    ASSERT_EQ(got.size(), want.size());
    // float32 sums of up to 300 products of values in [-1, 1).
    for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 2e-4) << shape_str(c.xs) << " element " << i;
  }
}

// In wasm, float32 products run on gemm.h's kernel, which sums every
// element in ascending k (a later 256-deep block continues from the stored
// partial sum), so whatever its blocking (row blocks of 128, ragged edge
// tiles) the result is bitwise a serial float32 loop's. Natively the product
// is Eigen's, which orders its sums by its own blocking.
TEST(DotGeneral, TheWasmKernelSumsInAscendingK) {
#ifndef __wasm_simd128__
  GTEST_SKIP() << "natively dot_general is Eigen's product";
#else
  // Each term is one fused multiply-add where the engine offers the fused
  // kernel (platform::fused_micro_kernel), else a rounded product then a sum.
  const bool fused = shardlab::platform::fused_micro_kernel() != nullptr;
  std::printf("matmul kernel: %s\n", fused ? "fused multiply-add" : "SIMD128 multiply then add");
  for (const auto& [m, k, n] : std::vector<std::array<int64_t, 3>>{{300, 600, 45}, {5, 257, 17}, {130, 64, 8}, {64, 1030, 16}}) {
    const auto x = testing::random_floats(static_cast<size_t>(m * k), 7);
    const auto y = testing::random_floats(static_cast<size_t>(k * n), 8);
    // The left operand row-major (x: m x k), and column-major (its transpose
    // xt: k x m, contracted over its first dimension): the kernel packs each its own way.
    std::vector<float> xt(x.size());
    for (int64_t i = 0; i < m; ++i)
      for (int64_t p = 0; p < k; ++p) xt[static_cast<size_t>(p * m + i)] = x[static_cast<size_t>(i * k + p)];
    const auto rows = as_floats(evaluate([](Builder& b, auto in) { return matmul(b, in[0], in[1]); },
                                         {host_f32({m, k}, x), host_f32({k, n}, y)}));
    const auto columns = as_floats(
        evaluate([](Builder& b, auto in) { return dot_general(b, in[0], in[1], {{0}, {0}, {}, {}}); },
                 {host_f32({k, m}, xt), host_f32({k, n}, y)}));
    int mismatches = 0;
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        float acc = 0.0f;
        for (int64_t p = 0; p < k; ++p) {
          const float a = x[static_cast<size_t>(i * k + p)], b = y[static_cast<size_t>(p * n + j)];
          acc = fused ? std::fma(a, b, acc) : acc + a * b;
        }
        for (const auto* got : {&rows, &columns})
          mismatches += std::memcmp(&acc, &(*got)[static_cast<size_t>(i * n + j)], sizeof acc) != 0;
      }
    }
    EXPECT_EQ(mismatches, 0) << m << " x " << k << " x " << n;
  }
#endif
}

TEST(Matmul, FollowsNumpyRanks) {
  Builder b;
  auto shape_of = [&](const Shape& xs, const Shape& ys) {
    return matmul(b, b.input(f32(xs)), b.input(f32(ys))).aval.shape;
  };
  EXPECT_EQ(shape_of({4, 3}, {3, 5}), (Shape{4, 5}));
  EXPECT_EQ(shape_of({3}, {3, 5}), (Shape{5}));
  EXPECT_EQ(shape_of({4, 3}, {3}), (Shape{4}));
  EXPECT_EQ(shape_of({3}, {3}), (Shape{}));
  EXPECT_EQ(shape_of({2, 7, 4, 3}, {2, 7, 3, 5}), (Shape{2, 7, 4, 5}));
  // Batched values against the definition.
  const auto x = testing::random_floats(24, 5), y = testing::random_floats(30, 6);
  const auto got = as_floats(evaluate([](Builder& bb, auto in) { return matmul(bb, in[0], in[1]); },
                                      {host_f32({2, 4, 3}, x), host_f32({2, 3, 5}, y)}));
  const auto want = dot_reference(x, {2, 4, 3}, y, {2, 3, 5}, {{2}, {1}, {0}, {0}});
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-5) << i;
  const auto mv = as_floats(evaluate([](Builder& bb, auto in) { return matmul(bb, in[0], in[1]); },
                                     {host_f32({2, 3}, {1, 2, 3, 4, 5, 6}), host_f32({3}, {1, 0, -1})}));
  EXPECT_EQ(mv, (std::vector<float>{-2, -2}));
  EXPECT_EQ(error_message([&] { matmul(b, b.input(f32({})), b.input(f32({3}))); }),
            "matmul: needs operands of rank 1 or more, got f32[] and f32[3]");
  EXPECT_EQ(shape_of({2, 3, 4}, {4, 5}), (Shape{2, 3, 5}));  // batch dimensions broadcast, as jnp.matmul
}

TEST(DotGeneral, JvpMatchesFiniteDifferences) {
  for (const DotCase& c : dot_cases()) {
    SCOPED_TRACE(shape_str(c.xs) + " . " + shape_str(c.ys));
    check_jvp([&](Builder& b, auto in) { return dot_general(b, in[0], in[1], c.dims); }, {f32(c.xs), f32(c.ys)});
  }
  // One operand constant: x @ (x + 1) has both tangent terms through one input.
  check_jvp([](Builder& b, auto in) { return matmul(b, in[0], add(b, in[0], f32_scalar(1.0))); }, {f32({3, 3})});
}

TEST(DotGeneral, TransposeInEachOperand) {
  for (const DotCase& c : dot_cases()) {
    for (size_t lin = 0; lin < 2; ++lin) {
      SCOPED_TRACE(shape_str(c.xs) + " . " + shape_str(c.ys) + " linear in " + std::to_string(lin));
      check_transpose([&](Builder& b, auto in) { return dot_general(b, in[0], in[1], c.dims); }, {f32(c.xs), f32(c.ys)},
                      lin);
    }
  }
}

TEST(DotGeneral, TransposeRestoresTheOperandsDimensionOrder) {
  // The rhs cotangent of x @ w is x.T @ ct: a dot_general contracting the batch rows, then a transpose.
  Builder b;
  const Atom x = b.input(f32({8, 4})), ct = b.input(f32({8, 3}));
  const Params p = {{"dimension_numbers", IntLists{{1}, {0}, {}, {}}}, {"preferred_element_type", DType::kFloat32}, {"out_sharding", Sharding{}}};
  const auto cts = primitive(Prim::kDotGeneral).transpose(b, p, {ct}, {x, Atom{-1, 0.0, f32({4, 3})}}, {false, true});
  EXPECT_EQ(to_text(b.build({*cts[1]})),
            "{ lambda ; a:f32[8,4] b:f32[8,3]. let\n"
            "    c:f32[3,4] = dot_general[\n"
            "      dimension_numbers=(([0], [0]), ([], []))\n"
            "      preferred_element_type=float32\n"
            "    ] b a\n"
            "    d:f32[4,3] = transpose[permutation=(1, 0)] c\n"
            "  in (d,) }");
  EXPECT_EQ(error_message([&] {
              primitive(Prim::kDotGeneral).transpose(b, p, {ct}, {x, x}, {true, true});
            }),
            "dot_general: cannot transpose a product of two linear operands (f32[8,4] and f32[8,4]); the program is "
            "not linear in them");
}

TEST(DotGeneral, GradientOfATwoLayerLossThroughTheVjpPass) {
  // sum(tanh(x @ w1) @ w2) against central finite differences in w1 and w2.
  const std::vector<Aval> avals = {f32({5, 4}), f32({4, 3}), f32({3, 2})};
  Builder b;
  std::vector<Atom> in;
  for (const Aval& a : avals) in.push_back(b.input(a));
  const Atom h = unary(b, Prim::kTanh, matmul(b, in[0], in[1]));
  const Program loss = b.build({reduce_sum(b, matmul(b, h, in[2]), {0, 1})});
  const Program grad = vjp(loss);
  std::vector<std::vector<float>> xs;
  for (size_t i = 0; i < avals.size(); ++i) xs.push_back(testing::random_floats(num_elements(avals[i].shape), 40 + i));
  auto args_of = [&](const std::vector<std::vector<float>>& v) {
    std::vector<exec::HostArray> a;
    for (size_t i = 0; i < avals.size(); ++i) a.push_back(host_f32(avals[i].shape, v[i]));
    return a;
  };
  auto args = args_of(xs);
  args.push_back(host_f32({}, {1.0f}));
  const auto out = exec::interpret(grad, args);
  const double step = 1e-2;
  for (size_t i = 1; i < avals.size(); ++i) {
    const auto g = as_floats(out[1 + i]);
    for (size_t k = 0; k < g.size(); ++k) {
      auto up = xs, down = xs;
      up[i][k] += static_cast<float>(step);
      down[i][k] -= static_cast<float>(step);
      const double fd = (as_floats(exec::interpret(loss, args_of(up))[0])[0] -
                         as_floats(exec::interpret(loss, args_of(down))[0])[0]) /
                        (2 * step);
      EXPECT_NEAR(g[k], fd, 2e-3 * (1 + std::abs(fd))) << "input " << i << " element " << k;
    }
  }
}

TEST(DotGeneral, PrintAndVma) {
  Builder b;
  const Atom x = b.input(Aval{DType::kFloat32, {8, 4}, {"data"}}),
             w = b.input(Aval{DType::kFloat32, {4, 2}, {"model"}});
  const Atom z = matmul(b, x, w);
  EXPECT_EQ(to_text(b.build({z})),
            "{ lambda ; a:f32[8,4]{V:data} b:f32[4,2]{V:model}. let\n"
            "    c:f32[8,2]{V:(data,model)} = dot_general[\n"
            "      dimension_numbers=(([1], [0]), ([], []))\n"
            "      preferred_element_type=float32\n"
            "    ] a b\n"
            "  in (c,) }");
}

TEST(DotGeneral, Errors) {
  Builder b;
  const Atom x = b.input(f32({3, 4})), y = b.input(f32({5, 2})), i = b.input(Aval{DType::kInt32, {4, 2}, {}});
  const Atom t = b.input(Aval{DType::kBool, {2, 2}, {}}), x3 = b.input(f32({2, 3, 4})), y3 = b.input(f32({3, 4, 5}));
  EXPECT_EQ(error_message([&] {
              dot_general(b, x, y, {{1}, {0}, {}, {}});
            }),
            "dot_general: contracting dimension 1 of f32[3,4] has size 4 but dimension 0 of f32[5,2] has size 5; they "
            "must be equal");
  EXPECT_EQ(error_message([&] {
              dot_general(b, x3, y3, {{2}, {1}, {0}, {0}});
            }),
            "dot_general: batch dimension 0 of f32[2,3,4] has size 2 but dimension 0 of f32[3,4,5] has size 3; they "
            "must be equal");
  EXPECT_EQ(error_message([&] { b.emit1(Prim::kDotGeneral, {}, {x}); }), "dot_general: takes 2 operands, got 1");
  EXPECT_EQ(error_message([&] {
              dot_general(b, x, y, {{1}, {0}});
            }),
            "dot_general: dimension_numbers must hold 4 lists (lhs_contracting, rhs_contracting, lhs_batch, "
            "rhs_batch), got 2");
  EXPECT_EQ(error_message([&] {
              dot_general(b, x, i, {{1}, {0}, {}, {}});
            }),
            "dot_general: operand dtypes differ (f32[3,4] and i32[4,2]); convert one with convert_element_type");
  EXPECT_EQ(error_message([&] {
              dot_general(b, t, t, {{1}, {0}, {}, {}});
            }),
            "dot_general: needs floating-point or signed integer operands, got bool[2,2] and bool[2,2]");
  EXPECT_EQ(error_message([&] {
              b.emit1(Prim::kDotGeneral,
                      {{"dimension_numbers", IntLists{{1}, {0}, {}, {}}}, {"preferred_element_type", DType::kInt32}, {"out_sharding", Sharding{}}},
                      {x, x});
            }),
            "dot_general: preferred_element_type int32 must be the dtype of the operands f32[3,4] and f32[3,4]");
  EXPECT_EQ(error_message([&] {
              dot_general(b, x, y, {{1}, {0, 1}, {}, {}});
            }),
            "dot_general: lhs_contracting [1] and rhs_contracting [0,1] must have equal lengths (operands f32[3,4] and "
            "f32[5,2])");
  EXPECT_EQ(error_message([&] {
              dot_general(b, x3, y3, {{2}, {1}, {0}, {}});
            }),
            "dot_general: lhs_batch [0] and rhs_batch [] must have equal lengths (operands f32[2,3,4] and f32[3,4,5])");
  EXPECT_EQ(error_message([&] {
              dot_general(b, x, y, {{2}, {0}, {}, {}});
            }),
            "dot_general: lhs_contracting [2] and lhs_batch [] must be distinct dimensions of f32[3,4] (0..1)");
  EXPECT_EQ(error_message([&] {
              dot_general(b, x3, x3, {{0}, {0}, {1}, {0}});
            }),
            "dot_general: rhs_contracting [0] and rhs_batch [0] must be distinct dimensions of f32[2,3,4] (0..2)");
}

// numpy's matmul in float64: vectors become matrices (then lose that
// dimension), batch dimensions broadcast (size 1 or missing meets any size).
std::vector<double> matmul_reference(const std::vector<float>& x, Shape xs, const std::vector<float>& y, Shape ys) {
  if (xs.size() == 1) xs.insert(xs.begin(), 1);
  if (ys.size() == 1) ys.push_back(1);
  const int64_t m = xs[xs.size() - 2], k = xs.back(), n = ys.back();
  const size_t nb = std::max(xs.size(), ys.size()) - 2;
  const auto batch_of = [nb](const Shape& s) {
    Shape b(nb - (s.size() - 2), 1);
    b.insert(b.end(), s.begin(), s.end() - 2);
    return b;
  };
  const Shape xb = batch_of(xs), yb = batch_of(ys);
  Shape batch(nb);
  for (size_t i = 0; i < nb; ++i) batch[i] = std::max(xb[i], yb[i]);
  std::vector<double> out;
  for (int64_t flat = 0; flat < num_elements(batch); ++flat) {
    const std::vector<int64_t> idx = unravel(flat, batch);
    int64_t xo = 0, yo = 0;
    for (size_t i = 0; i < nb; ++i) {
      xo = xo * xb[i] + (xb[i] == 1 ? 0 : idx[i]);
      yo = yo * yb[i] + (yb[i] == 1 ? 0 : idx[i]);
    }
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double sum = 0;
        for (int64_t l = 0; l < k; ++l)
          sum += double{x[static_cast<size_t>(xo * m * k + i * k + l)]} * y[static_cast<size_t>(yo * k * n + l * n + j)];
        out.push_back(sum);
      }
  }
  return out;
}

Shape shape_from(const JsonValue& v) {
  Shape s;
  for (const JsonValue& d : v.items) s.push_back(static_cast<int64_t>(d.number));
  return s;
}

// The cases np.matmul in JS is checked on too (tests/data/matmul_cases.json).
TEST(Matmul, BroadcastsBatchDimensionsAsJaxDoes) {
  const JsonValue cases = parse_json(testing::kMatmulCases, "matmul cases", size_t{1} << 20, 8);
  ASSERT_GT(cases.items.size(), 10u);
  for (const JsonValue& c : cases.items) {
    const Shape xs = shape_from(*c.find("x")), ys = shape_from(*c.find("y"));
    SCOPED_TRACE(f32(xs).str() + " @ " + f32(ys).str());
    if (c.find("error")) {
      Builder b;
      EXPECT_EQ(testing::error_kind([&] { matmul(b, b.input(f32(xs)), b.input(f32(ys))); }), ErrorKind::kShape);
      continue;
    }
    Builder b;
    const Atom xa = b.input(f32(xs));  // x first: it is input 0
    const Atom out = matmul(b, xa, b.input(f32(ys)));
    EXPECT_EQ(out.aval.shape, shape_from(*c.find("out")));
    const Program p = b.build({out});
    std::vector<std::string> eqns, want;
    for (const Eqn& e : p.eqns) eqns.push_back(primitive(e.prim).name);
    for (const JsonValue& e : c.find("eqns")->items) want.push_back(e.string);
    EXPECT_EQ(eqns, want);
    const auto x = testing::random_floats(static_cast<size_t>(num_elements(xs)), 1);
    const auto y = testing::random_floats(static_cast<size_t>(num_elements(ys)), 2);
    const auto got = as_floats(exec::interpret(p, {host_f32(xs, x), host_f32(ys, y)})[0]);
    const auto ref = matmul_reference(x, xs, y, ys);
    ASSERT_EQ(got.size(), ref.size());
    for (size_t i = 0; i < ref.size(); ++i) EXPECT_NEAR(got[i], ref[i], 1e-5 * (1 + std::abs(ref[i]))) << i;
  }
}

}  // namespace
}  // namespace shardlab::ir
