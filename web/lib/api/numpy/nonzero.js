// np.nonzero (and np.where with one argument): the positions of the nonzero
// elements. Their number is the result's shape, so a traced array needs
// `size` (JAX's rule); with it, each position is scattered to its rank among
// the nonzero elements, the rest filled with fillValue.

import { ConcretizationError, ValueError } from '../../errors.js';
import { updateItem } from '../indexing.js';
import { concreteValues } from '../core/array.js';
import { asDtype, selectWhere } from './helpers.js';
import { add, cumsum, full, multiply, notEqual, reshape, stack, subtract, zeros } from './math.js';

const multiplyBy = (c, k) => (k === 1 ? c : multiply(c, k));
const addTo = (a, b) => add(a, b);
import { avalOf, traced, traceFor } from '../core/operands.js';
import { staticKey } from '../core/op.js';
import { runEager } from '../core/run.js';
import { currentTrace } from '../core/state.js';
import { isTracer } from '../core/tracer.js';

function positions(a, size, fillValue) {
  const t = traceFor('nonzero');
  const v = traced(t, a, 'np.nonzero');
  const mask = reshape(notEqual(v, 0), [v.size]);
  // The k-th nonzero element goes to slot k; the others to slot `size` (out of bounds: dropped).
  const rank = subtract(cumsum(asDtype(mask, 'int32')), 1);
  const outside = t.emit('broadcast_in_dim', { shape: [v.size], broadcast_dimensions: [] }, [traced(t, size, 'np.nonzero').atomIn(t)])[0];
  const slot = t.emit('select_n', {}, [mask, outside, rank].map((x) => x.atomIn(t)))[0];
  const shape = v.shape;
  return shape.map((_, d) => {
    const coord = reshape(t.emit('iota', { dtype: 'int32', shape, dimension: d }, [])[0], [v.size]);
    return updateItem('set', full([size], fillValue, 'int32'), [slot], coord, { mode: 'drop' });
  });
}

/**
 * np.nonzero(a, {size, fillValue}): one int32 array per dimension holding the
 * positions of a's nonzero elements, in row-major order. A traced `a` needs
 * `size` (the result's length: extra slots hold fillValue, 0 by default;
 * positions beyond it are dropped), as in JAX.
 */
export function nonzero(a, opts = {}) {
  let size = opts.size ?? null;
  const fillValue = opts.fillValue ?? 0;
  if (size !== null && (!Number.isInteger(size) || size < 0)) throw new ValueError(`np.nonzero: size must be a non-negative integer or null, got ${size}`);
  const { dtype, shape } = avalOf(a, 'np.nonzero');
  if (!shape.length) throw new ValueError('np.nonzero: calling nonzero on 0d arrays is not allowed; use np.atleast1d(x) or reshape it to [1]');
  if (size === null) {
    if (isTracer(a)) {
      throw new ConcretizationError(
        `Abstract tracer value encountered where concrete value is expected: traced array with shape ${dtype}[${shape.join(',')}]\n` +
          'The size argument of jnp.nonzero must be statically specified to use jnp.nonzero within JAX transformations.',
      );
    }
    size = concreteValues(a, 'np.nonzero').filter((x) => x).length;
  }
  if (currentTrace()) return positions(a, size, fillValue);
  return runEager(`nonzero|${staticKey([size, fillValue])}`, (x) => positions(x, size, fillValue), [a]);
}

/**
 * np.where(cond, x, y): x where cond is true, else y (select_n, broadcast).
 * np.where(cond) alone is np.nonzero(cond).
 */
export function where(c, x, y, opts) {
  if (x === undefined && y === undefined) return nonzero(c, opts);
  if (x === undefined || y === undefined) {
    throw new ValueError('np.where: either both or neither of the x and y arguments should be provided');
  }
  return selectWhere(c, x, y);
}

/** np.argwhere(a, {size, fillValue}): the indices of a's nonzero elements, one row per element ([count, ndim]; a scalar's: [count, 0]). */
export function argwhere(a, opts = {}) {
  if (avalOf(a, 'np.argwhere').shape.length) return stack(nonzero(a, opts), 1);
  // A scalar: one row per nonzero (0 or 1, or `size`), of no columns.
  const rows = opts.size ?? (isTracer(a) ? nonzero(reshape(a, [1]))[0].shape[0] : concreteValues(a, 'np.argwhere')[0] !== 0 ? 1 : 0);
  return zeros([rows, 0], 'int32');
}

/** np.flatnonzero(a, {size, fillValue}): the positions of a's nonzero elements in the flattened array. */
export function flatnonzero(a, opts = {}) {
  const { shape } = avalOf(a, 'np.flatnonzero');
  if (!shape.length) return argwhere(a, opts).shape[0] ? full([1], 0, 'int32') : zeros([0], 'int32');
  const cols = nonzero(a, opts);
  const strides = shape.map((_, i) => shape.slice(i + 1).reduce((x, y) => x * y, 1));
  return cols.reduce((flat, c, d) => (flat === null ? multiplyBy(c, strides[d]) : addTo(flat, multiplyBy(c, strides[d]))), null);
}
