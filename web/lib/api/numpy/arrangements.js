// jnp's functions that rearrange, join or difference arrays, written as JAX
// writes them from reshapes, slices, flips, transposes and concatenations:
// atleast_1d/2d/3d, ravel, column_stack, dstack, fliplr, flipud, rot90,
// permute_dims, unstack, concat, append, diff, ediff1d, meshgrid,
// array_equal and array_equiv.

import { ShapeError, ValueError } from '../../errors.js';
import { defop } from '../core/op.js';
import { broadcastShapes, literalTracer, traced, traceFor } from '../core/operands.js';
import { quote } from '../core/shape.js';
import { asDtype, emitHere, normAxis, sequenceOf, sliceAlong } from './helpers.js';
import { flip } from './indexing.js';
import { all, broadcastTo, concatenate, equal, isnan, notEqual, reshape, subtract, transpose } from './math.js';
import { logicalAnd, logicalOr } from './bitwise.js';

const valueOf = (x, fn) => traced(traceFor(fn), x, fn);

// atleast_Nd: each array with at least `rank` dimensions (`grow` says how a smaller one is reshaped); one array alone, else a list.
function atleast(name, rank, grow) {
  const op = defop(name, 1, (arys) => arys.map((x) => {
    const v = valueOf(x, `np.atleast_${rank}d`);
    return grow(v) ?? v;
  }));
  return (...arys) => {
    const outs = op(arys);
    return outs.length === 1 ? outs[0] : outs;
  };
}
/** jnp.atleast_1d(*arys): a scalar as shape (1,). */
export const atleast1d = atleast('atleast1d', 1, (v) => (v.ndim === 0 ? reshape(v, [1]) : null));
/** jnp.atleast_2d(*arys): a scalar as (1, 1), a vector (N,) as (1, N). */
export const atleast2d = atleast('atleast2d', 2, (v) => (v.ndim === 0 ? reshape(v, [1, 1]) : v.ndim === 1 ? reshape(v, [1, v.shape[0]]) : null));
/** jnp.atleast_3d(*arys): a scalar as (1, 1, 1), (N,) as (1, N, 1), (M, N) as (M, N, 1). */
export const atleast3d = atleast('atleast3d', 3, (v) =>
  v.ndim === 0 ? reshape(v, [1, 1, 1]) : v.ndim === 1 ? reshape(v, [1, v.shape[0], 1]) : v.ndim === 2 ? reshape(v, [...v.shape, 1]) : null,
);

/** jnp.ravel(a, order): the elements in a vector, row-major ('C') or column-major ('F'). */
export const ravel = defop('ravel', 1, (a, order = 'C') => {
  if (order !== 'C' && order !== 'F') throw new ValueError(`np.ravel: order is ${quote(order)}; give 'C' or 'F' ('A' and 'K' are not supported)`);
  const v = valueOf(a, 'np.ravel');
  return reshape(order === 'F' ? transpose(v) : v, [v.size]);
});

/** jnp.column_stack(tup): 1-d arrays (and scalars) as columns, joined along axis 1. */
export const columnStack = defop('columnStack', 1, (tup) =>
  concatenate(sequenceOf(tup, 'np.column_stack').map((x) => {
    const v = valueOf(x, 'np.column_stack');
    return v.ndim < 2 ? transpose(atleast2d(v)) : v;
  }), 1),
);

/** jnp.dstack(tup): arrays made at least 3-d, joined along axis 2. */
export const dstack = defop('dstack', 1, (tup) => concatenate(sequenceOf(tup, 'np.dstack').map((x) => atleast3d(x)), 2));

// fliplr and flipud: need at least `rank` dimensions, flip axis `axis`.
function flipAlong(name, axis) {
  return defop(name, 1, (m) => {
    const v = valueOf(m, `np.${name}`);
    if (v.ndim < axis + 1) throw new ValueError(`np.${name} requires an array with at least ${axis + 1} dimension${axis ? 's' : ''}, got ${v.aval}`);
    return flip(v, axis);
  });
}
/** jnp.fliplr(m): reversed along axis 1. */
export const fliplr = flipAlong('fliplr', 1);
/** jnp.flipud(m): reversed along axis 0. */
export const flipud = flipAlong('flipud', 0);

