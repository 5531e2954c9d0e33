// cholesky, triangular_solve, lu, qr, eigh and svd: each factorization's
// defining identities checked in float64 on its float32 results (the
// product of the factors gives the matrix back, orthonormal and triangular
// factors, the order of eigenvalues and singular values), lu's pivots against
// a serial float64 Gaussian elimination, every triangular_solve variant
// against op(A) X = B; JVPs against central finite differences, the solve's
// transpose, stacks of matrices, the printed equations and the errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "exec/lockstep_program.h"
#include "host_arrays.h"
#include "ir/forms/print.h"
#include "ir/tracing/ops.h"
#include "ir_checks.h"
#include "test_util.h"

namespace shardlab::ir {
namespace {

using exec::as_floats;
using exec::as_ints;
using exec::host_f32;
using testing::error_message;

// A row-major float64 matrix.
struct Mat {
  int64_t r = 0, c = 0;
  std::vector<double> v;
  double& operator()(int64_t i, int64_t j) { return v[static_cast<size_t>(i * c + j)]; }
  double operator()(int64_t i, int64_t j) const { return v[static_cast<size_t>(i * c + j)]; }
};
Mat mat(int64_t r, int64_t c, const std::vector<float>& f, size_t offset = 0) {
  Mat m{r, c, std::vector<double>(static_cast<size_t>(r * c))};
  for (size_t k = 0; k < m.v.size(); ++k) m.v[k] = f[offset + k];
  return m;
}
Mat product(const Mat& a, const Mat& b) {
  Mat out{a.r, b.c, std::vector<double>(static_cast<size_t>(a.r * b.c), 0.0)};
  for (int64_t i = 0; i < a.r; ++i)
    for (int64_t j = 0; j < b.c; ++j)
      for (int64_t k = 0; k < a.c; ++k) out(i, j) += a(i, k) * b(k, j);
  return out;
}
Mat transposed(const Mat& a) {
  Mat out{a.c, a.r, std::vector<double>(a.v.size())};
  for (int64_t i = 0; i < a.r; ++i)
    for (int64_t j = 0; j < a.c; ++j) out(j, i) = a(i, j);
  return out;
}
Mat identity(int64_t n) {
  Mat m{n, n, std::vector<double>(static_cast<size_t>(n * n), 0.0)};
  for (int64_t i = 0; i < n; ++i) m(i, i) = 1;
  return m;
}
// The largest |a - b| over the elements.
double max_diff(const Mat& a, const Mat& b) {
  EXPECT_EQ(a.r, b.r);
  EXPECT_EQ(a.c, b.c);
  double d = 0;
  for (size_t k = 0; k < a.v.size(); ++k) d = std::max(d, std::abs(a.v[k] - b.v[k]));
  return d;
}

// Runs `prim` on host arrays; returns its outputs.
std::vector<exec::HostArray> run(Prim prim, const Params& p, const std::vector<exec::HostArray>& args) {
  Builder b;
  std::vector<Atom> in;
  for (const auto& a : args) in.push_back(b.input(a.aval));
  return exec::interpret(b.build(b.emit(prim, p, in)), args);
}

// A symmetric positive-definite n x n matrix: a a^T + n I from seeded uniform [-1, 1) elements.
std::vector<float> spd(int64_t n, uint32_t seed) {
  const Mat a = mat(n, n, testing::random_floats(static_cast<size_t>(n * n), seed));
  Mat s = product(a, transposed(a));
  std::vector<float> out;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) out.push_back(static_cast<float>(s(i, j) + (i == j ? n : 0)));
  return out;
}

constexpr double kTol = 2e-5;  // float32 factors of matrices with O(1) entries, in float64

TEST(Decompositions, CholeskyFactorsAPositiveDefiniteMatrix) {
  for (int64_t n : {1, 2, 5, 9}) {
    const std::vector<float> a = spd(n, static_cast<uint32_t>(n));
    const Mat l = mat(n, n, as_floats(run(Prim::kCholesky, {}, {host_f32({n, n}, a)})[0]));
    for (int64_t i = 0; i < n; ++i) {
      EXPECT_GT(l(i, i), 0) << n;
      for (int64_t j = i + 1; j < n; ++j) EXPECT_EQ(l(i, j), 0) << n;
    }
    EXPECT_LT(max_diff(product(l, transposed(l)), mat(n, n, a)), kTol * n * n) << n;
  }
}

TEST(Decompositions, CholeskyOfAMatrixThatIsNotPositiveDefiniteIsNaN) {
  const auto l = as_floats(run(Prim::kCholesky, {}, {host_f32({2, 2}, {1, 2, 2, 1})})[0]);
  for (float v : l) EXPECT_TRUE(std::isnan(v));
}

// op(A) X = B (left) or X op(A) = B in float64, for A's triangle, unit diagonal, transpose.
TEST(Decompositions, TriangularSolveSolvesEachVariant) {
  const int64_t m = 4, n = 3;
  std::vector<float> a = testing::random_floats(m * m, 5);
  for (int64_t i = 0; i < m; ++i) a[i * m + i] = 2.0f + a[i * m + i];  // a well-conditioned triangle
  for (bool left : {true, false})
    for (bool lower : {true, false})
      for (bool transpose_a : {true, false})
        for (bool unit : {true, false}) {
          const Shape bs = left ? Shape{m, n} : Shape{n, m};
          const auto bv = testing::random_floats(m * n, 6);
          const Params p{{"conjugate_a", false}, {"left_side", left}, {"lower", lower},
                         {"transpose_a", transpose_a}, {"unit_diagonal", unit}};
          const Mat x = mat(bs[0], bs[1], as_floats(run(Prim::kTriangularSolve, p, {host_f32({m, m}, a), host_f32(bs, bv)})[0]));
          Mat op = mat(m, m, a);
          for (int64_t i = 0; i < m; ++i)
            for (int64_t j = 0; j < m; ++j) {
              if (lower ? j > i : j < i) op(i, j) = 0;
              if (unit && i == j) op(i, j) = 1;
            }
          if (transpose_a) op = transposed(op);
          const Mat got = left ? product(op, x) : product(x, op);
          EXPECT_LT(max_diff(got, mat(bs[0], bs[1], bv)), 1e-5)
              << "left " << left << " lower " << lower << " transpose " << transpose_a << " unit " << unit;
        }
}

TEST(Decompositions, LuMatchesGaussianEliminationWithPartialPivoting) {
  for (int64_t n : {1, 3, 6}) {
    const auto av = testing::random_floats(n * n, 11 + static_cast<uint32_t>(n));
    const auto out = run(Prim::kLu, {}, {host_f32({n, n}, av)});
    const Mat lu = mat(n, n, as_floats(out[0]));
    const auto pivots = as_ints(out[1]), perm = as_ints(out[2]);
    // The reference: the same elimination in float64, serially.
    Mat ref = mat(n, n, av);
    std::vector<int32_t> ref_perm(n);
    for (int64_t i = 0; i < n; ++i) ref_perm[i] = static_cast<int32_t>(i);
    for (int64_t j = 0; j < n; ++j) {
      int64_t p = j;
      for (int64_t i = j + 1; i < n; ++i)
        if (std::abs(ref(i, j)) > std::abs(ref(p, j))) p = i;
      EXPECT_EQ(pivots[j], p) << n;
      for (int64_t c = 0; c < n; ++c) std::swap(ref(j, c), ref(p, c));
      std::swap(ref_perm[j], ref_perm[p]);
      for (int64_t i = j + 1; i < n; ++i) {
        ref(i, j) /= ref(j, j);
        for (int64_t c = j + 1; c < n; ++c) ref(i, c) -= ref(i, j) * ref(j, c);
      }
    }
    EXPECT_EQ(perm, ref_perm) << n;
    EXPECT_LT(max_diff(lu, ref), 1e-4) << n;
    // a[permutation] = L U.
    Mat l = identity(n), u{n, n, std::vector<double>(n * n, 0.0)};
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) (j < i ? l(i, j) : u(i, j)) = lu(i, j);
    const Mat a = mat(n, n, av);
    Mat pa{n, n, std::vector<double>(n * n)};
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) pa(i, j) = a(perm[i], j);
    EXPECT_LT(max_diff(product(l, u), pa), kTol * n) << n;
  }
}

