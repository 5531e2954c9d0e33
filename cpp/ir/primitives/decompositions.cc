#include "ir/primitives/decompositions.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <utility>

#include "ir/tracing/ops.h"
#include "runtime/errors.h"

namespace shardlab::ir {

namespace {

// The algorithms run in float64 on each float32 matrix and round their results to float32 (an
// error of about float32's rounding where LAPACK's float32 routines, JAX's, lose a few ulps).
using Matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using FloatMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using FloatMap = Eigen::Map<FloatMatrix>;
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// ---- shapes -----------------------------------------------------------------

int64_t rows(const Shape& s) { return s[s.size() - 2]; }
int64_t cols(const Shape& s) { return s.back(); }
// How many matrices a stack [..., m, n] holds.
int64_t stack_count(const Shape& s) {
  int64_t n = 1;
  for (size_t d = 0; d + 2 < s.size(); ++d) n *= s[d];
  return n;
}
// The stack's leading (batch) dimensions followed by `tail`.
Shape stack_of(const Shape& s, std::initializer_list<int64_t> tail) {
  Shape out(s.begin(), s.end() - 2);
  out.insert(out.end(), tail);
  return out;
}

// A decomposition's operand: a stack of matrices of a float dtype.
void check_matrices(const char* name, const Aval& a) {
  if (a.ndim() < 2) fail(ErrorKind::kShape, name, ": takes a stack of matrices [..., m, n], got ", a.str());
  if (!is_float(a.dtype))
    fail(ErrorKind::kShape, name, ": takes a floating-point operand, got ", a.str(),
         "; convert it with convert_element_type (jnp.linalg promotes integers to float32)");
}
void check_square(const char* name, const Aval& a) {
  check_matrices(name, a);
  if (rows(a.shape) != cols(a.shape))
    fail(ErrorKind::kShape, name, ": takes square matrices [..., n, n], got ", a.str());
}

// ---- the JVP rules' building blocks (JAX's _T, _tril, _triu, _eye, ...) -----

// The last two dimensions swapped: each matrix of the stack transposed.
Atom mT(Builder& b, const Atom& x) {
  std::vector<int64_t> perm(x.aval.shape.size());
  std::iota(perm.begin(), perm.end(), 0);
  std::swap(perm[perm.size() - 1], perm[perm.size() - 2]);
  return transpose(b, x, perm);
}
// x @ y, matrix by matrix, for stacks with the same leading dimensions.
Atom mm(Builder& b, const Atom& x, const Atom& y) {
  const int64_t r = x.aval.ndim();
  std::vector<int64_t> batch(static_cast<size_t>(r - 2));
  std::iota(batch.begin(), batch.end(), 0);
  return dot_general(b, x, y, {{r - 1}, {r - 2}, batch, batch});
}
// column - row at every element of a stack of `shape` (int32).
Atom diagonal_offset(Builder& b, const Shape& shape) {
  const int64_t r = static_cast<int64_t>(shape.size());
  return sub(b, iota(b, DType::kInt32, shape, r - 1), iota(b, DType::kInt32, shape, r - 2));
}
// tril(x, k) (lower: where column - row <= k) or triu(x, k) (column - row >= k), zeros elsewhere.
Atom triangle(Builder& b, const Atom& x, int64_t k, bool lower) {
  const Atom keep = compare(b, lower ? Prim::kLe : Prim::kGe, diagonal_offset(b, x.aval.shape),
                            Atom::constant(static_cast<double>(k), DType::kInt32));
  return select_n(b, keep, {zeros_like(b, x.aval), x});
}
// The identity's pattern on a stack of `like`'s shape and dtype.
Atom eye(Builder& b, const Aval& like) {
  const Atom on = compare(b, Prim::kEq, diagonal_offset(b, like.shape), Atom::constant(0.0, DType::kInt32));
  return convert_element_type(b, on, like.dtype);
}
// v [..., k] spread over a stack of `shape` [..., p, q]: element [.., i, j] is
// v[.., j] (as columns, JAX's v[..., None, :]) or v[.., i] (v[..., :, None]).
Atom spread(Builder& b, const Atom& v, const Shape& shape, bool as_columns) {
  const int64_t r = static_cast<int64_t>(shape.size());
  std::vector<int64_t> dims(static_cast<size_t>(r - 2));
  std::iota(dims.begin(), dims.end(), 0);
  dims.push_back(as_columns ? r - 1 : r - 2);
  return broadcast_in_dim(b, v, shape, dims);
}
// Each matrix's diagonal [..., n] (x [..., n, n]).
Atom diagonal(Builder& b, const Atom& x) {
  const Atom on = compare(b, Prim::kEq, diagonal_offset(b, x.aval.shape), Atom::constant(0.0, DType::kInt32));
  return reduce_sum(b, select_n(b, on, {zeros_like(b, x.aval), x}), {x.aval.ndim() - 1});
}
// 1 / x.
Atom reciprocal(Builder& b, const Atom& x) { return div(b, scalar_like(x, 1.0), x); }
// triangular_solve's parameters.
Params solve_params(bool left_side, bool lower, bool transpose_a, bool unit_diagonal) {
  return {{"conjugate_a", false},
          {"left_side", left_side},
          {"lower", lower},
          {"transpose_a", transpose_a},
          {"unit_diagonal", unit_diagonal}};
}
Atom solve(Builder& b, const Params& p, const Atom& a, const Atom& rhs) {
  return b.emit1(Prim::kTriangularSolve, p, {a, rhs});
}

// ---- evaluation -------------------------------------------------------------

// Matrix k of the stack `t`, in float64.
Matrix matrix_of(const Tensor& t, int64_t k) {
  const Shape& s = t.aval.shape;
  return FloatMap(t.as<float>() + k * rows(s) * cols(s), rows(s), cols(s)).cast<double>();
}
// Calls f(k, matrix k in float64) for each matrix of the stack `in`.
template <class F>
void each_matrix(const Tensor& in, F&& f) {
  for (int64_t k = 0; k < stack_count(in.aval.shape); ++k) f(k, matrix_of(in, k));
}
// Stores m as matrix k of the stack `out` (rounded to float32).
void put(const Tensor& out, int64_t k, const Matrix& m) {
  const Shape& s = out.aval.shape;
  FloatMap(out.as<float>() + k * rows(s) * cols(s), rows(s), cols(s)) = m.cast<float>();
}
// Stores v as vector k of the stack of vectors `out` [..., n] (rounded to float32).
void put_vector(const Tensor& out, int64_t k, const Eigen::VectorXd& v) {
  const int64_t n = out.aval.shape.back();
  Eigen::Map<Eigen::VectorXf>(out.as<float>() + k * n, n) = v.cast<float>();
}
// Outputs k of a failed decomposition of the stack `a`: NaNs (as JAX's LAPACK wrappers give).
void fill_nan(const Aval& a, const std::vector<Tensor*>& out, int64_t k) {
  const int64_t count = stack_count(a.shape);
  for (Tensor* t : out) {
    const int64_t block = num_elements(t->aval.shape) / count;
    std::fill_n(t->as<float>() + k * block, block, kNaN);
  }
}

}  // namespace

// ---- cholesky ---------------------------------------------------------------

std::vector<Aval> Def<Prim::kCholesky>::shape(const Params&, const std::vector<Aval>& in) {
  if (in.size() != 1) fail(ErrorKind::kValue, kName, ": takes 1 operand, got ", in.size());
  check_square(kName, in[0]);
  return {in[0]};
}
void Def<Prim::kCholesky>::eval(const Params&, const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) {
  each_matrix(*in[0], [&](int64_t k, const Matrix& a) {
    const Eigen::LLT<Matrix, Eigen::Lower> llt(a);
    if (llt.info() != Eigen::Success || !llt.matrixLLT().allFinite()) return fill_nan(in[0]->aval, out, k);
    put(*out[0], k, llt.matrixL());
  });
}
std::vector<MaybeAtom> Def<Prim::kCholesky>::jvp(Builder& b, const Params&, const std::vector<Atom>&,
                                                 const std::vector<Atom>& out, const std::vector<MaybeAtom>& t) {
  if (!t[0]) return {std::nullopt};
  const Atom& l = out[0];
  const Atom right = solve(b, solve_params(false, true, true, false), l, *t[0]);  // da L^-T
  const Atom inner = solve(b, solve_params(true, true, false, false), l, right);  // L^-1 da L^-T
  const Atom phi = div(b, triangle(b, inner, 0, true), add(b, eye(b, inner.aval), scalar_like(inner, 1.0)));
  return {mm(b, l, phi)};
}
Sample Def<Prim::kCholesky>::sample() { return {{samples::f32({3, 3})}, {}}; }

// ---- triangular_solve -------------------------------------------------------

std::vector<Aval> Def<Prim::kTriangularSolve>::shape(const Params& p, const std::vector<Aval>& in) {
  if (in.size() != 2) fail(ErrorKind::kValue, kName, ": takes 2 operands (a, b), got ", in.size());
  const Aval& a = in[0];
  const Aval& rhs = in[1];
  check_square(kName, a);
  check_matrices(kName, rhs);
  const bool left = param<bool>(p, "left_side", kName);
  if (a.dtype != rhs.dtype) fail(ErrorKind::kShape, kName, ": a ", a.str(), " and b ", rhs.str(), " must have one dtype");
  const int64_t m = rows(a.shape);
  if (rhs.ndim() != a.ndim() || !std::equal(a.shape.begin(), a.shape.end() - 2, rhs.shape.begin()) ||
      (left ? rows(rhs.shape) : cols(rhs.shape)) != m)
    fail(ErrorKind::kShape, kName, ": with a ", a.str(), " and left_side=", left ? "True" : "False", ", b must be ",
         left ? "[..., m, n]" : "[..., n, m]", " with a's leading dimensions and m = ", m, ", got ", rhs.str());
  return {Aval{rhs.dtype, rhs.shape, vma_union(a.vma, rhs.vma)}};
}
void Def<Prim::kTriangularSolve>::eval(const Params& p, const std::vector<const Tensor*>& in,
                                       const std::vector<Tensor*>& out) {
  const bool left = param<bool>(p, "left_side", kName);
  bool lower = param<bool>(p, "lower", kName);
  const bool transposed = param<bool>(p, "transpose_a", kName);
  const bool unit = param<bool>(p, "unit_diagonal", kName);
  each_matrix(*in[0], [&](int64_t k, const Matrix& a) {
    // op(A): the triangle (the other one never read), its diagonal ones when unit, transposed.
    Matrix op = lower ? Matrix(a.triangularView<Eigen::Lower>()) : Matrix(a.triangularView<Eigen::Upper>());
    if (unit) op.diagonal().setOnes();
    if (transposed) op.transposeInPlace();
    const bool op_lower = lower != transposed;
    Matrix x = matrix_of(*in[1], k);
    if (left && op_lower) op.triangularView<Eigen::Lower>().solveInPlace(x);
    if (left && !op_lower) op.triangularView<Eigen::Upper>().solveInPlace(x);
    if (!left && op_lower) op.triangularView<Eigen::Lower>().solveInPlace<Eigen::OnTheRight>(x);
    if (!left && !op_lower) op.triangularView<Eigen::Upper>().solveInPlace<Eigen::OnTheRight>(x);
    put(*out[0], k, x);
  });
}
// Linear in b: d(X) from db is the same solve. From da: differentiating
// op(A) X = B gives op(A) dX = -op(dA) X (left side; dX op(A) = -X op(dA) on
// the right), dA restricted to the triangle the solve reads.
std::vector<MaybeAtom> Def<Prim::kTriangularSolve>::jvp(Builder& b, const Params& p, const std::vector<Atom>& x,
                                                        const std::vector<Atom>& out,
                                                        const std::vector<MaybeAtom>& t) {
  MaybeAtom d = t[1] ? MaybeAtom(solve(b, p, x[0], *t[1])) : std::nullopt;
  if (t[0]) {
    const bool lower = param<bool>(p, "lower", kName);
    const int64_t skip = param<bool>(p, "unit_diagonal", kName) ? 1 : 0;
    Atom g = neg(b, triangle(b, *t[0], lower ? -skip : skip, lower));
    if (param<bool>(p, "transpose_a", kName)) g = mT(b, g);
    const Atom from_a = param<bool>(p, "left_side", kName) ? solve(b, p, x[0], mm(b, g, out[0]))
                                                           : solve(b, p, x[0], mm(b, out[0], g));
    d = d ? add(b, *d, from_a) : from_a;
  }
  return {d};
}
// B -> op(A)^-1 B (or B op(A)^-1) transposes to the solve with op(A)^T.
std::vector<MaybeAtom> Def<Prim::kTriangularSolve>::transpose(Builder& b, const Params& p,
                                                              const std::vector<MaybeAtom>& cts,
                                                              const std::vector<Atom>& inputs,
                                                              const std::vector<bool>& linear) {
  if (linear[0]) return not_linear(kName, inputs, linear);
  if (!cts[0] || !linear[1]) return {std::nullopt, std::nullopt};
  const Params flipped = with_param(p, "transpose_a", !param<bool>(p, "transpose_a", kName));
  return {std::nullopt, solve(b, flipped, inputs[0], *cts[0])};
}
Sample Def<Prim::kTriangularSolve>::sample() {
  return {{samples::f32({3, 3}), samples::f32({3, 2})}, solve_params(true, true, false, false)};
}

// ---- lu -------------------------------------------------------------------

std::vector<Aval> Def<Prim::kLu>::shape(const Params&, const std::vector<Aval>& in) {
  if (in.size() != 1) fail(ErrorKind::kValue, kName, ": takes 1 operand, got ", in.size());
  const Aval& a = in[0];
  check_matrices(kName, a);
  if (rows(a.shape) != cols(a.shape))
    fail(ErrorKind::kShape, kName, ": ShardLab factors square matrices [..., n, n], got ", a.str());
  const Aval index{DType::kInt32, stack_of(a.shape, {rows(a.shape)}), a.vma};
  return {a, index, index};
}
void Def<Prim::kLu>::eval(const Params&, const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) {
  each_matrix(*in[0], [&](int64_t k, Matrix lu) {
    const int64_t n = lu.rows();
    int32_t* pivots = out[1]->as<int32_t>() + k * n;
    int32_t* perm = out[2]->as<int32_t>() + k * n;
    std::iota(perm, perm + n, 0);
    for (int64_t j = 0; j < n; ++j) {
      int64_t p = j;  // the first row of largest |a[i, j]|, i >= j (a NaN is never larger)
      for (int64_t i = j + 1; i < n; ++i)
        if (std::abs(lu(i, j)) > std::abs(lu(p, j))) p = i;
      pivots[j] = static_cast<int32_t>(p);
      if (lu(p, j) != 0.0) {  // a zero pivot leaves the column (all zero below) as it is, as getrf
        if (p != j) {
          lu.row(p).swap(lu.row(j));
          std::swap(perm[p], perm[j]);
        }
        lu.col(j).tail(n - j - 1) /= lu(j, j);
      }
      lu.bottomRightCorner(n - j - 1, n - j - 1).noalias() -=
          lu.col(j).tail(n - j - 1) * lu.row(j).tail(n - j - 1);
    }
    put(*out[0], k, lu);
  });
}
std::vector<MaybeAtom> Def<Prim::kLu>::jvp(Builder& b, const Params&, const std::vector<Atom>&,
                                           const std::vector<Atom>& out, const std::vector<MaybeAtom>& t) {
  if (!t[0]) return {std::nullopt, std::nullopt, std::nullopt};
  const Atom& lu = out[0];
  const Aval& av = lu.aval;
  const Atom l = add(b, triangle(b, lu, -1, true), eye(b, av));
  const Atom u = triangle(b, lu, 0, false);
  // P da: row i of da's row permutation[i], as the product with P[i, j] = (permutation[i] == j), exact.
  const Atom p = convert_element_type(
      b, compare(b, Prim::kEq, spread(b, out[2], av.shape, false), iota(b, DType::kInt32, av.shape, av.ndim() - 1)),
      av.dtype);
  const Atom la = solve(b, solve_params(true, true, false, true), l, mm(b, p, *t[0]));  // L^-1 P da
  const Atom lau = solve(b, solve_params(false, false, false, false), u, la);            // ... U^-1
  const Atom d = add(b, mm(b, l, triangle(b, lau, -1, true)), mm(b, triangle(b, lau, 0, false), u));
  return {d, std::nullopt, std::nullopt};
}
Sample Def<Prim::kLu>::sample() { return {{samples::f32({3, 3})}, {}}; }

// ---- qr -------------------------------------------------------------------

std::vector<Aval> Def<Prim::kQr>::shape(const Params& p, const std::vector<Aval>& in) {
  if (in.size() != 1) fail(ErrorKind::kValue, kName, ": takes 1 operand, got ", in.size());
  const Aval& a = in[0];
  check_matrices(kName, a);
  if (param<bool>(p, "pivoting", kName))
    fail(ErrorKind::kValue, kName, ": pivoting=True (column-pivoted QR) is not supported; use pivoting=False");
  const int64_t m = rows(a.shape), n = cols(a.shape);
  const int64_t k = param<bool>(p, "full_matrices", kName) ? m : std::min(m, n);
  return {Aval{a.dtype, stack_of(a.shape, {m, k}), a.vma}, Aval{a.dtype, stack_of(a.shape, {k, n}), a.vma}};
}
void Def<Prim::kQr>::eval(const Params&, const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) {
  each_matrix(*in[0], [&](int64_t k, const Matrix& a) {
    const int64_t q_cols = cols(out[0]->aval.shape);
    const Eigen::HouseholderQR<Matrix> qr(a);
    put(*out[0], k, qr.householderQ() * Matrix::Identity(a.rows(), q_cols));
    put(*out[1], k, qr.matrixQR().topRows(rows(out[1]->aval.shape)).triangularView<Eigen::Upper>());
  });
}
std::vector<MaybeAtom> Def<Prim::kQr>::jvp(Builder& b, const Params& p, const std::vector<Atom>& x,
                                           const std::vector<Atom>& out, const std::vector<MaybeAtom>& t) {
  if (!t[0]) return {std::nullopt, std::nullopt};
  const int64_t m = rows(x[0].aval.shape), n = cols(x[0].aval.shape);
  if (m < n || (param<bool>(p, "full_matrices", kName) && m != n))
    fail(ErrorKind::kValue, kName, ": the derivative of qr of ", x[0].aval.str(),
         " is defined here for m >= n and full_matrices=False (or square matrices): use mode='reduced' on a tall matrix");
  const Atom &q = out[0], &r = out[1];
  const Atom da_rinv = solve(b, solve_params(false, false, false, false), r, *t[0]);  // da r^-1
  const Atom c = mm(b, mT(b, q), da_rinv);
  const Atom below = triangle(b, c, -1, true);
  const Atom o = sub(b, below, mT(b, below));  // skew-symmetric
  return {add(b, mm(b, q, sub(b, o, c)), da_rinv), mm(b, sub(b, c, o), r)};
}
Sample Def<Prim::kQr>::sample() {
  return {{samples::f32({4, 3})}, {{"full_matrices", false}, {"pivoting", false}}};
}

// ---- eigh -------------------------------------------------------------------

std::vector<Aval> Def<Prim::kEigh>::shape(const Params&, const std::vector<Aval>& in) {
  if (in.size() != 1) fail(ErrorKind::kValue, kName, ": takes 1 operand, got ", in.size());
  check_square(kName, in[0]);
  const Aval& a = in[0];
  return {a, Aval{a.dtype, stack_of(a.shape, {rows(a.shape)}), a.vma}};
}
void Def<Prim::kEigh>::eval(const Params& p, const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) {
  const bool lower = param<bool>(p, "lower", kName);
  each_matrix(*in[0], [&](int64_t k, const Matrix& a) {
    // Eigen reads the lower triangle: the upper one is the lower of a^T. The other is never read.
    const Matrix read = lower ? Matrix(a.triangularView<Eigen::Lower>()) : Matrix(a.transpose().triangularView<Eigen::Lower>());
    if (!read.allFinite()) return fill_nan(in[0]->aval, out, k);
    const Eigen::SelfAdjointEigenSolver<Matrix> es(read);
    if (es.info() != Eigen::Success) return fill_nan(in[0]->aval, out, k);
    put(*out[0], k, es.eigenvectors());
    put_vector(*out[1], k, es.eigenvalues());
  });
}
std::vector<MaybeAtom> Def<Prim::kEigh>::jvp(Builder& b, const Params&, const std::vector<Atom>&,
                                             const std::vector<Atom>& out, const std::vector<MaybeAtom>& t) {
  if (!t[0]) return {std::nullopt, std::nullopt};
  const Atom &v = out[0], &w = out[1];
  const Shape& shape = v.aval.shape;
  const Atom e = eye(b, v.aval);
  // F = 1 / (I + w[j] - w[i]) - I: 1/(w[j] - w[i]) off the diagonal, 0 on it.
  const Atom f = sub(b, reciprocal(b, add(b, e, sub(b, spread(b, w, shape, true), spread(b, w, shape, false)))), e);
  const Atom s = mm(b, mm(b, mT(b, v), *t[0]), v);
  return {mm(b, v, mul(b, f, s)), diagonal(b, s)};
}
Sample Def<Prim::kEigh>::sample() {
  return {{samples::f32({3, 3})}, {{"lower", true}, {"sort_eigenvalues", true}}};
}

// ---- svd --------------------------------------------------------------------

std::vector<Aval> Def<Prim::kSvd>::shape(const Params& p, const std::vector<Aval>& in) {
  if (in.size() != 1) fail(ErrorKind::kValue, kName, ": takes 1 operand, got ", in.size());
  const Aval& a = in[0];
  check_matrices(kName, a);
  const int64_t m = rows(a.shape), n = cols(a.shape), k = std::min(m, n);
  const Aval s{a.dtype, stack_of(a.shape, {k}), a.vma};
  if (!param<bool>(p, "compute_uv", kName)) return {s};
  const bool full = param<bool>(p, "full_matrices", kName);
  return {s, Aval{a.dtype, stack_of(a.shape, {m, full ? m : k}), a.vma},
          Aval{a.dtype, stack_of(a.shape, {full ? n : k, n}), a.vma}};
}
void Def<Prim::kSvd>::eval(const Params& p, const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) {
  const bool uv = param<bool>(p, "compute_uv", kName);
  const int options = !uv ? 0
                      : param<bool>(p, "full_matrices", kName) ? Eigen::ComputeFullU | Eigen::ComputeFullV
                                                               : Eigen::ComputeThinU | Eigen::ComputeThinV;
  each_matrix(*in[0], [&](int64_t k, const Matrix& a) {
    if (!a.allFinite()) return fill_nan(in[0]->aval, out, k);
    const Eigen::JacobiSVD<Matrix> svd(a, options);
    put_vector(*out[0], k, svd.singularValues());
    if (!uv) return;
    put(*out[1], k, svd.matrixU());
    put(*out[2], k, svd.matrixV().transpose());
  });
}
std::vector<MaybeAtom> Def<Prim::kSvd>::jvp(Builder& b, const Params& p, const std::vector<Atom>& x,
                                            const std::vector<Atom>& out, const std::vector<MaybeAtom>& t) {
  std::vector<MaybeAtom> d(out.size());
  if (!t[0]) return d;
  const bool uv = param<bool>(p, "compute_uv", kName);
  const Shape& as = x[0].aval.shape;
  const int64_t m = rows(as), n = cols(as);
  if (uv && param<bool>(p, "full_matrices", kName) && m != n)
    fail(ErrorKind::kValue, kName, ": the derivative of svd with full_matrices=True is defined for square matrices only, got ",
         x[0].aval.str(), "; use full_matrices=False");
  const auto thin = b.emit(Prim::kSvd, {{"compute_uv", true}, {"full_matrices", false}}, {x[0]});
  const Atom &s = thin[0], &u = thin[1], &vt = thin[2];
  const Atom ut = mT(b, u), v = mT(b, vt);
  const Atom ds_full = mm(b, mm(b, ut, *t[0]), v);  // dS = u^T da v, [..., k, k]
  d[0] = diagonal(b, ds_full);
  if (!uv) return d;
  const Shape& kk = ds_full.aval.shape;
  const Atom s_col = spread(b, s, kk, true), s_row = spread(b, s, kk, false);  // s[j], s[i]
  const Atom e = eye(b, ds_full.aval);
  const Atom f = sub(b, reciprocal(b, add(b, mul(b, add(b, s_col, s_row), sub(b, s_col, s_row)), e)), e);
  const Atom dss = mul(b, s_col, ds_full), sds = mul(b, s_row, ds_full);  // dS diag(s), diag(s) dS
  // 1/s on the diagonal, 0 where s = 0.
  const Atom s_zero = convert_element_type(b, compare(b, Prim::kEq, s, scalar_like(s, 0.0)), s.aval.dtype);
  const Atom s_inv = sub(b, reciprocal(b, add(b, s, s_zero)), s_zero);
  const Atom du_dv_diag =
      mul(b, mul(b, scalar_like(ds_full, 0.5), sub(b, ds_full, mT(b, ds_full))), mul(b, spread(b, s_inv, kk, true), e));
  Atom du = mm(b, u, add(b, mul(b, f, add(b, dss, mT(b, dss))), du_dv_diag));
  Atom dv = mm(b, v, mul(b, f, add(b, sds, mT(b, sds))));
  // The parts of da outside the span of u (tall) or v (wide), divided by s.
  if (m > n) {
    const Atom dav = mm(b, *t[0], v);
    du = add(b, du, div(b, sub(b, dav, mm(b, u, mm(b, ut, dav))), spread(b, s, dav.aval.shape, true)));
  }
  if (n > m) {
    const Atom dau = mm(b, mT(b, *t[0]), u);
    dv = add(b, dv, div(b, sub(b, dau, mm(b, v, mm(b, vt, dau))), spread(b, s, dau.aval.shape, true)));
  }
  d[1] = du;
  d[2] = mT(b, dv);
  return d;
}
Sample Def<Prim::kSvd>::sample() {
  return {{samples::f32({4, 3})}, {{"compute_uv", true}, {"full_matrices", false}}};
}

}  // namespace shardlab::ir