/** jnp.rot90(m, k, axes): rotated k times by 90 degrees in the plane of `axes` ([0, 1]), from the first axis towards the second. */
export const rot90 = defop('rot90', 1, (m, k = 1, axes = [0, 1]) => {
  const v = valueOf(m, 'np.rot90');
  if (!Array.isArray(axes) || axes.length !== 2) throw new ValueError(`np.rot90: axes must be a pair of axes, got ${quote(axes)}`);
  const [a1, a2] = axes.map((d) => normAxis(d, v.ndim, 'np.rot90'));
  if (a1 === a2) throw new ValueError(`np.rot90: axes must be different, got ${quote(axes)}`);
  if (!Number.isInteger(k)) throw new ValueError(`np.rot90: k must be an integer, got ${quote(k)}`);
  const perm = v.shape.map((_, d) => (d === a1 ? a2 : d === a2 ? a1 : d));
  const turns = ((k % 4) + 4) % 4;
  if (turns === 0) return v;
  if (turns === 2) return flip(flip(v, a1), a2);
  return turns === 1 ? transpose(flip(v, a2), perm) : flip(transpose(v, perm), a2);
});

/** jnp.permute_dims(a, axes): the array API's name for transpose with explicit axes. */
export const permuteDims = defop('permuteDims', 1, (a, axes) => transpose(a, axes));

/** jnp.unstack(x, axis): the slices along `axis` (0), each without it. */
export const unstack = defop('unstack', 1, (x, axis = 0) => {
  const v = valueOf(x, 'np.unstack');
  if (v.ndim === 0) throw new ValueError('np.unstack: requires an array of at least one dimension, got a scalar');
  const d = normAxis(axis, v.ndim, 'np.unstack');
  return Array.from({ length: v.shape[d] }, (_, i) => emitHere('unstack', 'squeeze', { dimensions: [d] }, [sliceAlong(v, d, i, i + 1)]));
});

/** jnp.concat(arrays, {axis}): the array API's concatenate. */
export const concat = (arrays, { axis = 0 } = {}) => concatenate(arrays, axis);

/** jnp.append(arr, values, axis): values after arr along `axis` (both flattened when null). */
export const append = defop('append', 2, (arr, values, axis = null) =>
  axis === null ? concatenate([ravel(arr), ravel(values)], 0) : concatenate([arr, values], axis),
);

/**
 * jnp.diff(a, n, axis, {prepend, append}): the n-th difference along `axis`
 * (-1), out[i] = a[i + 1] - a[i] applied n times (for bools, !=), after
 * prepend and append are joined (a scalar broadcast to one slice).
 */
export const diff = (a, n = 1, axis = -1, { prepend = null, append: after = null } = {}) =>
  diffOf(a, prepend ?? [], after ?? [], n, axis, prepend !== null, after !== null);
const diffOf = defop('diff', 3, (a, prepend, after, n, axis, hasPrepend, hasAppend) => {
  let v = valueOf(a, 'np.diff');
  if (!Number.isInteger(n) || n < 0) throw new ValueError(`np.diff: order must be a non-negative integer, got ${quote(n)}`);
  if (n === 0) return v;
  if (v.ndim === 0) throw new ValueError('np.diff: requires input that is at least one dimensional, got a scalar');
  const d = normAxis(axis, v.ndim, 'np.diff');
  const edge = (x) => {
    const e = valueOf(x, 'np.diff');
    return e.ndim ? e : broadcastTo(e, v.shape.map((s, i) => (i === d ? 1 : s)));
  };
  const parts = [...(hasPrepend ? [edge(prepend)] : []), v, ...(hasAppend ? [edge(after)] : [])];
  if (parts.length > 1) v = concatenate(parts, d);
  for (let k = 0; k < n; k++) {
    const [hi, lo] = [sliceAlong(v, d, 1, v.shape[d]), sliceAlong(v, d, 0, v.shape[d] - 1)];
    v = v.dtype === 'bool' ? notEqual(hi, lo) : subtract(hi, lo);
  }
  return v;
});

