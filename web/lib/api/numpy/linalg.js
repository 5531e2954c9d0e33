// np.linalg: vector and matrix norms (as np.linalg), the array API's forms
// over the last two axes of diagonal, trace, and of outer, and the
// factorizations (factorizations.js).

import { ValueError } from '../../errors.js';
import { asDtype, normAxis, sequenceOf, toInexact } from './helpers.js';
import { abs, expandDims, matmul, max, min, power, reshape, sqrt, square, sum, notEqual, transpose } from './math.js';
import { defop } from '../core/op.js';
import { diagonal as npDiagonal, outer as npOuter, trace as npTrace } from './matrices.js';
import { traced, traceFor } from '../core/operands.js';
import { svdvals } from './factorizations.js';

export {
  cholesky, det, eigh, eigvalsh, inv, matrixPower, matrixRank, pinv, qr, slogdet, solve, svd, svdvals,
} from './factorizations.js';

// A vector norm of v over `axis` (a list of one).
function vectorNormOver(v, ord, axis, keepdims) {
  const opts = { axis, keepdims };
  if (ord === null || ord === undefined || ord === 2) return sqrt(sum(square(v), opts));
  if (ord === Infinity) return max(abs(v), opts);
  if (ord === -Infinity) return min(abs(v), opts);
  if (ord === 0) return asDtype(sum(notEqual(v, 0), opts), 'float32');
  if (ord === 1) return sum(abs(v), opts);
  if (typeof ord !== 'number') throw new ValueError(`np.linalg.norm: invalid norm order ${JSON.stringify(ord)} for vectors`);
  return power(sum(power(abs(v), ord), opts), 1 / ord);
}

// A matrix norm of v over the pair `axis` (rows, columns).
function matrixNormOver(v, ord, [r, c], keepdims) {
  const opts = (axis) => ({ axis, keepdims });
  if (ord === null || ord === undefined || ord === 'fro') return sqrt(sum(square(v), opts([r, c])));
  const keep = (x, axis) => (keepdims ? x : reshape(x, x.shape.filter((_, d) => d !== axis)));
  // ord 1 / -1: the largest / smallest column sum of |v|; inf / -inf: the same of the rows.
  if (ord === 1 || ord === -1 || ord === Infinity || ord === -Infinity) {
    const [over, across] = Math.abs(ord) === 1 ? [r, c] : [c, r];
    const sums = sum(abs(v), { axis: over, keepdims: true });
    const pick = ord > 0 ? max(sums, { axis: across, keepdims: true }) : min(sums, { axis: across, keepdims: true });
    return keep(keep(pick, Math.max(r, c)), Math.min(r, c));
  }
  // ord 2 / -2 / 'nuc': the largest / smallest / sum of the singular values.
  if (ord === 2 || ord === -2 || ord === 'nuc') {
    const rest = v.shape.map((_, d) => d).filter((d) => d !== r && d !== c);
    const s = svdvals(transpose(v, [...rest, r, c]));
    const out = ord === 2 ? max(s, { axis: -1 }) : ord === -2 ? min(s, { axis: -1 }) : sum(s, { axis: -1 });
    return keepdims ? expandDims(out, [Math.min(r, c), Math.max(r, c)]) : out;
  }
  throw new ValueError(`np.linalg.norm: invalid norm order ${JSON.stringify(ord)} for matrices; use None, 'fro', 'nuc', 1, -1, 2, -2, Infinity or -Infinity`);
}

/**
 * np.linalg.norm(x, {ord, axis, keepdims}): a vector norm (ord null/2, 1,
 * Infinity, -Infinity, 0, any p) over one axis, a matrix norm (null/'fro', 1,
 * -1, Infinity, -Infinity) over two; with axis null, a vector's or matrix's
 * norm, or the 2-norm of the flattened array (ord null).
 */
export const norm = defop('linalg.norm', 1, (x, { ord = null, axis = null, keepdims = false } = {}) => {
  const v = toInexact(traced(traceFor('linalg.norm'), x, 'np.linalg.norm'));
  if (axis === null) {
    if (v.ndim === 1 || (ord === null && v.ndim !== 2)) return vectorNormOver(v, ord, v.shape.map((_, d) => d), keepdims);
    if (v.ndim === 2) return matrixNormOver(v, ord, [0, 1], keepdims);
    throw new ValueError(`np.linalg.norm: improper number of dimensions to norm: ord=${JSON.stringify(ord)} of an array of rank ${v.ndim} needs axis`);
  }
  const axes = (Array.isArray(axis) ? axis : [axis]).map((a) => normAxis(a, v.ndim, 'np.linalg.norm'));
  if (axes.length === 1) return vectorNormOver(v, ord, axes, keepdims);
  if (axes.length === 2 && axes[0] !== axes[1]) return matrixNormOver(v, ord, axes, keepdims);
  throw new ValueError(`np.linalg.norm: axis must be one axis or two distinct axes, got ${JSON.stringify(axis)}`);
});

