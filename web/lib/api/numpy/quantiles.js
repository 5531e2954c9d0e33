// jnp.quantile, nanquantile, percentile, nanpercentile, median and
// nanmedian, written step by step as JAX 0.11 writes them
// (jax/_src/numpy/reductions.py, _quantile), so the numbers are JAX's:
// the reduced axes moved last and flattened (a tuple axis), NaN spread over
// a slice that holds one (quantile) or sorted last and left out of the count
// (nanquantile), a sort along the axis, then for q in [0, 1] the position
//   p = q * (n - 1)      (n the slice's length, or its count of numbers)
//   low = clamp(floor(p), 0, n - 1), high = clamp(ceil(p), 0, n - 1)
//   hw = p - floor(p), lw = 1 - hw
// and by method: linear   x[low] * lw + x[high] * hw  (in q's dtype)
//                lower    x[low];  higher x[high]
//                nearest  x[low] where hw <= 0.5, else x[high]
//                midpoint (x[low] + x[high]) * 0.5
//                inverted_cdf  x[i], i the number of cumulative weights
//                              (1 each without weights) below q * their total,
//                              clamped to [0, n - 1]; NaN where a weight is
//                              negative or NaN, or (quantile) a number is NaN.
// percentile is quantile of q / 100; median is quantile(a, 0.5, 'midpoint').

import { NotImplementedError, ShapeError, ValueError } from '../../errors.js';
import { defop } from '../core/op.js';
import { avalOf, literalTracer, resultType, traced, traceFor } from '../core/operands.js';
import { getItem } from '../indexing.js';
import { indexInDim } from '../lax/slicing.js';
import { canonicalizeAxis, sort as laxSort, sortKeyVal } from '../lax/sorting.js';
import { inexactDtype, isFloat } from '../../dtypes.js';
import { asDtype, emitHere, same, selectWhere as where } from './helpers.js';
import { logicalNot, logicalOr } from './bitwise.js';
import { takeAlongAxis } from './indexing.js';
import {
  add, any, ceil, cumsum, divide, equal, expandDims, floor, fullLike, isnan, less, lessEqual, maximum, minimum, multiply, reshape, squeeze, subtract, sum, transpose,
} from './math.js';
import { pyTuple } from '../core/python_text.js';

const METHODS = ['linear', 'lower', 'higher', 'midpoint', 'nearest', 'inverted_cdf'];
const range = (from, to) => Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);
// lax.expand_dims(x, dims), no equation when dims is empty.
const expand = (x, dims) => (dims.length ? expandDims(x, dims) : x);
// promote_dtypes_inexact: each value in the inexact dtype of the values' joined type, weak as that type is.
function promoteInexact(...vs) {
  const { dtype, weak } = resultType(vs.map((v) => avalOf(v, 'quantile')));
  return vs.map((v) => asDtype(v, inexactDtype(dtype), weak));
}

// x[low] and x[high] along `axis` of the sorted slices a when every slice
// takes the same positions (quantile): JAX's gather of slices of a at the
// int32 positions of shape q.shape, the q dimensions first.
function gatherAlong(t, a, positions, axis, keepdims) {
  const qNdim = positions.ndim;
  const offsetDims = range(qNdim, a.ndim + qNdim - (keepdims ? 0 : 1));
  return emitHere('quantile', 'gather', {
    dimension_numbers: [offsetDims, keepdims ? [] : [axis], [axis], [], []],
    fill_value: NaN,
    indices_are_sorted: false,
    mode: 'promise_in_bounds',
    slice_sizes: a.shape.map((n, d) => (d === axis ? 1 : n)),
    unique_indices: false,
  }, [a, expandDims(positions, qNdim)]);
}

