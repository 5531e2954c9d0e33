// jnp.searchsorted and jnp.digitize: where values would go in a sorted
// array, counted by comparisons (left: the elements below; right: those not
// above), so traced values and arrays work alike; and jnp.select.

import { ConcretizationError, ValueError } from '../../errors.js';
import { concreteValues } from '../core/array.js';
import { isTracer } from '../core/tracer.js';
import { updateItem } from '../indexing.js';
import { logicalNot } from './bitwise.js';
import { defop } from '../core/op.js';
import { traced, traceFor } from '../core/operands.js';
import { quote } from '../core/shape.js';
import { flip, take } from './indexing.js';
import { asDtype, selectWhere as where, toInexact } from './helpers.js';
import {
  abs, add, any, clip, concatenate, divide, equal, expandDims, greater, greaterEqual, less, lessEqual, maximum, multiply, ones, remainder, reshape, subtract, sum, zeros, zerosLike,
} from './math.js';
import { argsort } from './sorting.js';
import { isInteger } from '../../dtypes.js';

const valueOf = (x, fn) => traced(traceFor(fn), x, fn);

function searchsortedOf(a, v, side, fn) {
  if (side !== 'left' && side !== 'right') throw new ValueError(`${fn}: side must be 'left' or 'right', got ${quote(side)}`);
  const sorted = valueOf(a, fn);
  if (sorted.ndim !== 1) throw new ValueError(`${fn}: a must be 1-d, got shape [${sorted.shape}]`);
  const x = valueOf(v, fn);
  const cmp = side === 'left' ? less : lessEqual;
  // count_i = #{j : a[j] < x_i} (left) or #{j : a[j] <= x_i} (right), over a trailing axis of a's elements
  return asDtype(sum(cmp(reshape(sorted, [...x.shape.map(() => 1), sorted.shape[0]]), expandDims(x, -1)), { axis: -1 }), 'int32', false);
}

/** jnp.searchsorted(a, v, {side, sorter}): for each value, the index where inserting it keeps the sorted a sorted ('left': before equal elements). */
export const searchsorted = (a, v, { side = 'left', sorter = null, method = 'scan' } = {}) => searchsortedOp(a, v, sorter ?? [], sorter !== null, side, method);
const searchsortedOp = defop('searchsorted', 3, (a, v, sorter, sorted, side) => searchsortedOf(sorted ? take(a, sorter) : a, v, side, 'np.searchsorted'));

/** jnp.digitize(x, bins, right): the index of the bin each value falls in, bins increasing or decreasing. */
export const digitize = defop('digitize', 2, (x, bins, right = false) => {
  const b = valueOf(bins, 'np.digitize');
  if (b.ndim !== 1) throw new ValueError(`np.digitize: bins must be 1-d, got shape [${b.shape}]`);
  if (b.shape[0] === 0) return zerosLike(x, 'int32');
  const side = right ? 'left' : 'right';
  const first = reshape(take(b, [0]), []);
  const last = reshape(take(b, [b.shape[0] - 1]), []);
  return where(greaterEqual(last, first), searchsortedOf(b, x, side, 'np.digitize'), subtract(b.shape[0], searchsortedOf(flip(b), x, side, 'np.digitize')));
});

/** jnp.select(condlist, choicelist, default): per element, the choice of the first condition that holds, else default. */
export const select = defop('select', 3, (condlist, choicelist, fallback = 0) => {
  if (condlist.length !== choicelist.length) throw new ValueError(`np.select: condlist and choicelist must have the same length, got ${condlist.length} and ${choicelist.length}`);
  if (!condlist.length) throw new ValueError('np.select: condlist must be non-empty');
  let out = fallback;
  for (let i = condlist.length - 1; i >= 0; i--) out = where(condlist[i], choicelist[i], out);
  return out;
});

/** jnp.isin(element, testElements, {invert}): whether each element occurs among testElements (any shape). */
export const isin = defop('isin', 2, (element, testElements, { invert = false } = {}) => {
  const e = valueOf(element, 'np.isin');
  const t = reshape(valueOf(testElements, 'np.isin'), [-1]);
  const found = any(equal(expandDims(e, -1), t), { axis: -1 });
  return invert ? logicalNot(found) : found;
});

/**
 * jnp.bincount(x, weights, minlength, {length}): how often each value 0..
 * length-1 occurs in the integers x (negatives counted as 0, values past
 * the length dropped), or the sum of their weights. length is read from a
 * concrete x (max + 1, at least minlength) unless given, as JAX needs under jit.
 */
