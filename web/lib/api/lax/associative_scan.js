// jax.lax.associative_scan: every prefix combination of an associative
// function along an axis in O(log n) rounds of whole-array operations, by
// Blelloch's recursion (combine neighbouring pairs, scan the pairs, which
// gives the prefixes at odd positions, then combine each with the next
// element for the even ones), as JAX computes it, so the values (and the
// order in which the function combines them) are JAX's.

import { ShapeError, ValueError } from '../../errors.js';
import { avalOf } from '../core/operands.js';
import { isLeafValue } from '../core/run.js';
import { currentTrace } from '../core/state.js';
import { describe, flatten, unflatten } from '../core/tree.js';
import { normAxis } from '../numpy/helpers.js';
import { logicalOr } from '../numpy/bitwise.js';
import { add, concatenate } from '../numpy/math.js';
import { eagerly } from '../transforms.js';
import { flip } from '../numpy/indexing.js';
import { pad, sliceInDim } from './slicing.js';

const FN = 'lax.associative_scan';

// a and b (a one longer along `axis`, or as long) interleaved along it: a[0], b[0], a[1], ...
function interleave(a, b, axis) {
  const same = a.shape[axis] === b.shape[axis];
  const spread = (x, lo, hi) => pad(x, 0, x.shape.map((_, d) => (d === axis ? [lo, hi, 1] : [0, 0, 0])));
  const join = a.dtype === 'bool' ? logicalOr : add;
  return join(spread(a, 0, same ? 1 : 0), spread(b, 1, same ? 0 : 1));
}

// The prefix combinations of the flat leaves `xs` along `axis`.
function prefixes(xs, combine, axis) {
  const n = xs[0].shape[axis];
  if (n < 2) return xs;
  const part = (list, from, to, stride) => list.map((x) => sliceInDim(x, from, to, stride, axis));
  // The prefixes at the odd positions: those of the neighbouring pairs' combinations.
  const odd = prefixes(combine(part(xs, 0, n - 1, 2), part(xs, 1, n, 2)), combine, axis);
  // At the even positions after the first: the odd prefix before each, combined with its element.
  const before = n % 2 === 0 ? odd.map((o) => sliceInDim(o, 0, o.shape[axis] - 1, 1, axis)) : odd;
  const even = combine(before, part(xs, 2, n, 2)).map((e, i) => concatenate([sliceInDim(xs[i], 0, 1, 1, axis), e], axis));
  return even.map((e, i) => interleave(e, odd[i], axis));
}

/**
 * jax.lax.associative_scan(fn, elems, {reverse, axis}): for elems (a tree of
 * arrays, each of size n along `axis`) the tree whose k-th entry along the
 * axis is fn's combination of entries 0..k, [a, fn(a, b), fn(fn(a, b), c),
 * ...] (with reverse, of entries k..n-1 from the end). fn(a, b) takes and
 * returns trees like elems, applied elementwise over the axis, and must be
 * associative: it is evaluated in O(log n) rounds, not n steps.
 */
export function associativeScan(fn, elems, { reverse = false, axis = 0 } = {}) {
  if (typeof fn !== 'function') throw new ShapeError('lax.associative_scan: fn argument should be callable.');
  if (!currentTrace()) return eagerly(FN, (e) => associativeScan(fn, e, { reverse, axis }), [elems]);
  const { leaves, def } = flatten(elems, isLeafValue);
  if (leaves.length === 0) return elems;
  const avals = leaves.map((x) => avalOf(x, FN));
  const d = normAxis(axis, avals[0].shape.length, FN);
  const sizes = avals.map((a) => a.shape[d]);
  if (avals.some((a) => a.shape.length !== avals[0].shape.length) || sizes.some((s) => s !== sizes[0])) {
    throw new ValueError(`Array inputs to associative_scan must have the same first dimension. (saw: [${avals.map((a) => `(${a.shape.join(', ')})`).join(', ')}])`);
  }
  const combine = (a, b) => {
    const out = flatten(fn(unflatten(def, a), unflatten(def, b)), isLeafValue);
    if (describe(out.def) !== describe(def)) {
      throw new ValueError(`${FN}: fn must return the structure of elems, ${describe(def)}, got ${describe(out.def)}`);
    }
    return out.leaves;
  };
  const flipped = (xs) => (reverse ? xs.map((x) => flip(x, d)) : xs);
  return unflatten(def, flipped(prefixes(flipped(leaves), combine, d)));
}