// inverted_cdf: x[i] with i the number of cumulative (clean) weights below
// q * their total, clamped to the slice's last number; NaN where a weight is
// bad or (quantile) the slice holds a NaN, (nanquantile) only NaNs.
function invertedCdf(a, weights, q, axis, keepdims, squash, n) {
  const qNdim = q.ndim;
  const w = weights ?? fullLike(a, 1.0);
  const zeros = fullLike(w, 0);
  const bad = logicalOr(less(w, zeros), isnan(w));
  const nanData = isnan(a);
  const clean = where(logicalOr(bad, nanData), zeros, w);
  const cum = cumsum(clean, { axis });
  const total = indexInDim(cum, -1, axis, keepdims);
  const target = multiply(reshape(q, [...q.shape, ...total.shape.map(() => 1)]), expand(total, range(0, qNdim)));
  const aligned = keepdims ? target : expandDims(target, axis + qNdim);
  const isLess = less(expand(cum, range(0, qNdim)), aligned);
  let idx = sum(asDtype(isLess, 'int32', false), { axis: axis + qNdim, keepdims });
  const validCounts = squash ? sum(asDtype(logicalNot(nanData), q.dtype, false), { axis, keepdims }) : fullLike(total, n, q.dtype);
  const maxIdx = expand(asDtype(subtract(validCounts, 1), 'int32', false), range(0, qNdim));
  idx = maximum(0, minimum(idx, maxIdx));
  const take = keepdims ? squeeze(idx, qNdim + axis) : idx;
  let result;
  if (qNdim === 0) {
    result = squeeze(takeAlongAxis(a, expandDims(take, axis), axis), axis);
  } else {
    // q's dimension moved to the axis, for take_along_axis, and back.
    const perm = [...range(qNdim, qNdim + axis), ...range(0, qNdim), ...range(qNdim + axis, take.ndim)];
    const taken = takeAlongAxis(a, transpose(take, perm), axis);
    result = transpose(taken, range(0, perm.length).map((i) => perm.indexOf(i)));
  }
  if (keepdims) result = expandDims(result, qNdim + axis);
  const anyBad = any(bad, { axis, keepdims });
  const force = logicalOr(anyBad, squash ? equal(validCounts, 0) : any(nanData, { axis, keepdims }));
  return where(expand(force, range(0, qNdim)), NaN, result);
}