TEST(Decompositions, QrGivesOrthonormalColumnsAndAnUpperTriangle) {
  for (auto [m, n] : std::vector<std::pair<int64_t, int64_t>>{{4, 3}, {3, 5}, {5, 5}})
    for (bool full : {false, true}) {
      const auto av = testing::random_floats(m * n, 21);
      const auto out = run(Prim::kQr, {{"full_matrices", full}, {"pivoting", false}}, {host_f32({m, n}, av)});
      const int64_t k = full ? m : std::min(m, n);
      ASSERT_EQ(out[0].aval.shape, (Shape{m, k}));
      ASSERT_EQ(out[1].aval.shape, (Shape{k, n}));
      const Mat q = mat(m, k, as_floats(out[0])), r = mat(k, n, as_floats(out[1]));
      EXPECT_LT(max_diff(product(transposed(q), q), identity(k)), kTol) << m << "x" << n;
      for (int64_t i = 0; i < k; ++i)
        for (int64_t j = 0; j < std::min(i, n); ++j) EXPECT_EQ(r(i, j), 0);
      EXPECT_LT(max_diff(product(q, r), mat(m, n, av)), kTol) << m << "x" << n;
    }
}

TEST(Decompositions, EighGivesAscendingEigenvaluesAndOrthonormalEigenvectors) {
  const int64_t n = 5;
  std::vector<float> av = testing::random_floats(n * n, 31);
  for (bool lower : {true, false}) {
    const auto out = run(Prim::kEigh, {{"lower", lower}, {"sort_eigenvalues", true}}, {host_f32({n, n}, av)});
    // The symmetric matrix of the triangle read.
    Mat a = mat(n, n, av);
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j)
        if (lower ? j > i : j < i) a(i, j) = a(j, i);
    const Mat v = mat(n, n, as_floats(out[0]));
    const auto w = as_floats(out[1]);
    EXPECT_TRUE(std::is_sorted(w.begin(), w.end()));
    Mat vw = v;
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) vw(i, j) *= w[j];
    EXPECT_LT(max_diff(product(vw, transposed(v)), a), 1e-5) << lower;
    EXPECT_LT(max_diff(product(transposed(v), v), identity(n)), 1e-5) << lower;
  }
}

