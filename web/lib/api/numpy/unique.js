// jnp.unique: the sorted distinct elements (or rows, along an axis), as JAX
// finds them: a stable sort (of every column as a key, for rows), a mask of
// where each run of equal keys starts, and the runs' first elements. The
// number of distinct elements fixes the result's shape, so it is read from
// a concrete array, or given as `size` (a traced array needs it, as JAX's).

import { ConcretizationError, ValueError } from '../../errors.js';
import { concreteValues } from '../core/array.js';
import { defop } from '../core/op.js';
import { avalOf, traced, traceFor } from '../core/operands.js';
import { isTracer } from '../core/tracer.js';
import { logicalAnd, logicalNot, logicalOr } from './bitwise.js';
import { asDtype, emitHere, selectWhere as where } from './helpers.js';
import { take } from './indexing.js';
import { moveaxis } from './matrices.js';
import { concatenate, cumsum, full, isnan, less, notEqual, reshape, subtract } from './math.js';
import { nonzero } from './nonzero.js';
import { updateItem } from '../indexing.js';
import { isFloat } from '../../dtypes.js';

// The rows to find distinct ones among ([n] elements, or [n, m] rows along `axis`), and how they sort: the sorted
// key columns, the permutation that sorts them, and where each run of equal rows starts (equal NaNs one run with equalNan).
function runs(ar, axis, equalNan, fn) {
  const t = traceFor(fn);
  let v = traced(t, ar, fn);
  v = axis === null ? reshape(v, [v.size]) : moveaxis(v, axis, 0);
  const rows = axis === null ? v : reshape(v, [v.shape[0], v.size / Math.max(v.shape[0], 1)]);
  const n = rows.shape[0];
  const keys = axis === null ? [rows] : Array.from({ length: rows.shape[1] }, (_, j) => reshape(take(rows, [j], { axis: 1 }), [n]));
  const order = t.emit('iota', { dtype: 'int32', shape: [n], dimension: 0 }, [])[0];
  const out = t.emit('sort', { dimension: 0, is_stable: true, num_keys: keys.length }, [...keys, order].map((k) => k.atomIn(t)));
  const sortedKeys = out.slice(0, keys.length);
  const perm = out[keys.length];
  const shift = (k) => concatenate([take(k, [0]), take(k, Array.from({ length: Math.max(n - 1, 0) }, (_, i) => i))]);
  let differs = null;
  for (const k of sortedKeys) {
    const prev = shift(k);
    let d = notEqual(k, prev);
    if (equalNan && isFloat(k.dtype)) d = logicalAnd(d, logicalNot(logicalAnd(isnan(k), isnan(prev))));
    differs = differs === null ? d : logicalOr(differs, d);
  }
  const first = emitHere(fn, 'iota', { dtype: 'int32', shape: [n], dimension: 0 }, []);
  const starts = logicalOr(differs ?? notEqual(first, first), less(first, 1));
  return { v, n, perm, starts, sortedRows: take(v, perm, { axis: 0 }) };
}

// The number of distinct elements (or rows along `axis`) of a concrete array, from its values on the host.
function countOf(ar, shape, axis, equalNan) {
  const values = concreteValues(ar, 'np.unique');
  if (axis === null) return new Set(values.map((v) => (Number.isNaN(v) && !equalNan ? Symbol('nan') : v))).size;
  const d = axis < 0 ? axis + shape.length : axis;
  const strides = shape.map((_, i) => shape.slice(i + 1).reduce((a, b) => a * b, 1));
  const rows = new Map();
  values.forEach((v, flat) => {
    const r = Math.floor(flat / strides[d]) % shape[d];
    rows.set(r, [...(rows.get(r) ?? []), Number.isNaN(v) && !equalNan ? `nan${flat}` : String(v)]);
  });
  return new Set([...rows.values()].map((row) => row.join(','))).size;
}

/**
 * np.unique(ar, {returnIndex, returnInverse, returnCounts, axis, equalNan,
 * size, fillValue}): the sorted distinct elements of the flattened array (or
 * rows along `axis`); with the returns asked for, [values, index of each's
 * first occurrence, inverse (each element's value's index), counts]. With
 * size, `size` values, the missing ones fillValue (the smallest by default).
 */
export function unique(ar, { returnIndex = false, returnInverse = false, returnCounts = false, axis = null, equalNan = true, size = null, fillValue = null, sorted = true } = {}) {
  if (!sorted) throw new ValueError('np.unique: sorted=False is not supported (the values come sorted)');
  if (size !== null && (!Number.isInteger(size) || size < 0)) throw new ValueError(`np.unique: size must be a non-negative integer or null, got ${size}`);
  const { shape } = avalOf(ar, 'np.unique');
  if (axis !== null && (!Number.isInteger(axis) || axis < -shape.length || axis >= shape.length)) {
    throw new ValueError(`np.unique: axis ${axis} is out of range for an array of rank ${shape.length}`);
  }
  let count = size;
  if (count === null) {
    if (isTracer(ar)) {
      throw new ConcretizationError(
        `Abstract tracer value encountered where concrete value is expected: traced array with shape ${avalOf(ar).dtype}[${shape.join(',')}]\n` +
          'The size argument of jnp.unique must be statically specified to use jnp.unique within JAX transformations.',
      );
    }
    count = countOf(ar, shape, axis, equalNan);
  }
  const outs = uniqueOf(ar, fillValue ?? [], fillValue !== null, count, size !== null, axis, equalNan, [returnIndex, returnInverse, returnCounts]);
  return outs.length === 1 ? outs[0] : outs;
}

const uniqueOf = defop('unique', 2, (ar, fillValue, hasFill, count, padded, axis, equalNan, [returnIndex, returnInverse, returnCounts]) => {
  const { v, n, perm, starts, sortedRows } = runs(ar, axis, equalNan, 'np.unique');
  // The start of each run, the first `count` of them (past the last run: n).
  const [at] = nonzero(starts, { size: count, fillValue: n });
  const kept = less(at, n);
  let values = take(sortedRows, where(kept, at, 0), { axis: 0 });
  if (padded) {
    const fill = hasFill ? asDtype(traced(traceFor('unique'), fillValue, 'np.unique'), v.dtype, false) : take(sortedRows, [0], { axis: 0 });
    const mask = reshape(kept, [count, ...values.shape.slice(1).map(() => 1)]);
    values = where(mask, values, hasFill ? fill : reshape(fill, values.shape.slice(1).length ? [1, ...values.shape.slice(1)] : []));
  }
  if (axis !== null) values = moveaxis(values, 0, axis);
  const outs = [values];
  if (returnIndex) outs.push(take(perm, where(kept, at, 0)));
  if (returnInverse) {
    const inSorted = subtract(cumsum(asDtype(starts, 'int32')), 1);
    const inverse = updateItem('set', full([n], 0, 'int32'), [perm], inSorted);
    outs.push(axis === null ? reshape(inverse, avalOf(ar).shape) : inverse);
  }
  if (returnCounts) {
    // Each run's length: the next run's start (n past the last) minus its own, over count + 1 starts.
    const [bounds] = nonzero(starts, { size: count + 1, fillValue: n });
    outs.push(subtract(take(bounds, Array.from({ length: count }, (_, i) => i + 1)), at));
  }
  return outs;
});