/** np.linalg.vector_norm(x, {axis, keepdims, ord}): the vector norm over `axis` (of all elements when null). */
export const vectorNorm = defop('linalg.vectorNorm', 1, (x, { axis = null, keepdims = false, ord = 2 } = {}) => {
  const v = toInexact(traced(traceFor('linalg.vectorNorm'), x, 'np.linalg.vector_norm'));
  const axes = axis === null ? v.shape.map((_, d) => d) : (Array.isArray(axis) ? axis : [axis]).map((d) => normAxis(d, v.ndim, 'np.linalg.vector_norm'));
  return vectorNormOver(v, ord, axes, keepdims);
});

/** np.linalg.matrix_norm(x, {keepdims, ord}): the matrix norm over the last two axes ('fro' by default). */
export const matrixNorm = defop('linalg.matrixNorm', 1, (x, { keepdims = false, ord = 'fro' } = {}) => norm(x, { ord, axis: [-2, -1], keepdims }));

/** np.linalg.diagonal(x, {offset}): the diagonals of the matrices over the last two axes. */
export const diagonal = defop('linalg.diagonal', 1, (x, { offset = 0 } = {}) => npDiagonal(x, offset, -2, -1));

/** np.linalg.trace(x, {offset, dtype}): the sums of the diagonals of the matrices over the last two axes. */
export const trace = defop('linalg.trace', 1, (x, { offset = 0, dtype = null } = {}) => {
  const t = npTrace(x, offset, -2, -1);
  return dtype === null ? t : asDtype(t, dtype, false);
});

/** np.linalg.outer(x1, x2): the outer product of two vectors (1-d only, as the array API's). */
export const outer = defop('linalg.outer', 2, (x1, x2) => {
  const [a, b] = [traced(traceFor('linalg.outer'), x1, 'np.linalg.outer'), traced(traceFor('linalg.outer'), x2, 'np.linalg.outer')];
  if (a.ndim !== 1 || b.ndim !== 1) throw new ValueError(`np.linalg.outer: input arrays must be one-dimensional, got ${a.aval} and ${b.aval}`);
  return npOuter(a, b);
});

/**
 * np.linalg.multi_dot(arrays): the product of a chain of matrices (the first
 * and last may be vectors), multiplied in the order of fewest
 * multiply-adds, as the matrix-chain recurrence finds it (JAX's einsum with
 * optimize='auto' finds the same order for a chain).
 */
export const multiDot = defop('linalg.multiDot', 1, (arrays) => {
  const t = traceFor('linalg.multiDot');
  const xs = sequenceOf(arrays, 'np.linalg.multiDot').map((x) => traced(t, x, 'np.linalg.multiDot'));
  if (xs.length < 2) throw new ValueError(`np.linalg.multiDot: multi_dot requires at least two arrays; got ${xs.length}`);
  const shapes = () => `[${xs.map((x) => `(${x.shape.join(', ')})`).join(', ')}]`;
  if (![1, 2].includes(xs[0].ndim) || ![1, 2].includes(xs.at(-1).ndim) || xs.slice(1, -1).some((x) => x.ndim !== 2)) {
    throw new ValueError(`np.linalg.multiDot: input arrays must all be two-dimensional, except for the first and last array which may be 1 or 2 dimensional. Got array shapes ${shapes()}`);
  }
  if (xs.slice(0, -1).some((x, i) => x.shape.at(-1) !== xs[i + 1].shape[0])) {
    throw new ValueError(`np.linalg.multiDot: last dimension of each array must match first dimension of following array. Got array shapes ${shapes()}`);
  }
  // Vectors at the ends as a row and a column; dims[i] x dims[i+1] is matrix i.
  const first = xs[0].ndim === 1;
  const last = xs.at(-1).ndim === 1;
  const ms = xs.map((x, i) => (i === 0 && first ? reshape(x, [1, x.shape[0]]) : i === xs.length - 1 && last ? reshape(x, [x.shape[0], 1]) : x));
  const dims = [ms[0].shape[0], ...ms.map((m) => m.shape[1])];
  const n = ms.length;
  const cost = Array.from({ length: n }, () => new Array(n).fill(0));
  const split = Array.from({ length: n }, () => new Array(n).fill(0));
  for (let len = 1; len < n; len++) {
    for (let i = 0; i + len < n; i++) {
      const j = i + len;
      cost[i][j] = Infinity;
      for (let k = i; k < j; k++) {
        const c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1];
        if (c < cost[i][j]) [cost[i][j], split[i][j]] = [c, k];
      }
    }
  }
  const product = (i, j) => (i === j ? ms[i] : matmul(product(i, split[i][j]), product(split[i][j] + 1, j)));
  const out = product(0, n - 1);
  const shape = [...(first ? [] : [out.shape[0]]), ...(last ? [] : [out.shape[1]])];
  return reshape(out, shape);
});