TEST(Decompositions, SvdGivesDescendingSingularValuesAndOrthonormalVectors) {
  for (auto [m, n] : std::vector<std::pair<int64_t, int64_t>>{{4, 3}, {3, 5}, {4, 4}})
    for (bool full : {false, true}) {
      const auto av = testing::random_floats(m * n, 41);
      const auto out = run(Prim::kSvd, {{"compute_uv", true}, {"full_matrices", full}}, {host_f32({m, n}, av)});
      const int64_t k = std::min(m, n), ku = full ? m : k, kv = full ? n : k;
      const auto s = as_floats(out[0]);
      ASSERT_EQ(static_cast<int64_t>(s.size()), k);
      EXPECT_TRUE(std::is_sorted(s.rbegin(), s.rend()));
      EXPECT_GE(s.back(), 0.0f);
      const Mat u = mat(m, ku, as_floats(out[1])), vt = mat(kv, n, as_floats(out[2]));
      EXPECT_LT(max_diff(product(transposed(u), u), identity(ku)), kTol);
      EXPECT_LT(max_diff(product(vt, transposed(vt)), identity(kv)), kTol);
      Mat us{m, kv, std::vector<double>(m * kv, 0.0)};
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < k; ++j) us(i, j) = u(i, j) * s[j];
      EXPECT_LT(max_diff(product(us, vt), mat(m, n, av)), kTol) << m << "x" << n << " full " << full;
      // Without u and v: the same singular values.
      EXPECT_EQ(as_floats(run(Prim::kSvd, {{"compute_uv", false}, {"full_matrices", full}}, {host_f32({m, n}, av)})[0]), s);
    }
}

