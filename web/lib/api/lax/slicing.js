// jax.lax's slicing helpers along one axis, and its pad, reshape,
// broadcast, stack and tile: each written from the primitives as jax.lax writes it.

import { IndexError, ShapeError, ValueError } from '../../errors.js';
import { defop } from '../core/op.js';
import { avalOf, literalTracer, traced, traceFor } from '../core/operands.js';
import { quote } from '../core/shape.js';
import { asDtype, normAxis } from '../numpy/helpers.js';
import { concatenate as npConcatenate, expandDims, reshape as npReshape, squeeze, transpose } from '../numpy/math.js';

const valueOf = (x, fn) => traced(traceFor(fn), x, fn);
// A weakly typed update (a Python or JS scalar's) in the operand's dtype, as JAX converts one.
const weakAs = (u, dtype) => (u.weakType && u.dtype !== dtype ? asDtype(u, dtype, false) : u);
// A start index as dynamic_slice takes it: a number as an int32 literal, a traced scalar as it is.
const indexOf = (i, fn) => (typeof i === 'number' ? literalTracer(traceFor(fn), i, 'int32') : valueOf(i, fn));

/** jax.lax.pad(x, paddingValue, config): config is [[lo, hi, interior], ...]. */
export const pad = defop('lax.pad', 1, (x, value, config) => {
  const t = traceFor('lax.pad');
  const v = traced(t, x, 'lax.pad');
  return t.emit('pad', { padding_config: config }, [v.atomIn(t), literalTracer(t, value, v.dtype).atomIn(t)])[0];
});

/** jax.lax.slice_in_dim(x, start, limit, stride, axis): elements [start, limit) of `axis` (negative from the end; null for the ends). */
export const sliceInDim = defop('lax.sliceInDim', 1, (x, start = 0, limit = null, stride = 1, axis = 0) => {
  const v = valueOf(x, 'lax.slice_in_dim');
  const d = normAxis(axis, v.ndim, 'lax.slice_in_dim');
  const n = v.shape[d];
  const lo = start === null ? 0 : start < 0 ? start + n : start;
  const hi = limit === null ? n : limit < 0 ? limit + n : limit;
  return traceFor('lax.sliceInDim').emit('slice', {
    start_indices: v.shape.map((_, i) => (i === d ? lo : 0)),
    limit_indices: v.shape.map((s, i) => (i === d ? hi : s)),
    strides: stride === 1 ? [] : v.shape.map((_, i) => (i === d ? stride : 1)),
  }, [v.atomIn(traceFor('lax.sliceInDim'))])[0];
});

/** jax.lax.index_in_dim(x, index, axis, keepdims): element `index` of `axis` (negative from the end), the axis kept with keepdims (true). */
export const indexInDim = defop('lax.indexInDim', 1, (x, index, axis = 0, keepdims = true) => {
  const v = valueOf(x, 'lax.index_in_dim');
  const d = normAxis(axis, v.ndim, 'lax.index_in_dim');
  const n = v.shape[d];
  const i = index < 0 ? index + n : index;
  if (!Number.isInteger(index) || i < 0 || i >= n) throw new IndexError(`lax.index_in_dim: index ${quote(index)} is out of bounds for axis ${d} with size ${n}`);
  const s = sliceInDim(v, i, i + 1, 1, d);
  return keepdims ? s : squeeze(s, d);
});

/** jax.lax.dynamic_slice_in_dim(x, start, size, axis): `size` elements of `axis` from `start` (traced or not; clamped into range). */
export const dynamicSliceInDim = defop('lax.dynamicSliceInDim', 2, (x, start, size, axis = 0) => {
  const v = valueOf(x, 'lax.dynamic_slice_in_dim');
  const d = normAxis(axis, v.ndim, 'lax.dynamic_slice_in_dim');
  const t = traceFor('lax.dynamicSliceInDim');
  const starts = v.shape.map((_, i) => (i === d ? indexOf(start, 'lax.dynamic_slice_in_dim') : literalTracer(t, 0, 'int32')));
  return t.emit('dynamic_slice', { slice_sizes: v.shape.map((s, i) => (i === d ? size : s)) }, [v, ...starts].map((a) => a.atomIn(t)))[0];
});

/** jax.lax.dynamic_index_in_dim(x, index, axis, keepdims): element `index` (traced or not, clamped) of `axis`. */
export const dynamicIndexInDim = defop('lax.dynamicIndexInDim', 2, (x, index, axis = 0, keepdims = true) => {
  const v = valueOf(x, 'lax.dynamic_index_in_dim');
  const d = normAxis(axis, v.ndim, 'lax.dynamic_index_in_dim');
  const s = dynamicSliceInDim(v, index, 1, d);
  return keepdims ? s : squeeze(s, d);
});

