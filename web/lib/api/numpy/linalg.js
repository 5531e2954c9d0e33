// np.linalg: vector and matrix norms (as np.linalg).

import { ValueError } from '../../errors.js';
import { asDtype, normAxis } from './helpers.js';
import { abs, max, min, power, reshape, sqrt, square, sum, notEqual } from './math.js';
import { defop } from '../core/op.js';
import { traced, traceFor } from '../core/operands.js';

// A vector norm of v over `axis` (a list of one).
function vectorNorm(v, ord, axis, keepdims) {
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
function matrixNorm(v, ord, [r, c], keepdims) {
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
  throw new ValueError(`np.linalg.norm: matrix norm ord=${JSON.stringify(ord)} needs singular values, which ShardLab does not compute; use 'fro', 1, -1, Infinity or -Infinity`);
}

/**
 * np.linalg.norm(x, {ord, axis, keepdims}): a vector norm (ord null/2, 1,
 * Infinity, -Infinity, 0, any p) over one axis, a matrix norm (null/'fro', 1,
 * -1, Infinity, -Infinity) over two; with axis null, a vector's or matrix's
 * norm, or the 2-norm of the flattened array (ord null).
 */
export const norm = defop('linalg.norm', 1, (x, { ord = null, axis = null, keepdims = false } = {}) => {
  const v = asDtype(traced(traceFor('linalg.norm'), x, 'np.linalg.norm'), 'float32');
  if (axis === null) {
    if (v.ndim === 1 || (ord === null && v.ndim !== 2)) return vectorNorm(v, ord, v.shape.map((_, d) => d), keepdims);
    if (v.ndim === 2) return matrixNorm(v, ord, [0, 1], keepdims);
    throw new ValueError(`np.linalg.norm: improper number of dimensions to norm: ord=${JSON.stringify(ord)} of an array of rank ${v.ndim} needs axis`);
  }
  const axes = (Array.isArray(axis) ? axis : [axis]).map((a) => normAxis(a, v.ndim, 'np.linalg.norm'));
  if (axes.length === 1) return vectorNorm(v, ord, axes, keepdims);
  if (axes.length === 2 && axes[0] !== axes[1]) return matrixNorm(v, ord, axes, keepdims);
  throw new ValueError(`np.linalg.norm: axis must be one axis or two distinct axes, got ${JSON.stringify(axis)}`);
});
