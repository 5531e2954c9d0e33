// np.linalg's factorizations and what is solved with them (re-exported by
// linalg.js): cholesky, qr, svd, eigh and the LU behind solve, inv, det and
// slogdet, as JAX 0.11's jnp.linalg builds them on jax.lax.linalg
// (lax/linalg.js). Their derivatives are the primitives' JVP rules; JAX's
// custom_jvp rules for det and slogdet give the same derivative
// (d log|det a| = tr(a^-1 da)) where a is invertible.

import { ValueError } from '../../errors.js';
import { isFloat } from '../../dtypes.js';
import { defop } from '../core/op.js';
import { avalOf, broadcastShapes, resultType, traced, traceFor } from '../core/operands.js';
import { asDtype, broadcastValue, emitHere, selectWhere, sliceAlong, symmetrize, toInexact } from './helpers.js';
import {
  abs, add, any, broadcastTo, countNonzero, divide, equal, exp, expandDims, greater, less, log, matmul, max, multiply,
  negative, notEqual, remainder, reshape, sign, subtract, sum, zeros,
} from './math.js';
import { diagonal, eye, matrixTranspose } from './matrices.js';
import { flip, takeAlongAxis } from './indexing.js';
import { argsort } from './sorting.js';
import * as laxLinalg from '../lax/linalg.js';
import { customJvp } from '../custom.js';

// a as a float stack of matrices (JAX's promote_dtypes_inexact), checked to be [..., m, n] (square: [..., n, n]).
function matrices(fn, a, { square = false } = {}) {
  const v = toInexact(traced(traceFor(fn), a, `np.linalg.${fn}`));
  if (v.ndim < 2 || (square && v.shape.at(-1) !== v.shape.at(-2))) {
    throw new ValueError(`np.linalg.${fn}: argument must have shape [..., ${square ? 'n, n' : 'm, n'}], got (${v.shape.join(', ')})`);
  }
  return v;
}

// v[..., i, j].
const entry = (v, i, j) => reshape(sliceAlong(sliceAlong(v, v.ndim - 2, i, i + 1), v.ndim - 1, j, j + 1), v.shape.slice(0, -2));

/** np.linalg.cholesky(a, {upper, symmetrizeInput}): L lower triangular with L L^T = a (L^T when upper); NaNs where a is not positive-definite. */
export const cholesky = defop('linalg.cholesky', 1, (a, { upper = false, symmetrizeInput = true } = {}) => {
  const l = laxLinalg.cholesky(matrices('cholesky', a, { square: true }), { symmetrizeInput });
  return upper ? matrixTranspose(l) : l;
});

/**
 * np.linalg.qr(a, mode='reduced'): [q, r] with a = q r, q's columns
 * orthonormal and r upper triangular; mode 'complete' makes q square, 'r'
 * returns r alone ('raw', LAPACK's Householder vectors, is not provided).
 */
export const qr = defop('linalg.qr', 1, (a, mode = 'reduced') => {
  if (!['reduced', 'complete', 'r'].includes(mode)) {
    throw new ValueError(`np.linalg.qr: unsupported mode ${JSON.stringify(mode)}: use 'reduced', 'complete' or 'r' (ShardLab does not provide 'raw')`);
  }
  const [q, r] = laxLinalg.qr(matrices('qr', a), { fullMatrices: mode === 'complete' });
  return mode === 'r' ? r : [q, r];
});

/**
 * np.linalg.eigh(a, UPLO=null, {symmetrizeInput}): [eigenvalues ascending,
 * eigenvectors as columns] of a symmetric matrix (its lower triangle, or the
 * upper one with UPLO 'U', when symmetrizeInput is false).
 */
export const eigh = defop('linalg.eigh', 1, (a, UPLO = null, { symmetrizeInput = true } = {}) => {
  const [vectors, values] = laxLinalg.eigh(matrices('eigh', a, { square: true }), { lower: uplo('eigh', UPLO), symmetrizeInput });
  return [values, vectors];
});

function uplo(fn, UPLO) {
  if (UPLO === null || UPLO === undefined || UPLO === 'L') return true;
  if (UPLO === 'U') return false;
  throw new ValueError(`np.linalg.${fn}: UPLO must be 'L' or 'U', got ${JSON.stringify(UPLO)}`);
}