/** jax.lax.dynamic_update_slice_in_dim(x, update, start, axis): update written into x from `start` of `axis` (clamped so it fits). */
export const dynamicUpdateSliceInDim = defop('lax.dynamicUpdateSliceInDim', 3, (x, update, start, axis) => {
  const v = valueOf(x, 'lax.dynamic_update_slice_in_dim');
  const d = normAxis(axis, v.ndim, 'lax.dynamic_update_slice_in_dim');
  const t = traceFor('lax.dynamicUpdateSliceInDim');
  const starts = v.shape.map((_, i) => (i === d ? indexOf(start, 'lax.dynamic_update_slice_in_dim') : literalTracer(t, 0, 'int32')));
  const u = weakAs(valueOf(update, 'lax.dynamic_update_slice_in_dim'), v.dtype);
  return t.emit('dynamic_update_slice', {}, [v, u, ...starts].map((a) => a.atomIn(t)))[0];
});

/** jax.lax.dynamic_update_index_in_dim(x, update, index, axis): update (with or without `axis`) written at `index` of `axis`. */
export const dynamicUpdateIndexInDim = defop('lax.dynamicUpdateIndexInDim', 3, (x, update, index, axis) => {
  const v = valueOf(x, 'lax.dynamic_update_index_in_dim');
  const d = normAxis(axis, v.ndim, 'lax.dynamic_update_index_in_dim');
  let u = valueOf(update, 'lax.dynamic_update_index_in_dim');
  if (u.ndim === v.ndim - 1) u = expandDims(u, d);
  return dynamicUpdateSliceInDim(v, u, index, d);
});

/** jax.lax.reshape(x, newSizes, dimensions): x's elements in `newSizes`, read in the order `dimensions` (a permutation) when given. */
export const reshape = defop('lax.reshape', 1, (x, newSizes, dimensions = null) => {
  const v = valueOf(x, 'lax.reshape');
  return npReshape(dimensions === null ? v : transpose(v, dimensions), newSizes);
});

/** jax.lax.broadcast(x, sizes): x repeated along new leading dimensions of `sizes`. */
export const broadcast = defop('lax.broadcast', 1, (x, sizes) => {
  const v = valueOf(x, 'lax.broadcast');
  if (!Array.isArray(sizes)) throw new ValueError(`lax.broadcast: sizes must be a list of dimensions, got ${quote(sizes)}`);
  const t = traceFor('lax.broadcast');
  return t.emit('broadcast_in_dim', { shape: [...sizes, ...v.shape], broadcast_dimensions: v.shape.map((_, i) => sizes.length + i) }, [v.atomIn(t)])[0];
});

/** jax.lax.stack(arrays, axis): the arrays joined along a new `axis` (0). */
export const stack = defop('lax.stack', 1, (arrays, axis = 0) => {
  if (!Array.isArray(arrays) || !arrays.length) throw new ValueError('lax.stack: give a non-empty list of arrays');
  return npConcatenate(arrays.map((a) => expandDims(a, axis)), axis);
});

/** jax.lax.tile(x, reps): x repeated reps[i] times along axis i (x's shape led by 1s when reps is longer). */
export const tile = defop('lax.tile', 1, (x, reps) => {
  let v = valueOf(x, 'lax.tile');
  if (!Array.isArray(reps) || reps.some((r) => !Number.isInteger(r) || r < 0)) throw new ValueError(`lax.tile: reps must be a list of non-negative integers, got ${quote(reps)}`);
  if (reps.length < v.ndim) throw new ValueError(`lax.tile: reps has ${reps.length} entries for an array of rank ${v.ndim}; give one per dimension`);
  if (reps.length > v.ndim) v = npReshape(v, [...Array(reps.length - v.ndim).fill(1), ...v.shape]);
  // [r0, s0, r1, s1, ...]: each dimension of x repeated along the one before it, then merged.
  const t = traceFor('lax.tile');
  const spread = v.shape.flatMap((n, i) => [reps[i], n]);
  const wide = t.emit('broadcast_in_dim', { shape: spread, broadcast_dimensions: v.shape.map((_, i) => 2 * i + 1) }, [v.atomIn(t)])[0];
  return npReshape(wide, v.shape.map((n, i) => n * reps[i]));
});

/**
 * jax.lax.concatenate(operands, dimension): the operands joined along
 * `dimension`; of one dtype, as lax does not promote (JAX's TypeError otherwise).
 */
export function concatenate(operands, dimension) {
  if (!Array.isArray(operands) || operands.length === 0) throw new ValueError('concatenate requires a non-empty sequences of arrays');
  const dtypes = operands.map((x) => avalOf(x, 'lax.concatenate').dtype);
  if (dtypes.some((d) => d !== dtypes[0])) {
    throw new ShapeError(
      `lax.concatenate requires arguments to have the same dtypes, got ${dtypes.join(', ')}. (Tip: jnp.concatenate is a similar function that does automatic type promotion on inputs).`,
    );
  }
  return npConcatenate(operands, dimension);
}

