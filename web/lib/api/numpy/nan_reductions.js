// jnp's NaN-ignoring reductions, written as JAX writes them: the NaNs
// replaced by the reduction's identity before the plain reduction
// (nansum, nanprod, nanmax, nanmin: NaN where every element is NaN),
// nanmean and nanvar over the count of the others, nanstd, nanargmax and
// nanargmin (-1 where all are NaN); and ptp and average beside them
// (nancumsum and nancumprod are math.js's, beside cumsum).

import { ValueError } from '../../errors.js';
import { defop } from '../core/op.js';
import { traced, traceFor } from '../core/operands.js';
import { asDtype, selectWhere as where, toInexact, withWhere } from './helpers.js';
import { logicalNot } from './bitwise.js';
import {
  all, argmax, argmin, broadcastTo, divide, fullLike, isnan, lessEqual, max, mean, min, multiply, prod, reshape, sqrt, square, subtract, sum,
} from './math.js';
import { isFloat } from '../../dtypes.js';

const valueOf = (x, fn) => traced(traceFor(fn), x, fn);
const floating = (v) => isFloat(v.dtype);
// The options of a plain reduction: axis, keepdims, and initial and the where mask when given.
const reduceOpts = ({ axis = null, keepdims = false, initial } = {}, mask) => ({
  axis, keepdims, ...(initial === undefined || initial === null ? {} : { initial }), ...(mask === undefined || mask === null ? {} : { where: mask }),
});

// nansum, nanprod, nanmax, nanmin: `reduce` of x with its NaNs as `identity`;
// with nanIfAllNan, NaN where every element reduced is NaN (JAX's _nan_reduction).
function nanReduction(name, reduce, identity, nanIfAllNan) {
  return withWhere(name, (x, mask, opts = {}) => {
    const v = valueOf(x, `np.${name}`);
    if (!floating(v)) return reduce(v, reduceOpts(opts, mask));
    const nan = isnan(v);
    const out = reduce(where(nan, identity, v), reduceOpts(opts, mask));
    if (!nanIfAllNan) return out;
    return where(all(nan, { axis: opts.axis ?? null, keepdims: Boolean(opts.keepdims) }), NaN, out);
  });
}
/** jnp.nansum(a, {axis, keepdims, initial, where}): the sum of the elements that are not NaN. */
export const nansum = nanReduction('nansum', sum, 0, false);
/** jnp.nanprod(a, {axis, keepdims, initial, where}): the product of the elements that are not NaN. */
export const nanprod = nanReduction('nanprod', prod, 1, false);
/** jnp.nanmax(a, {axis, keepdims, initial, where}): the largest element that is not NaN (NaN when all are). */
export const nanmax = nanReduction('nanmax', max, -Infinity, true);
/** jnp.nanmin(a, {axis, keepdims, initial, where}): the smallest element that is not NaN (NaN when all are). */
export const nanmin = nanReduction('nanmin', min, Infinity, true);

// The number of elements that are not NaN over the axes (in float32).
const counted = (v, { axis = null, keepdims = false } = {}, mask) => asDtype(sum(logicalNot(isnan(v)), reduceOpts({ axis, keepdims }, mask)), 'float32');

const nanmeanOf = (v, mask, opts) => divide(nansum(v, { ...reduceOpts({ ...opts, initial: undefined }, mask) }), counted(v, opts, mask));
/** jnp.nanmean(a, {axis, keepdims, where}): the mean of the elements that are not NaN (NaN when none is). */
export const nanmean = withWhere('nanmean', (x, mask, opts = {}) => {
  const v = valueOf(x, 'np.nanmean');
  return floating(v) ? nanmeanOf(v, mask, opts) : mean(v, reduceOpts(opts, mask));
});

// The variance of the elements that are not NaN, over their count - ddof (NaN when that is not positive).
function nanvarOf(x, mask, { ddof = 0, ...opts } = {}) {
  const v = toInexact(valueOf(x, 'np.nanvar'));
  const center = nanmeanOf(v, mask, { ...opts, keepdims: true });
  const centered = square(where(isnan(v), 0, subtract(v, center)));
  const n = subtract(counted(v, opts, mask), ddof);
  const none = lessEqual(n, 0);
  const total = where(none, NaN, sum(centered, reduceOpts({ ...opts, initial: undefined }, mask)));
  return divide(total, where(none, 1, n));
}
/** jnp.nanvar(a, {axis, ddof, keepdims, where}): the variance of the elements that are not NaN (NaN when count - ddof is not positive). */
export const nanvar = withWhere('nanvar', nanvarOf);
/** jnp.nanstd(a, {axis, ddof, keepdims, where}): the square root of nanvar. */
export const nanstd = withWhere('nanstd', (x, mask, opts) => sqrt(nanvarOf(x, mask, opts)));

// nanargmax and nanargmin: the NaNs made the smallest (largest) values; -1 where every element is NaN.
function nanArg(name, arg, fill) {
  return defop(name, 1, (x, opts = {}) => {
    const v = valueOf(x, `np.${name}`);
    if (!floating(v)) return arg(v, opts);
    const nan = isnan(v);
    const res = arg(where(nan, fill, v), opts);
    return where(all(nan, { axis: opts?.axis ?? null, keepdims: Boolean(opts?.keepdims) }), -1, res);
  });
}
/** jnp.nanargmax(a, {axis, keepdims}): the index of the largest element that is not NaN (-1 when all are). */
export const nanargmax = nanArg('nanargmax', argmax, -Infinity);
/** jnp.nanargmin(a, {axis, keepdims}): the index of the smallest element that is not NaN (-1 when all are). */
export const nanargmin = nanArg('nanargmin', argmin, Infinity);

/** jnp.ptp(a, {axis, keepdims}): max - min ("peak to peak"). */
export const ptp = defop('ptp', 1, (x, { axis = null, keepdims = false } = {}) => subtract(max(x, { axis, keepdims }), min(x, { axis, keepdims })));

/**
 * jnp.average(a, {axis, weights, returned, keepdims}): the mean, or the
 * weighted mean sum(a * w) / sum(w) (weights of a's shape, or 1-d along a
 * single axis); with returned, [average, sum of the weights].
 */
export const average = (x, { axis = null, weights = null, returned = false, keepdims = false } = {}) =>
  averageOf(x, weights ?? [], weights !== null, axis, returned, keepdims);
const averageOf = defop('average', 2, (x, weights, weighted, axis, returned, keepdims) => {
  const v = toInexact(valueOf(x, 'np.average'));
  let avg;
  let total;
  if (!weighted) {
    avg = mean(v, { axis, keepdims });
    total = fullLike(avg, v.size / Math.max(avg.size, 1));
  } else {
    let w = toInexact(valueOf(weights, 'np.average'));
    if (w.ndim !== v.ndim || w.shape.some((n, i) => n !== v.shape[i])) {
      if (axis === null || Array.isArray(axis)) throw new ValueError(`np.average: weights of shape [${w.shape}] differing from a's [${v.shape}] need one integer axis`);
      const d = axis < 0 ? axis + v.ndim : axis;
      if (w.ndim !== 1 || w.shape[0] !== v.shape[d]) throw new ValueError(`np.average: 1-d weights must have the length of axis ${d} (${v.shape[d]}), got shape [${w.shape}]`);
      w = broadcastTo(reshape(w, v.shape.map((n, i) => (i === d ? n : 1))), v.shape);
    }
    total = sum(w, { axis, keepdims });
    avg = divide(sum(multiply(v, w), { axis, keepdims }), total);
  }
  return returned ? [avg, total] : avg;
});