/** np.linalg.eigvalsh(a, UPLO='L', {symmetrizeInput}): the eigenvalues of a symmetric matrix, ascending. */
export const eigvalsh = defop('linalg.eigvalsh', 1, (a, UPLO = 'L', { symmetrizeInput = true } = {}) => eigh(a, UPLO, { symmetrizeInput })[0]);

/**
 * np.linalg.svd(a, fullMatrices=true, computeUv=true, hermitian=false):
 * [u, s, vh] with a = u diag(s) vh, s descending; s alone without computeUv.
 * hermitian: from eigh, as JAX (|eigenvalues| sorted descending).
 */
export const svd = defop('linalg.svd', 1, (a, fullMatrices = true, computeUv = true, hermitian = false) => {
  const v = matrices('svd', a, { square: hermitian });
  if (hermitian) return hermitianSvd(v, computeUv);
  return laxLinalg.svd(v, { fullMatrices, computeUv });
});

// The SVD of a symmetric matrix from its eigendecomposition, as JAX's: s =
// |w| sorted ascending (stably) then reversed, u the eigenvectors in that
// order, vh = (u * sign(w))^T.
function hermitianSvd(v, computeUv) {
  const [w, vectors] = eigh(v);
  const order = flip(argsort(abs(w), { axis: -1 }), -1);
  const s = takeAlongAxis(abs(w), order, -1);
  if (!computeUv) return s;
  const u = takeAlongAxis(vectors, broadcastTo(expandDims(order, -2), vectors.shape), -1);
  const signs = expandDims(takeAlongAxis(sign(w), order, -1), -2);
  return [u, s, matrixTranspose(multiply(u, signs))];
}

/** np.linalg.svdvals(x): the singular values, descending. */
export const svdvals = defop('linalg.svdvals', 1, (x) => svd(x, true, false));

// 0..n-1 (int32).
const positions = (n) => emitHere('linalg.lu', 'iota', { dtype: 'int32', shape: [n], dimension: 0 }, []);

// x with a's LU: L U x = P b (P[i, j] = permutation[i] == j, an exact product), by forward then back substitution.
function luSolve([factors, , permutation], b) {
  const n = permutation.shape.at(-1);
  const p = asDtype(equal(expandDims(permutation, -1), positions(n)), b.dtype);
  const substitute = (rhs, lower) => laxLinalg.triangularSolve(factors, rhs, { leftSide: true, lower, unitDiagonal: lower });
  return substitute(substitute(matmul(p, b), true), false);
}

/**
 * np.linalg.solve(a, b): x with a x = b, by LU with partial pivoting; b a
 * vector [..., n] when 1-d, else matrices [..., n, k], the leading
 * dimensions broadcast (JAX 0.5's rule: a 1-d b alone is a vector).
 */
export const solve = defop('linalg.solve', 2, (a, b) => {
  const t = traceFor('linalg.solve');
  const [x, y] = [traced(t, a, 'np.linalg.solve'), traced(t, b, 'np.linalg.solve')];
  const { dtype } = resultType([avalOf(x), avalOf(y)]);
  const inexact = isFloat(dtype) ? dtype : 'float32';
  const [m, rhs] = [asDtype(x, inexact, false), asDtype(y, inexact, false)];
  if (m.ndim < 2 || m.shape.at(-1) !== m.shape.at(-2)) {
    throw new ValueError(`np.linalg.solve: left hand array must be square matrices [..., n, n]; got a.shape=(${m.shape.join(', ')})`);
  }
  if (rhs.ndim > 1 && m.ndim === rhs.ndim + 1 && m.shape.at(-1) === rhs.shape.at(-1) && m.shape.at(-1) !== rhs.shape.at(-2)) {
    throw new ValueError(`np.linalg.solve: Invalid shapes for solve: (${m.shape.join(', ')}), (${rhs.shape.join(', ')}). Prior to JAX v0.5.0, this would have been treated as a batched 1-dimensional solve. To recover this behavior, use solve(a, b[..., None]).squeeze(-1).`);
  }
  const vector = rhs.ndim === 1;
  const cols = vector ? reshape(rhs, [rhs.shape[0], 1]) : rhs;
  const n = m.shape.at(-1);
  if (cols.shape.at(-2) !== n) {
    throw new ValueError(`np.linalg.solve: b's ${vector ? 'length' : 'rows'} ${cols.shape.at(-2)} must equal a's size ${n} (a (${m.shape.join(', ')}), b (${rhs.shape.join(', ')}))`);
  }
  const batch = broadcastShapes([m.shape.slice(0, -2), cols.shape.slice(0, -2)], 'np.linalg.solve: the batch dimensions');
  const out = luSolve(laxLinalg.lu(broadcastValue(m, [...batch, n, n])), broadcastValue(cols, [...batch, n, cols.shape.at(-1)]));
  return vector ? reshape(out, [...batch, n]) : out;
});