/** jnp.ediff1d(ary, to_end, to_begin): the differences of the flattened array, to_begin before and to_end after (in its dtype). */
export const ediff1d = (ary, toEnd = null, toBegin = null) => ediff1dOf(ary, toEnd ?? [], toBegin ?? [], toEnd !== null, toBegin !== null);
const ediff1dOf = defop('ediff1d', 3, (ary, toEnd, toBegin, hasEnd, hasBegin) => {
  const v = ravel(ary);
  let out = subtract(sliceAlong(v, 0, 1, v.size), sliceAlong(v, 0, 0, Math.max(v.size - 1, 0)));
  const part = (x) => ravel(asDtype(valueOf(x, 'np.ediff1d'), v.dtype, false));
  if (hasBegin) out = concatenate([part(toBegin), out]);
  if (hasEnd) out = concatenate([out, part(toEnd)]);
  return out;
});

/**
 * jnp.meshgrid(*xi, {sparse, indexing}): coordinate arrays of 1-d vectors:
 * output i holds xi[i] along axis i of the grid ('ij') or with the first two
 * axes swapped ('xy', the default), broadcast to the grid unless sparse.
 */
export function meshgrid(...args) {
  const last = args[args.length - 1];
  const options = last && typeof last === 'object' && !Array.isArray(last) && !('shape' in last) ? args.pop() : {};
  const { sparse = false, indexing = 'xy', copy = true } = options;
  if (!copy) throw new ValueError('np.meshgrid: only copy=True is supported (as jax.numpy)');
  if (indexing !== 'xy' && indexing !== 'ij') throw new ValueError(`np.meshgrid: Valid values for indexing are 'xy' and 'ij', got ${quote(indexing)}`);
  return meshgridOf(args, sparse, indexing);
}
const meshgridOf = defop('meshgrid', 1, (args, sparse, indexing) => {
  const xs = args.map((x) => valueOf(x, 'np.meshgrid'));
  if (xs.some((x) => x.ndim !== 1)) throw new ValueError(`np.meshgrid: arguments must be 1D, got shapes ${xs.map((x) => `[${x.shape}]`).join(', ')}`);
  const swap = indexing === 'xy' && xs.length >= 2;
  if (swap) [xs[0], xs[1]] = [xs[1], xs[0]];
  const grid = xs.map((x) => (sparse ? 1 : x.shape[0]));
  const outs = xs.map((x, i) => {
    const shape = sparse ? grid.map((s, j) => (j === i ? x.shape[0] : s)) : grid;
    return emitHere('meshgrid', 'broadcast_in_dim', { shape, broadcast_dimensions: [i] }, [x]);
  });
  if (swap) [outs[0], outs[1]] = [outs[1], outs[0]];
  return outs;
});

/** jnp.array_equal(a1, a2, {equalNan}): whether the shapes and every element agree (NaNs equal with equalNan). */
export const arrayEqual = defop('arrayEqual', 2, (a1, a2, { equalNan = false } = {}) => {
  const [x, y] = [valueOf(a1, 'np.array_equal'), valueOf(a2, 'np.array_equal')];
  if (x.ndim !== y.ndim || x.shape.some((s, i) => s !== y.shape[i])) return literalTracer(traceFor('arrayEqual'), false, 'bool');
  const eq = equal(x, y);
  return all(equalNan ? logicalOr(eq, logicalAnd(isnan(x), isnan(y))) : eq);
});

/** jnp.array_equiv(a1, a2): whether the arrays broadcast together and agree everywhere. */
export const arrayEquiv = defop('arrayEquiv', 2, (a1, a2) => {
  const [x, y] = [valueOf(a1, 'np.array_equiv'), valueOf(a2, 'np.array_equiv')];
  try {
    broadcastShapes([x.shape, y.shape], 'np.array_equiv');
  } catch (e) {
    if (e instanceof ShapeError || e instanceof ValueError) return literalTracer(traceFor('arrayEquiv'), false, 'bool');
    throw e;
  }
  return all(equal(x, y));
});