TEST(Decompositions, AStackIsFactoredMatrixByMatrix) {
  const int64_t n = 3;
  std::vector<float> stack = spd(n, 1);
  const std::vector<float> second = spd(n, 2);
  stack.insert(stack.end(), second.begin(), second.end());
  for (Prim prim : {Prim::kCholesky, Prim::kLu, Prim::kEigh}) {
    const Params p = primitive(prim).sample().params;
    const auto both = run(prim, p, {host_f32({2, n, n}, stack)});
    const auto one = run(prim, p, {host_f32({n, n}, second)});
    for (size_t o = 0; o < one.size(); ++o) {
      const auto& w = both[o].words;
      EXPECT_EQ(std::vector<uint32_t>(w.begin() + static_cast<int64_t>(w.size() / 2), w.end()), one[o].words)
          << primitive(prim).name << " output " << o;
    }
  }
}

// ---- derivatives --------------------------------------------------------------

// s = x x^T + 3 I, symmetric positive-definite for x in [-1, 1)^(3x3).
Atom spd_of(Builder& b, const Atom& x) {
  const Atom eye = convert_element_type(
      b, compare(b, Prim::kEq, iota(b, DType::kInt32, {3, 3}, 0), iota(b, DType::kInt32, {3, 3}, 1)), DType::kFloat32);
  return add(b, matmul(b, x, transpose(b, x, {1, 0})), mul(b, eye, f32_scalar(3)));
}

TEST(Decompositions, JvpsMatchFiniteDifferences) {
  const Aval x3 = f32({3, 3});
  check_jvp([](Builder& b, const std::vector<Atom>& x) { return b.emit1(Prim::kCholesky, {}, {spd_of(b, x[0])}); }, {x3});
  // diagonally dominant, so the pivots stay put within the finite differences' steps
  check_jvp([](Builder& b, const std::vector<Atom>& x) { return b.emit(Prim::kLu, {}, {spd_of(b, x[0])})[0]; }, {x3});
  for (bool transpose_a : {false, true})
    for (bool left : {false, true})
      check_jvp(
          [&](Builder& b, const std::vector<Atom>& x) {
            const Params p{{"conjugate_a", false}, {"left_side", left}, {"lower", true},
                           {"transpose_a", transpose_a}, {"unit_diagonal", false}};
            return b.emit1(Prim::kTriangularSolve, p, {spd_of(b, x[0]), x[1]});
          },
          {x3, x3});
  const Params thin{{"full_matrices", false}, {"pivoting", false}};
  for (size_t o : {0, 1})
    check_jvp([&](Builder& b, const std::vector<Atom>& x) { return b.emit(Prim::kQr, thin, {add(b, spd_of(b, x[0]), x[1])})[o]; },
              {x3, f32({3, 3})});
  check_jvp([&](Builder& b, const std::vector<Atom>& x) { return b.emit(Prim::kQr, thin, {x[0]})[0]; }, {f32({4, 2})});
  // eigh of a matrix with well-separated eigenvalues (diag 0, 4, 8 plus x x^T / 4).
  const auto separated = [](Builder& b, const Atom& x) {
    const Atom d = mul(b, convert_element_type(b, iota(b, DType::kInt32, {3, 3}, 0), DType::kFloat32), f32_scalar(4));
    const Atom eye = convert_element_type(
        b, compare(b, Prim::kEq, iota(b, DType::kInt32, {3, 3}, 0), iota(b, DType::kInt32, {3, 3}, 1)), DType::kFloat32);
    return add(b, mul(b, d, eye), mul(b, matmul(b, x, transpose(b, x, {1, 0})), f32_scalar(0.25)));
  };
  const Params eig{{"lower", true}, {"sort_eigenvalues", true}};
  // (eigenvectors squared: their signs are the algorithm's choice, which may differ a step away)
  check_jvp([&](Builder& b, const std::vector<Atom>& x) { return b.emit(Prim::kEigh, eig, {separated(b, x[0])})[1]; }, {x3});
  check_jvp(
      [&](Builder& b, const std::vector<Atom>& x) {
        return unary(b, Prim::kSquare, b.emit(Prim::kEigh, eig, {separated(b, x[0])})[0]);
      },
      {x3});
  for (auto shape : {Shape{3, 3}, Shape{3, 2}, Shape{2, 3}})
    for (size_t o : {0, 1, 2})
      check_jvp(
          [&](Builder& b, const std::vector<Atom>& x) {
            // distinct singular values: x plus a scaled pattern 3, 2 (, 1) on the diagonal
            const Atom d = convert_element_type(b, compare(b, Prim::kEq, iota(b, DType::kInt32, shape, 0), iota(b, DType::kInt32, shape, 1)), DType::kFloat32);
            const Atom scale = sub(b, f32_scalar(3), convert_element_type(b, iota(b, DType::kInt32, shape, 0), DType::kFloat32));
            return b.emit(Prim::kSvd, {{"compute_uv", true}, {"full_matrices", false}}, {add(b, mul(b, d, scale), mul(b, x[0], f32_scalar(0.3)))})[o];
          },
          {f32(shape)});
}

