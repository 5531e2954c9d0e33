// Matrix decompositions and triangular solves (jax.lax.linalg): cholesky,
// triangular_solve, lu, qr, eigh and svd, what jnp.linalg is built from. Each
// takes a stack of matrices [..., m, n] of a float dtype (the leading
// dimensions are a batch, so batching moves the vmapped one first) and factors
// each matrix by the textbook algorithm (Eigen's, or partial-pivoting LU
// here) in float64, rounding the factors to the operand's float dtype: one
// matrix after the other, so results are bitwise deterministic.
// The JVP rules are JAX's (jax/_src/lax/linalg.py), written with the other
// primitives.
#pragma once

#include "ir/core/primitive.h"
#include "ir/core/program.h"
#include "ir/primitives/rule_bases.h"

namespace shardlab::ir {

/// cholesky(a): the lower-triangular L with L L^T = a for a symmetric
/// positive-definite a (its lower triangle is read; zeros above the
/// diagonal); all NaNs when a is not positive-definite (as JAX's).
/// JVP (Murray, arXiv:1602.07527): dL = L phi(L^-1 da L^-T), phi taking the
/// lower triangle with its diagonal halved.
template <>
struct Def<Prim::kCholesky> : NotLinear<Def<Prim::kCholesky>>, BatchLeading<Prim::kCholesky>, ShardLeading<Def<Prim::kCholesky>> {
  static constexpr const char* kName = "cholesky";
  static constexpr ParamSchema kParams{};
  SHARDLAB_NONLINEAR_RULES
};

/// triangular_solve[conjugate_a, left_side, lower, transpose_a,
/// unit_diagonal](a, b): X with op(A) X = B (left_side) or X op(A) = B, A the
/// `lower` (else upper) triangle of a, with ones on its diagonal when
/// unit_diagonal, op(A) = A^T when transpose_a. Linear in b (its transpose
/// solves with op(A)^T); in a, dX = -op(A)^-1 op(dA) X (left) or -X op(dA) op(A)^-1.
template <>
struct Def<Prim::kTriangularSolve> : BatchLeading<Prim::kTriangularSolve>, ShardLeading<Def<Prim::kTriangularSolve>> {
  static constexpr const char* kName = "triangular_solve";
  static constexpr ParamSchema kParams{{"conjugate_a", ParamType::kBool},
                                       {"left_side", ParamType::kBool},
                                       {"lower", ParamType::kBool},
                                       {"transpose_a", ParamType::kBool},
                                       {"unit_diagonal", ParamType::kBool}};
  SHARDLAB_RULES
};

/// lu(a) -> (lu, pivots, permutation): P a = L U for a square a, by Gaussian
/// elimination with partial pivoting (the first largest |pivot|, as LAPACK's
/// getrf): lu holds L below the diagonal (its unit diagonal implied) and U on
/// and above; pivots[i] is the row swapped with row i at step i; a[permutation]
/// = L U. JVP (de Hoog, Anderssen and Lukas): with K = L^-1 P da U^-1,
/// dL = L tril(K, -1), dU = triu(K) U, d(lu) = dL + dU; the integer outputs
/// have zero tangents.
template <>
struct Def<Prim::kLu> : NotLinear<Def<Prim::kLu>>, BatchLeading<Prim::kLu>, ShardLeading<Def<Prim::kLu>> {
  static constexpr const char* kName = "lu";
  static constexpr ParamSchema kParams{};
  SHARDLAB_NONLINEAR_RULES
};

/// qr[full_matrices, pivoting](a) -> (q, r): a = q r by Householder
/// reflections (LAPACK's sign convention), q [m, k] with orthonormal columns,
/// r [k, n] upper triangular, k = m if full_matrices else min(m, n); pivoting
/// must be false. JVP for m >= n (Townsend's derivation, as JAX's _thin_qr_jvp):
/// with C = q^T da r^-1 and O = tril(C, -1) - tril(C, -1)^T,
/// dq = q (O - C) + da r^-1, dr = (C - O) r.
template <>
struct Def<Prim::kQr> : NotLinear<Def<Prim::kQr>>, BatchLeading<Prim::kQr>, ShardLeading<Def<Prim::kQr>> {
  static constexpr const char* kName = "qr";
  static constexpr ParamSchema kParams{{"full_matrices", ParamType::kBool}, {"pivoting", ParamType::kBool}};
  static constexpr const char* kNoneParams = "use_magma";
  SHARDLAB_NONLINEAR_RULES
};

/// eigh[lower, sort_eigenvalues](a) -> (v, w): a = v diag(w) v^T for the
/// symmetric matrix whose `lower` (else upper) triangle a holds, w ascending,
/// v's columns the orthonormal eigenvectors (tridiagonal QR). JVP for distinct
/// eigenvalues (first-order perturbation theory): with S = v^T da v and
/// F[i, j] = 1 / (w[j] - w[i]) off the diagonal, 0 on it:
/// dw = diag(S), dv = v (F * S).
template <>
struct Def<Prim::kEigh> : NotLinear<Def<Prim::kEigh>>, BatchLeading<Prim::kEigh>, ShardLeading<Def<Prim::kEigh>> {
  static constexpr const char* kName = "eigh";
  static constexpr ParamSchema kParams{{"lower", ParamType::kBool}, {"sort_eigenvalues", ParamType::kBool}};
  static constexpr const char* kNoneParams = "algorithm subset_by_index";
  SHARDLAB_NONLINEAR_RULES
};

/// svd[compute_uv, full_matrices](a) -> (s, u, vt), or (s) without
/// compute_uv: a = u diag(s) vt, s descending and non-negative, k = min(m, n)
/// singular values; u [m, m] and vt [n, n] when full_matrices, else [m, k]
/// and [k, n] (Eigen's two-sided Jacobi SVD, QR-preconditioned). JVP (JAX's, after Townsend and
/// Giles): with dS = u^T da v, ds = diag(dS),
/// F[i, j] = 1 / (s[j]^2 - s[i]^2) off the diagonal,
/// du = u (F * (dS s + s dS^T) + (dS - dS^T) / 2 / s on the diagonal) (+ the part
/// of da v outside u's span / s when m > n), dv likewise.
template <>
struct Def<Prim::kSvd> : NotLinear<Def<Prim::kSvd>>, BatchLeading<Prim::kSvd>, ShardLeading<Def<Prim::kSvd>> {
  static constexpr const char* kName = "svd";
  static constexpr ParamSchema kParams{{"compute_uv", ParamType::kBool}, {"full_matrices", ParamType::kBool}};
  static constexpr const char* kNoneParams = "algorithm subset_by_index";
  SHARDLAB_NONLINEAR_RULES
};

}  // namespace shardlab::ir