// JAX's _quantile(a, q, axis, method, keepdims, squash_nans, weights), with
// percentile's q / 100 first when `percent`.
const quantileOf = defop('quantile', 3, (a0, q0, w0, weighted, axis0, method, keepdims, squash, percent) => {
  const t = traceFor('quantile');
  let q = traced(t, q0, 'quantile');
  if (percent) q = divide(asDtype(q, inexactDtype(q.dtype), q.weakType), 100);
  if (!METHODS.includes(method)) throw new ValueError("method can only be 'linear', 'lower', 'higher', 'midpoint', 'nearest' or 'inverted_cdf'");
  let a = traced(t, a0, 'quantile');
  let w = null;
  if (weighted) {
    if (method !== 'inverted_cdf') throw new NotImplementedError(`${method} doesn't support weights. Only method 'inverted_cdf' supports weights.`);
    [a, w] = promoteInexact(a, traced(t, w0, 'quantile'));
    if (!same(w.shape, a.shape)) {
      if (axis0 === null) throw new ValueError("Weights shape must match 'a' shape when axis is None.");
      const axes = (Array.isArray(axis0) ? axis0 : [axis0]).map((d) => canonicalizeAxis(d, a.ndim, 'quantile'));
      if (new Set(axes).size !== axes.length) throw new ValueError(`repeated axis: ${pyTuple(axes)}`);
      const want = axes.map((d) => a.shape[d]);
      if (!same(w.shape, want)) throw new ValueError(`Weights shape ${pyTuple(w.shape)} must match reduction axes ${pyTuple(want)}`);
      // broadcast_in_dim(w, a.shape, axes): w's dimension i lands on axes[i]; its
      // dimensions put in the order of their axes first, as the core's rule takes them.
      const order = range(0, axes.length).sort((i, j) => axes[i] - axes[j]);
      const wt = order.every((k, i) => k === i) ? w : transpose(w, order);
      w = emitHere('quantile', 'broadcast_in_dim', { shape: a.shape, broadcast_dimensions: order.map((k) => axes[k]) }, [wt]);
    }
  } else {
    [a] = promoteInexact(a);
  }

  // The reduced axes as one last axis (keepdim: the shape keepdims gives at the end).
  let keepdim = [];
  let axis;
  if (axis0 === null) {
    if (keepdims) keepdim = a.shape.map(() => 1);
    a = reshape(a, [a.size]);
    if (w) w = reshape(w, [w.size]);
    axis = 0;
  } else if (Array.isArray(axis0)) {
    const nd = a.ndim;
    keepdim = [...a.shape];
    const axes = axis0.map((d) => canonicalizeAxis(d, nd, 'quantile'));
    if (new Set(axes).size !== axes.length) throw new ValueError('repeated axis');
    for (const d of axes) keepdim[d] = 1;
    // JAX's permutation: the kept dimensions first (in order), by swaps.
    const keep = range(0, nd).filter((d) => !axes.includes(d));
    const dims = range(0, nd);
    keep.forEach((s, i) => ([dims[i], dims[s]] = [dims[s], dims[i]]));
    const shape = [...keep.map((d) => a.shape[d]), axes.reduce((p, d) => p * a.shape[d], 1)];
    const moved = (v) => reshape(dims.every((d, i) => d === i) ? v : transpose(v, dims), shape);
    a = moved(a);
    if (w) w = moved(w);
    axis = a.ndim - 1;
  } else {
    axis = canonicalizeAxis(axis0, a.ndim, 'quantile');
  }

  if (q.ndim > 1) throw new ValueError(`q must be have rank <= 1, got shape ${pyTuple(q.shape)}`);
  // JAX's floor of q * (n - 1) refuses a q that is not floating.
  if (!isFloat(q.dtype)) throw new ShapeError(`floor does not accept dtype ${q.dtype}. Accepted dtypes are subtypes of floating.`);
  const qNdim = q.ndim;
  const n = a.shape[axis];

  let low;
  let high;
  let lowWeight;
  let highWeight;
  if (squash) {
    a = where(isnan(a), NaN, a); // one NaN, which sorts last
    if (w) [a, w] = sortKeyVal(a, w, { dimension: axis });
    else a = laxSort(a, { dimension: axis });
    const counts0 = sum(asDtype(logicalNot(isnan(a)), q.dtype, false), { axis, keepdims });
    const after = counts0.shape;
    const qq = expand(q, range(qNdim, after.length + qNdim));
    const last = subtract(expand(counts0, range(0, qNdim)), 1);
    const p = multiply(qq, last);
    [low, high] = [floor(p), ceil(p)];
    highWeight = subtract(p, low);
    lowWeight = subtract(1, highWeight);
    [low, high] = [low, high].map((v) => asDtype(maximum(0, minimum(v, last)), 'int32', false));
    // a[index]: the positions along the axis, every other dimension its own iota.
    const outShape = [...q.shape, ...after];
    const index = after.map((_, d) => emitHere('quantile', 'iota', { dtype: 'int32', shape: outShape, dimension: d + qNdim }, []));
    const at = (pos) => {
      const ix = [...index];
      if (keepdims) ix[axis] = pos;
      else ix.splice(axis, 0, pos);
      return getItem(a, ix);
    };
    [low, high] = [at(low), at(high)];
  } else {
    a = where(any(isnan(a), { axis, keepdims: true }), NaN, a);
    if (w) [a, w] = sortKeyVal(a, w, { dimension: axis });
    else a = laxSort(a, { dimension: axis });
    const nm1 = subtract(literalTracer(t, n, q.dtype), 1);
    const p = multiply(q, nm1);
    [low, high] = [floor(p), ceil(p)];
    highWeight = subtract(p, low);
    lowWeight = subtract(1, highWeight);
    // lax.clamp(0, v, n - 1) = min(max(v, 0), n - 1)
    [low, high] = [low, high].map((v) => asDtype(minimum(maximum(v, 0), nm1), 'int32', false));
    [low, high] = [low, high].map((pos) => gatherAlong(t, a, pos, axis, keepdims));
    if (qNdim === 1) {
      [lowWeight, highWeight] = [lowWeight, highWeight].map((v) => emitHere('quantile', 'broadcast_in_dim', { shape: low.shape, broadcast_dimensions: [0] }, [v]));
    }
  }
  // From here low and high hold x[low] and x[high] (computed for inverted_cdf too, as JAX does, which reads neither).

  let result;
  if (method === 'linear') result = add(multiply(asDtype(low, q.dtype, false), lowWeight), multiply(asDtype(high, q.dtype, false), highWeight));
  else if (method === 'lower') result = low;
  else if (method === 'higher') result = high;
  else if (method === 'nearest') result = where(lessEqual(highWeight, 0.5), low, high);
  else if (method === 'midpoint') result = multiply(add(low, high), literalTracer(t, 0.5, low.dtype));
  else result = invertedCdf(a, w, q, axis, keepdims, squash, n);
  if (keepdims && keepdim.length) result = reshape(result, qNdim > 0 ? [q.shape[0], ...keepdim] : keepdim);
  return asDtype(result, a.dtype, false);
});

