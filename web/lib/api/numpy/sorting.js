// np.sort and np.argsort: the sort primitive along one axis (re-exported by np.js).

import { ValueError } from '../../errors.js';
import { normAxis } from './helpers.js';
import { reshape, subtract } from './math.js';
import { flip } from './indexing.js';
import { defop } from '../core/op.js';
import { traced, traceFor } from '../core/operands.js';

// The operand flattened (axis null) or as it is, and the axis to sort along.
function along(name, x, axis) {
  const v = traced(traceFor(name), x, `np.${name}`);
  if (axis === null) return { v: reshape(v, [v.size]), d: 0 };
  return { v, d: normAxis(axis, v.ndim, `np.${name}`) };
}

function sortPrim(name, operands, d) {
  const t = traceFor(name);
  return t.emit('sort', { dimension: d, is_stable: true, num_keys: 1 }, operands.map((o) => o.atomIn(t)));
}

function checkOpts(name, { stable = true, kind } = {}) {
  if (kind !== undefined && kind !== null) throw new ValueError(`np.${name}: the 'kind' argument is not supported; use stable (true by default)`);
  if (typeof stable !== 'boolean') throw new ValueError(`np.${name}: stable must be true or false`);
}

/** np.sort(x, {axis = -1, descending, stable}): sorted along `axis` (flattened when null); NaNs last. */
export const sort = defop('sort', 1, (x, opts = {}) => {
  checkOpts('sort', opts);
  const { v, d } = along('sort', x, opts.axis === undefined ? -1 : opts.axis);
  const [sorted] = sortPrim('sort', [v], d);
  return opts.descending ? flip(sorted, d) : sorted;
});

/**
 * np.argsort(x, {axis = -1, descending, stable}): the int32 positions that
 * sort x along `axis`; equal elements keep their order (also descending: the
 * earlier of two equal elements comes first).
 */
export const argsort = defop('argsort', 1, (x, opts = {}) => {
  checkOpts('argsort', opts);
  const { v, d } = along('argsort', x, opts.axis === undefined ? -1 : opts.axis);
  const t = traceFor('argsort');
  const positions = t.emit('iota', { dtype: 'int32', shape: v.shape, dimension: d }, [])[0];
  if (!opts.descending) return sortPrim('argsort', [v, positions], d)[1];
  // Stable descending: sort the reversed array, map positions back, reverse.
  const [, order] = sortPrim('argsort', [flip(v, d), positions], d);
  return flip(subtract(v.shape[d] - 1, order), d);
});