/** np.linalg.inv(a): the inverse, solving a x = I by LU. */
export const inv = defop('linalg.inv', 1, (a) => {
  const v = matrices('inv', a, { square: true });
  const n = v.shape.at(-1);
  return solve(v, broadcastTo(eye(n, null, 0, v.dtype), v.shape));
});

/**
 * np.linalg.slogdet(a, {method}): [sign, log|det a|]; 1x1 and 2x2 by their
 * formulas, larger from the LU: the product of U's diagonal's signs and of
 * (-1) per row swap, and the sum of log|U's diagonal| (sign 0 and -inf when
 * singular), as JAX's _slogdet_lu.
 */
export const slogdet = defop('linalg.slogdet', 1, (a, { method = null } = {}) => {
  if (method !== null && method !== 'lu') {
    throw new ValueError(`np.linalg.slogdet: Unknown slogdet method '${method}'. Supported methods are 'lu' (None)${method === 'qr' ? "; ShardLab does not provide 'qr'" : ''}.`);
  }
  const v = matrices('slogdet', a, { square: true });
  const n = v.shape.at(-1);
  if (n <= 2) {
    const det = n === 1 ? entry(v, 0, 0) : det2x2(v);
    return [sign(det), log(abs(det))];
  }
  const [factors, pivots] = laxLinalg.lu(v);
  const diag = diagonal(factors, 0, -2, -1);
  const isZero = any(equal(diag, 0), { axis: -1 });
  const parity = add(countNonzero(notEqual(pivots, positions(n)), { axis: -1 }), countNonzero(less(diag, 0), { axis: -1 }));
  const parSign = asDtype(subtract(1, multiply(2, remainder(parity, 2))), v.dtype);
  return [
    selectWhere(isZero, 0, parSign),
    selectWhere(isZero, -Infinity, sum(log(abs(diag)), { axis: -1 })),
  ];
});

const det2x2 = (v) => subtract(multiply(entry(v, 0, 0), entry(v, 1, 1)), multiply(entry(v, 0, 1), entry(v, 1, 0)));
const det3x3 = (v) => {
  const e = (i, j) => entry(v, i, j);
  const term = (a, b, c) => multiply(multiply(e(...a), e(...b)), e(...c));
  return subtract(subtract(subtract(add(add(term([0, 0], [1, 1], [2, 2]), term([0, 1], [1, 2], [2, 0])), term([0, 2], [1, 0], [2, 1])),
    term([0, 2], [1, 1], [2, 0])), term([0, 0], [1, 2], [2, 1])), term([0, 1], [1, 0], [2, 2]));
};

/** np.linalg.det(a): the determinant; 2x2 and 3x3 by their formulas (as JAX), else sign * exp(log|det|) from slogdet. */
export const det = defop('linalg.det', 1, (a) => {
  const v = matrices('det', a, { square: true });
  if (v.shape.at(-1) === 2) return det2x2(v);
  if (v.shape.at(-1) === 3) return det3x3(v);
  const [s, logdet] = slogdet(v);
  return multiply(s, exp(logdet));
});

/** np.linalg.matrix_power(a, n): a multiplied by itself n times (of its inverse when n < 0; the identity when 0), by JAX's repeated squaring. */
export const matrixPower = defop('linalg.matrixPower', 1, (a, n) => {
  let v = matrices('matrix_power', a, { square: true });
  if (!Number.isInteger(n)) throw new ValueError(`np.linalg.matrix_power: exponent must be an integer, got ${n}`);
  if (n === 0) return broadcastTo(eye(v.shape.at(-2), null, 0, v.dtype), v.shape);
  if (n < 0) v = inv(v);
  let k = Math.abs(n);
  if (k <= 3) return k === 1 ? v : k === 2 ? matmul(v, v) : matmul(matmul(v, v), v);
  let z = null;
  let result = null;
  while (k > 0) {
    z = z === null ? v : matmul(z, z);
    if (k % 2 === 1) result = result === null ? z : matmul(result, z);
    k = Math.floor(k / 2);
  }
  return result;
});