const QUANTILE_OPTIONS = ['axis', 'out', 'overwriteInput', 'method', 'keepdims', 'weights'];
const MEDIAN_OPTIONS = ['axis', 'out', 'overwriteInput', 'keepdims'];

// The options object (a number or a list standing for the axis alone), its
// keys checked; JAX's ValueError for out and overwrite_input, naming `checked`.
function optionsOf(fn, opts, known, checked) {
  const o = typeof opts === 'number' || Array.isArray(opts) ? { axis: opts } : (opts ?? {});
  const unknown = Object.keys(o).find((k) => !known.includes(k));
  if (unknown !== undefined) throw new ValueError(`np.${fn}: unknown option '${unknown}'; its options are ${known.join(', ')}`);
  if (o.overwriteInput || (o.out !== undefined && o.out !== null)) {
    throw new ValueError(`jax.numpy.${checked} does not support overwrite_input=True or out != None`);
  }
  return o;
}

function quantileEntry(fn, a, q, opts, squash, percent) {
  const o = optionsOf(fn, opts, QUANTILE_OPTIONS, squash ? 'nanquantile' : 'quantile');
  const weighted = o.weights !== undefined && o.weights !== null;
  return quantileOf(a, q, weighted ? o.weights : [], weighted, o.axis ?? null, o.method ?? 'linear', Boolean(o.keepdims), squash, percent);
}

/** jnp.quantile(a, q, {axis, method, keepdims, weights}): the q-th quantiles (q in [0, 1], a scalar or 1-d) along the axes; NaN for a slice holding a NaN. */
export const quantile = (a, q, opts) => quantileEntry('quantile', a, q, opts, false, false);
/** jnp.nanquantile(a, q, {axis, method, keepdims, weights}): the q-th quantiles of the numbers that are not NaN (NaN where all are). */
export const nanquantile = (a, q, opts) => quantileEntry('nanquantile', a, q, opts, true, false);
/** jnp.percentile(a, q, {axis, method, keepdims, weights}): quantile at q / 100 (q in [0, 100]). */
export const percentile = (a, q, opts) => quantileEntry('percentile', a, q, opts, false, true);
/** jnp.nanpercentile(a, q, {axis, method, keepdims, weights}): nanquantile at q / 100. */
export const nanpercentile = (a, q, opts) => quantileEntry('nanpercentile', a, q, opts, true, true);

/** jnp.median(a, {axis, keepdims}): quantile 0.5 by 'midpoint', the mean of the two middle elements of an even count. */
export function median(a, opts) {
  const o = optionsOf('median', opts, MEDIAN_OPTIONS, 'quantile');
  return quantileOf(a, 0.5, [], false, o.axis ?? null, 'midpoint', Boolean(o.keepdims), false, false);
}
/** jnp.nanmedian(a, {axis, keepdims}): the median of the numbers that are not NaN (NaN where all are). */
export function nanmedian(a, opts) {
  const o = optionsOf('nanmedian', opts, MEDIAN_OPTIONS, 'nanquantile');
  return quantileOf(a, 0.5, [], false, o.axis ?? null, 'midpoint', Boolean(o.keepdims), true, false);
}