TEST(Decompositions, TriangularSolveTransposesInB) {
  for (bool left : {false, true})
    check_transpose(
        [&](Builder& b, const std::vector<Atom>& x) {
          const Params p{{"conjugate_a", false}, {"left_side", left}, {"lower", false},
                         {"transpose_a", false}, {"unit_diagonal", false}};
          return b.emit1(Prim::kTriangularSolve, p, {spd_of(b, x[0]), x[1]});
        },
        {f32({3, 3}), f32({3, 3})}, 1);
}

TEST(Decompositions, PrintAsJax) {
  Builder b;
  const Atom a = b.input(f32({3, 3})), rhs = b.input(f32({3, 2}));
  const Atom x = b.emit1(Prim::kTriangularSolve, primitive(Prim::kTriangularSolve).sample().params, {a, rhs});
  const auto lu = b.emit(Prim::kLu, {}, {a});
  EXPECT_EQ(to_text(b.build({x, lu[1]})),
            "{ lambda ; a:f32[3,3] b:f32[3,2]. let\n"
            "    c:f32[3,2] = triangular_solve[\n"
            "      conjugate_a=False\n"
            "      left_side=True\n"
            "      lower=True\n"
            "      transpose_a=False\n"
            "      unit_diagonal=False\n"
            "    ] a b\n"
            "    _:f32[3,3] d:i32[3] _:i32[3] = lu a\n"
            "  in (c, d) }");
}

TEST(Decompositions, Errors) {
  const auto emit = [](Prim prim, const Params& p, const std::vector<Aval>& avals) {
    return error_message([&] {
      Builder b;
      std::vector<Atom> in;
      for (const Aval& a : avals) in.push_back(b.input(a));
      b.emit(prim, p, in);
    });
  };
  EXPECT_EQ(emit(Prim::kCholesky, {}, {f32({2, 3})}), "cholesky: takes square matrices [..., n, n], got f32[2,3]");
  EXPECT_EQ(emit(Prim::kCholesky, {}, {f32({3})}), "cholesky: takes a stack of matrices [..., m, n], got f32[3]");
  EXPECT_EQ(emit(Prim::kLu, {}, {Aval{DType::kInt32, {2, 2}, {}}}),
            "lu: takes a floating-point operand, got i32[2,2]; convert it with convert_element_type (jnp.linalg "
            "promotes integers to float32)");
  EXPECT_EQ(emit(Prim::kQr, {{"full_matrices", false}, {"pivoting", true}}, {f32({2, 2})}),
            "qr: pivoting=True (column-pivoted QR) is not supported; use pivoting=False");
  EXPECT_EQ(emit(Prim::kTriangularSolve, primitive(Prim::kTriangularSolve).sample().params, {f32({3, 3}), f32({2, 3})}),
            "triangular_solve: with a f32[3,3] and left_side=True, b must be [..., m, n] with a's leading "
            "dimensions and m = 3, got f32[2,3]");
  EXPECT_NE(error_message([] {
              check_jvp([](Builder& b, const std::vector<Atom>& x) {
                return b.emit(Prim::kQr, {{"full_matrices", false}, {"pivoting", false}}, {x[0]})[0];
              }, {f32({2, 3})});
            }).find("qr: the derivative of qr of f32[2,3] is defined here for m >= n"),
            std::string::npos);
}

}  // namespace
}  // namespace shardlab::ir