/**
 * np.linalg.pinv(a, rtol=null, {hermitian}): the pseudo-inverse from the
 * SVD, as JAX's: singular values at most rtol * the largest count as zero
 * (rtol defaults to 10 * max(m, n) * float32's eps). A custom_jvp function
 * as JAX's, differentiated by Golub and Pereyra's formula (finite where
 * singular values repeat, where the SVD's derivative is not).
 */
export const pinv = defop('linalg.pinv', 1, (a, rtol = null, { hermitian = false } = {}) => {
  const v = matrices('pinv', a);
  const [m, n] = v.shape.slice(-2);
  if (m === 0 || n === 0) return zeros([...v.shape.slice(0, -2), n, m], v.dtype);
  const tol = rtol ?? 10 * Math.max(m, n) * 2 ** -23;
  const f = customJvp((x) => pseudoInverse(x, tol, hermitian), { name: '_pinv' });
  f.defjvp(([x], [dx]) => [f(x), pinvTangent(x, dx, f(x), hermitian)], { name: '_pinv_jvp' });
  return f(v);
});

// pinv by the SVD: vh^T diag(1/s) u^T, a singular value at most tol * the largest taken as infinite.
function pseudoInverse(v, tol, hermitian) {
  const [u, s, vh] = svd(v, false, true, hermitian);
  const cutoff = multiply(tol, sliceAlong(s, s.ndim - 1, 0, 1));
  const kept = selectWhere(greater(s, cutoff), s, Infinity);
  return matmul(matrixTranspose(vh), divide(matrixTranspose(u), expandDims(kept, -1)));
}

// d pinv(a) (Golub and Pereyra; JAX's _pinv_jvp), p = pinv(a), ^T the transpose:
// -p da p + (p p^T) da^T (1 - a p) + (1 - p a) da^T (p^T p), grouped as JAX groups it for m >= n and m < n.
function pinvTangent(a, da, p, hermitian) {
  const [x, dx] = hermitian ? [symmetrize(a), symmetrize(da)] : [a, da];
  const H = matrixTranspose;
  const [m, n] = x.shape.slice(-2);
  if (m >= n) {
    const s = matmul(matmul(p, H(p)), H(dx));
    const t = matmul(matmul(H(dx), H(p)), p);
    return subtract(add(subtract(add(matmul(negative(matmul(p, dx)), p), s), matmul(matmul(s, x), p)), t), matmul(matmul(p, x), t));
  }
  const s = matmul(p, matmul(H(p), H(dx)));
  const t = matmul(H(dx), matmul(H(p), p));
  return subtract(add(subtract(add(matmul(negative(p), matmul(dx, p)), s), matmul(s, matmul(x, p))), t), matmul(p, matmul(x, t)));
}

/** np.linalg.matrix_rank(M, rtol=null, {hermitian, tol}): how many singular values exceed rtol * the largest (rtol: max(m, n) * float32's eps). */
export const matrixRank = defop('linalg.matrixRank', 1, (M, rtol = null, { hermitian = false, tol = null } = {}) => {
  if (tol !== null && rtol !== null) throw new ValueError('np.linalg.matrix_rank: only one of tol or rtol may be specified.');
  const v = toInexact(traced(traceFor('linalg.matrixRank'), M, 'np.linalg.matrix_rank'));
  if (v.ndim < 2) return asDtype(any(notEqual(v, 0)), 'int32');
  const s = svd(v, false, false, hermitian);
  const given = tol ?? rtol;  // a threshold as it is (JAX's), else relative to the largest singular value
  const r = given ?? multiply(max(s, { axis: -1 }), Math.max(...v.shape.slice(-2)) * 2 ** -23);
  return sum(greater(s, typeof r === 'number' ? r : expandDims(r, -1)), { axis: -1 });
});
