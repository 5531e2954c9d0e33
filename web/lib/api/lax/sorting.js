// jax.lax.top_k: the k largest elements along the last axis, as a stable
// descending argsort cut to k (XLA's TopK orders equal elements by position);
// jax.lax.sort and sort_key_val: the core's sort primitive with JAX's checks.

import { ConcretizationError, ShapeError, ValueError } from '../../errors.js';
import { defop } from '../core/op.js';
import { avalOf, traced, traceFor } from '../core/operands.js';
import { isTracer } from '../core/tracer.js';
import { takeAlongAxis } from '../numpy/indexing.js';
import { argsort } from '../numpy/sorting.js';
import { sliceInDim } from './slicing.js';
import { pyTuple } from '../core/python_text.js';

/** lax.top_k(operand, k): the k largest elements along the last axis, largest first, and their int32 positions (the earlier of equal elements first). */
export const topK = defop('topK', 1, (operand, k) => {
  const v = traced(traceFor('topK'), operand, 'lax.top_k');
  if (v.ndim === 0) throw new ValueError('lax.top_k: operand must have at least one dimension, got a scalar');
  const n = v.shape[v.ndim - 1];
  if (!Number.isInteger(k) || k < 0 || k > n) throw new ValueError(`lax.top_k: k must be an integer between 0 and the last dimension (${n}), got ${k}`);
  const order = sliceInDim(argsort(v, { axis: -1, descending: true }), 0, k, 1, v.ndim - 1);
  return [takeAlongAxis(v, order, -1), order];
});

// Python's str of a shape: (3,), (2, 3), ().

/** JAX's canonicalize_axis: `axis` in [-ndim, ndim) as a position in [0, ndim), with JAX's errors otherwise. */
export function canonicalizeAxis(axis, ndim, fn) {
  if (isTracer(axis)) throw new ConcretizationError(`${fn}: the axis is the traced value ${axis}, but it must be known while tracing: pass an integer`);
  if (!Number.isInteger(axis)) throw new ShapeError(`'${typeof axis === 'number' ? 'float' : typeof axis}' object cannot be interpreted as an integer`);
  if (axis < -ndim || axis >= ndim) throw new ValueError(`axis ${axis} is out of bounds for array of dimension ${ndim}`);
  return axis < 0 ? axis + ndim : axis;
}

// sort_p.bind: the operands sorted together along `dimension` (already
// canonical) by their first numKeys; JAX's shape check (its abstract eval's
// TypeError) before the core's. The core's sort is always stable and puts
// -0 before +0, which JAX's comparator ties (keeping their order): only the
// sign of a zero can come out elsewhere.
const sortBind = defop('lax.sort', 1, (operands, dimension, isStable, numKeys) => {
  const t = traceFor('lax.sort');
  const vs = operands.map((x) => traced(t, x, 'lax.sort'));
  if (vs.some((v) => v.shape.length !== vs[0].shape.length || v.shape.some((n, i) => n !== vs[0].shape[i]))) {
    throw new ShapeError(`Arguments to sort must have equal shapes, got: ${vs.map((v) => pyTuple(v.shape)).join(' ')}`);
  }
  return t.emit('sort', { dimension, is_stable: Boolean(isStable), num_keys: numKeys }, vs.map((v) => v.atomIn(t)));
});

/** jax.lax.sort(operand, {dimension = -1, isStable = true, numKeys = 1}): an array sorted along `dimension`, or a list of arrays (one shape) permuted together by their first numKeys, lexicographically (a list back); NaN last. */
export function sort(operand, { dimension = -1, isStable = true, numKeys = 1 } = {}) {
  if (Array.isArray(operand)) {
    if (operand.length === 0) throw new ShapeError('Sort requires at least one operand');
    if (!(numKeys >= 1 && numKeys <= operand.length)) throw new ValueError(`num_keys=${numKeys} must be between 1 and len(operand)=${operand.length}`);
    const d = canonicalizeAxis(dimension, avalOf(operand[0], 'lax.sort').shape.length, 'lax.sort');
    return sortBind(operand, d, isStable, numKeys);
  }
  if (numKeys !== 1) throw new ValueError(`num_keys=${numKeys} must equal 1 for a single operand.`);
  const d = canonicalizeAxis(dimension, avalOf(operand, 'lax.sort').shape.length, 'lax.sort');
  return sortBind([operand], d, isStable, 1)[0];
}

/** jax.lax.sort_key_val(keys, values, {dimension = -1, isStable = true}): keys sorted along `dimension` and values permuted with them, [keys, values]. */
export function sortKeyVal(keys, values, { dimension = -1, isStable = true } = {}) {
  const d = canonicalizeAxis(dimension, avalOf(keys, 'lax.sort_key_val').shape.length, 'lax.sort_key_val');
  return sortBind([keys, values], d, isStable, 1);
}
