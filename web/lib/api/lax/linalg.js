// jax.lax.linalg: the core's decomposition primitives
// (cpp/ir/primitives/decompositions.h) bound as JAX 0.11's lax.linalg binds
// them (symmetrized inputs, the singleton right-hand side), on stacks of
// float matrices [..., m, n]; np.linalg (numpy/factorizations.js) is built on them.

import { ValueError } from '../../errors.js';
import { defop } from '../core/op.js';
import { traced, traceFor } from '../core/operands.js';
import { isFloat } from '../../dtypes.js';
import { symmetrize } from '../numpy/helpers.js';
import { expandDims, reshape } from '../numpy/math.js';

// x as a traced stack of float matrices (rank >= 2), for lax.linalg.`fn`.
function matrices(fn, x) {
  const v = traced(traceFor(`lax.linalg.${fn}`), x, `lax.linalg.${fn}`);
  if (v.ndim < 2) throw new ValueError(`lax.linalg.${fn}: takes a stack of matrices [..., m, n], got ${v.aval}`);
  if (!isFloat(v.dtype)) throw new ValueError(`lax.linalg.${fn}: takes a floating-point operand, got ${v.aval}; convert it first (jnp.linalg promotes integers to float32)`);
  return v;
}

// The outputs of the primitive `prim` on the operands.
function bind(fn, prim, params, operands) {
  const t = traceFor(`lax.linalg.${fn}`);
  return t.emit(prim, params, operands.map((x) => x.atomIn(t)));
}

/** lax.linalg.cholesky(x, {symmetrizeInput}): L lower triangular with L L^T = x (NaNs when x is not positive-definite). */
export const cholesky = defop('lax.linalg.cholesky', 1, (x, { symmetrizeInput = true } = {}) => {
  const v = matrices('cholesky', x);
  return bind('cholesky', 'cholesky', {}, [symmetrizeInput ? symmetrize(v) : v])[0];
});

/** lax.linalg.eigh(x, {lower, symmetrizeInput, sortEigenvalues}): [v, w], x = v diag(w) v^T, w ascending. */
export const eigh = defop('lax.linalg.eigh', 1, (x, { lower = true, symmetrizeInput = true, sortEigenvalues = true } = {}) => {
  const v = matrices('eigh', x);
  return bind('eigh', 'eigh', { lower, sort_eigenvalues: sortEigenvalues }, [symmetrizeInput ? symmetrize(v) : v]);
});

/** lax.linalg.lu(x): [lu, pivots, permutation] of a square x with x[permutation] = L U (partial pivoting). */
export const lu = defop('lax.linalg.lu', 1, (x) => bind('lu', 'lu', {}, [matrices('lu', x)]));

/** lax.linalg.qr(x, {pivoting, fullMatrices}): [q, r], x = q r (pivoting must be false). */
export const qr = defop('lax.linalg.qr', 1, (x, { pivoting = false, fullMatrices = true } = {}) =>
  bind('qr', 'qr', { full_matrices: fullMatrices, pivoting }, [matrices('qr', x)]),
);

/** lax.linalg.svd(x, {fullMatrices, computeUv}): [u, s, vh] with x = u diag(s) vh, s descending; s alone without computeUv. */
export const svd = defop('lax.linalg.svd', 1, (x, { fullMatrices = true, computeUv = true } = {}) => {
  const outs = bind('svd', 'svd', { compute_uv: computeUv, full_matrices: fullMatrices }, [matrices('svd', x)]);
  return computeUv ? [outs[1], outs[0], outs[2]] : outs[0];
});

/**
 * lax.linalg.triangular_solve(a, b, {leftSide, lower, transposeA,
 * conjugateA, unitDiagonal}): X with op(A) X = B (leftSide) or X op(A) = B;
 * b of one rank less than a is a single right-hand side (as JAX's).
 */
export const triangularSolve = defop('lax.linalg.triangularSolve', 2, (a, b, { leftSide = false, lower = false, transposeA = false, conjugateA = false, unitDiagonal = false } = {}) => {
  const m = matrices('triangular_solve', a);
  const t = traced(traceFor('lax.linalg.triangularSolve'), b, 'lax.linalg.triangular_solve');
  const singleton = t.ndim === m.ndim - 1;
  const rhs = singleton ? expandDims(t, leftSide ? -1 : -2) : t;
  const [x] = bind('triangularSolve', 'triangular_solve', {
    conjugate_a: false, // JAX keeps conjugateA for a complex a only, which ShardLab has not
    left_side: leftSide, lower, transpose_a: transposeA, unit_diagonal: unitDiagonal,
  }, [m, rhs]);
  return singleton ? reshape(x, t.shape) : x;
});