export const bincount = (x, weights = null, minlength = 0, { length = null } = {}) => {
  let n = length;
  if (n === null) {
    if (isTracer(x)) {
      throw new ConcretizationError('The error occurred while tracing jnp.bincount: the length of its result depends on the values of x; give length= (a static integer) under jit');
    }
    const values = concreteValues(x, 'np.bincount');
    n = Math.max(minlength, values.length ? Math.max(...values) + 1 : 0);
  }
  if (!Number.isInteger(n) || n < 0) throw new ValueError(`np.bincount: length must be a non-negative integer, got ${quote(n)}`);
  return bincountOf(x, weights ?? [], weights !== null, n);
};
const bincountOf = defop('bincount', 2, (x, weights, weighted, n) => {
  const v = valueOf(x, 'np.bincount');
  if (v.ndim !== 1 || (!isInteger(v.dtype) && v.dtype !== 'bool')) throw new ValueError(`np.bincount: x must be a 1-d array of integers, got ${v.aval}`);
  const w = weighted ? valueOf(weights, 'np.bincount') : ones([v.shape[0]], 'int32');
  return updateItem('add', zeros([n], w.dtype), [maximum(asDtype(v, 'int32'), 0)], w, { mode: 'drop' });
});

/**
 * jnp.interp(x, xp, fp, {left, right, period}): the piecewise linear
 * function through (xp, fp) at x, as JAX computes it: the segment by
 * searchsorted, fp[i-1] + (x - xp[i-1]) / dx * df; outside xp, left and
 * right (the end values by default, or 'extrapolate' for the end segments'
 * lines); with a period, x and xp taken modulo it.
 */
export const interp = (x, xp, fp, { left = null, right = null, period = null } = {}) => {
  for (const [name, v] of [['left', left], ['right', right]]) {
    if (typeof v === 'string' && v !== 'extrapolate') throw new ValueError(`np.interp: the only valid string value of \`${name}\` is 'extrapolate', but got: ${quote(v)}`);
  }
  const value = (v) => (v === null || typeof v === 'string' ? [] : v);
  return interpOf(x, xp, fp, value(left), value(right), period ?? [], left === null ? 'end' : typeof left === 'string' ? 'extrapolate' : 'value', right === null ? 'end' : typeof right === 'string' ? 'extrapolate' : 'value', period !== null);
};
const interpOf = defop('interp', 6, (x, xp, fp, left, right, period, leftKind, rightKind, periodic) => {
  let xs = toInexact(valueOf(x, 'np.interp'));
  let xps = toInexact(valueOf(xp, 'np.interp'));
  let fps = toInexact(valueOf(fp, 'np.interp'));
  if (xps.ndim !== 1 || fps.ndim !== 1 || xps.shape[0] !== fps.shape[0]) throw new ValueError('np.interp: xp and fp must be one-dimensional arrays of equal size');
  if (periodic) {
    const p = abs(toInexact(valueOf(period, 'np.interp')));
    if (p.ndim !== 0) throw new ValueError(`np.interp: period must be a scalar, got shape [${p.shape}]`);
    [xs, xps] = [remainder(xs, p), remainder(xps, p)];
    const order = argsort(xps);
    [xps, fps] = [take(xps, order), take(fps, order)];
    const n = xps.shape[0];
    xps = concatenate([subtract(take(xps, [n - 1]), p), xps, add(take(xps, [0]), p)]);
    fps = concatenate([take(fps, [n - 1]), fps, take(fps, [0])]);
  }
  const n = xps.shape[0];
  const i = clip(searchsortedOf(xps, xs, 'right', 'np.interp'), 1, n - 1);
  const i0 = subtract(i, 1);
  const [f0, x0] = [take(fps, i0), take(xps, i0)];
  const df = subtract(take(fps, i), f0);
  const dx = subtract(take(xps, i), x0);
  // dx within the spacing of float32 eps, 2^-46, counts as 0 (JAX's guard against NaN gradients).
  const flat = lessEqual(abs(dx), 2 ** -46);
  let f = where(flat, f0, add(f0, multiply(divide(subtract(xs, x0), where(flat, 1, dx)), df)));
  if (leftKind !== 'extrapolate' && !periodic) f = where(less(xs, take(xps, 0)), leftKind === 'end' ? take(fps, 0) : left, f);
  if (rightKind !== 'extrapolate' && !periodic) f = where(greater(xs, take(xps, n - 1)), rightKind === 'end' ? take(fps, n - 1) : right, f);
  return f;
});
