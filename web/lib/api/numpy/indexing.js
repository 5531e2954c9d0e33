// numpy's indexing functions over x.at(...): take, take_along_axis and flip
// (re-exported by np.js).

import { ShapeError } from '../../errors.js';
import { getItem, modeOf, Slice } from '../indexing.js';
import { normAxis } from './helpers.js';
import { reshape } from './math.js';
import { defop } from '../core/op.js';
import { avalOf, traced, traceFor } from '../core/operands.js';

const all = () => new Slice(null, null, null);

/**
 * np.take(a, indices, {axis, mode, fillValue}): the elements of `a` at
 * `indices` along `axis` (of the flattened array when null). Out-of-bounds
 * indices give fillValue (NaN for floats) by default, as jnp.take's mode
 * 'fill'; 'clip' clamps them.
 */
export function take(a, indices, { axis = null, mode = 'fill', fillValue } = {}) {
  modeOf(mode, 'fill', 'np.take');
  const { shape } = avalOf(a, 'np.take');
  const x = axis === null ? reshape(a, [-1]) : a;
  const ax = axis === null ? 0 : normAxis(axis, shape.length, 'np.take');
  return getItem(x, [...Array.from({ length: ax }, all), indices], { mode, fillValue });
}

// The positions 0..n-1 along dimension `dim` of a rank-`rank` array, the other dimensions of size 1.
function positions(n, dim, rank) {
  const build = (d, i) => (d === rank ? i : Array.from({ length: d === dim ? n : 1 }, (_, k) => build(d + 1, d === dim ? k : i)));
  return build(0, 0);
}

/**
 * np.takeAlongAxis(arr, indices, axis, {mode, fillValue}): arr's elements at
 * `indices` along `axis`, the other dimensions matched position by position
 * (indices has arr's rank; its other dimensions broadcast against arr's).
 * Out of bounds: fillValue (NaN for floats) by default, as JAX's mode 'fill'.
 */
export function takeAlongAxis(arr, indices, axis, { mode = 'fill', fillValue } = {}) {
  const fn = 'np.takeAlongAxis';
  modeOf(mode, 'fill', fn);
  const { shape } = avalOf(arr, fn);
  const ishape = avalOf(indices, fn).shape;
  if (axis === null) return take(arr, indices, { mode, fillValue });
  if (ishape.length !== shape.length) {
    throw new ShapeError(`${fn}: indices [${ishape}] must have the rank of arr [${shape}] (${shape.length})`);
  }
  const ax = normAxis(axis, shape.length, fn);
  const index = shape.map((n, d) => (d === ax ? indices : positions(n, d, shape.length)));
  return getItem(arr, index, { mode, fillValue });
}

/** np.flip(x, axis): x reversed along `axis` (an integer, a list, or every axis when null): rev. */
export const flip = defop('flip', 1, (x, axis = null) => {
  const t = traceFor('flip');
  const v = traced(t, x, 'np.flip');
  const axes = axis === null ? v.shape.map((_, d) => d) : (Array.isArray(axis) ? axis : [axis]).map((a) => normAxis(a, v.ndim, 'np.flip'));
  if (!axes.length) return v;
  return t.emit('rev', { dimensions: axes }, [v.atomIn(t)])[0];
});
