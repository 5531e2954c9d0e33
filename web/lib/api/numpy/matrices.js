// np's identities, triangles, diagonals and rearrangements, written as jax.numpy writes
// them from primitives the core already has (iota masks and selects,
// transposes, slices, concatenations, dot_general): eye, tri, tril, triu,
// identity, linspace, diag, diagonal, trace, swapaxes, moveaxis, hstack,
// vstack, outer, inner, kron, roll, split, array_split, tile, repeat.
// Re-exported by np.js.

import { ShapeError, ValueError } from '../../errors.js';
import { dotGeneral, slice } from '../lax/index.js';
import { asDtype, normAxis, selectWhere as where, sequenceOf, sliceAlong, toInexact } from './helpers.js';
import {
  add, broadcastTo, concatenate, cumsum, divide, equal, expandDims, floor, floorDivide, greaterEqual, log10, multiply, power, reshape, sign, stack, subtract, sum, transpose, zeros, zerosLike,
} from './math.js';
import { updateItem } from '../indexing.js';
import { take } from './indexing.js';
import { concreteValues, DArray } from '../core/array.js';
import { defop } from '../core/op.js';
import { isScalar } from '../core/weak_float.js';
import { broadcastShapes, traced, traceFor } from '../core/operands.js';
import { checkShape, quote } from '../core/shape.js';
import { isFloat } from '../../dtypes.js';

// A traced value of x, for reading its shape.
const valueOf = (x, fn) => traced(traceFor(fn), x, fn);

// Checks that k (a diagonal's offset) is an integer.
function checkOffset(k, fn) {
  if (!Number.isInteger(k)) throw new ValueError(`${fn}: k is ${quote(k)}; it must be an integer`);
}

// An n x m array (m = n) of `dtype` (float32): 1 where cmp(i + k, j) holds for row i and column j.
function offsetMask(fn, n, m, k, dtype, cmp) {
  const s = checkShape([n, m ?? n], fn, dtype ?? 'float32');
  checkOffset(k, fn);
  const i = iotaOf(s, 0), j = iotaOf(s, 1);
  return asDtype(cmp(k === 0 ? i : add(i, k), j), dtype ?? 'float32');
}

/** np.eye(n, m, k, dtype): an n x m array (m = n) of ones on the k-th diagonal (k > 0 above the main one), zeros elsewhere. */
export const eye = defop('eye', 0, (n, m = null, k = 0, dtype = 'float32') => offsetMask('np.eye', n, m, k, dtype, equal));

/** np.tri(n, m, k, dtype): ones at and below the k-th diagonal (j <= i + k), zeros above; m = n by default. */
export const tri = defop('tri', 0, (n, m = null, k = 0, dtype = 'float32') => offsetMask('np.tri', n, m, k, dtype, greaterEqual));

// The int32 index along dimension `dim` of an array of `shape` (lax.broadcasted_iota).
function iotaOf(shape, dim) {
  return traceFor('iota').emit('iota', { dtype: 'int32', shape, dimension: dim }, [])[0];
}

// m (at least 2-D) with zeros where `mask(rows, cols)` (a bool mask of its
// last two dimensions) is false (`inside`) or true (not `inside`).
function masked(m, mask, inside, fn) {
  const v = valueOf(m, fn);
  if (v.ndim < 2) throw new ShapeError(`${fn}: needs an array of at least 2 dimensions, got ${v.aval}`);
  const b = broadcastTo(mask(...v.shape.slice(-2)), v.shape);
  return inside ? where(b, v, zerosLike(v)) : where(b, zerosLike(v), v);
}

/** np.tril(m, k): m with the elements above the k-th diagonal zeroed (over its last two dimensions). */
export const tril = defop('tril', 1, (m, k = 0) => {
  checkOffset(k, 'np.tril');
  return masked(m, (r, c) => tri(r, c, k, 'bool'), true, 'np.tril');
});

/** np.triu(m, k): m with the elements below the k-th diagonal zeroed (over its last two dimensions). */
export const triu = defop('triu', 1, (m, k = 0) => {
  checkOffset(k, 'np.triu');
  return masked(m, (r, c) => tri(r, c, k - 1, 'bool'), false, 'np.triu');
});

/** np.identity(n, dtype): the n x n identity. */
export const identity = defop('identity', 0, (n, dtype = 'float32') => eye(n, null, 0, dtype ?? 'float32'));

/**
 * np.linspace(start, stop, num, {endpoint, retstep, dtype, axis}): `num` (50)
 * evenly spaced numbers from start, the last exactly stop when endpoint
 * (true), computed as jnp's: with t = i / div (div = num - 1 with the
 * endpoint, num without), out[i] = start * (1 - t) + stop * t, which keeps
 * both ends exact in float32; integer dtypes take the floor. start and stop
 * may be arrays: the result is their broadcast shape with the new axis at
 * `axis` (0). With retstep, [out, step], step = (stop - start) / div (NaN
 * when there is no step, as jnp).
 */
export const linspace = (start, stop, num = 50, options = {}) =>
  isScalar(start) && isScalar(stop) ? linspaceOfNumbers(start, stop, num, options) : linspaceOfArrays(start, stop, num, options);

function linspaceOf(start, stop, num, { endpoint = true, retstep = false, dtype = 'float32', axis = 0 } = {}) {
  if (!Number.isInteger(num) || num < 0) throw new ValueError(`np.linspace: num is ${quote(num)}; it must be a non-negative integer`);
  const [lo, hi] = [asDtype(valueOf(start, 'np.linspace'), 'float32'), asDtype(valueOf(stop, 'np.linspace'), 'float32')];
  const bounds = broadcastShapes([lo.shape, hi.shape], 'np.linspace');
  const d = normAxis(axis, bounds.length + 1, 'np.linspace');
  const withAxis = (n) => [...bounds.slice(0, d), n, ...bounds.slice(d)];
  const [from, to] = [reshape(broadcastTo(lo, bounds), withAxis(1)), reshape(broadcastTo(hi, bounds), withAxis(1))];
  const div = endpoint ? num - 1 : num;
  const nan = () => asDtype(divide(0, 0), 'float32', false);
  let out;
  let step;
  if (num > 1) {
    step = divide(subtract(hi, lo), div);
    const t = divide(asDtype(iotaOf(checkShape(withAxis(div), 'np.linspace', 'float32'), d), 'float32'), div);
    out = add(multiply(from, subtract(1, t)), multiply(to, t));
    if (endpoint) out = concatenate([out, to], d);
  } else if (num === 1) {
    step = endpoint ? nan() : subtract(hi, lo);
    out = from;
  } else {
    step = nan();
    out = zeros(withAxis(0), 'float32');
  }
  const target = dtype ?? 'float32';
  if (!isFloat(target)) out = floor(out);
  out = asDtype(out, target, false);
  return retstep ? [out, step] : out;
}
const linspaceOfNumbers = defop('linspace', 0, linspaceOf);
const linspaceOfArrays = defop('linspace', 2, linspaceOf);

/**
 * np.diagonal(a, offset, axis1, axis2): the elements a[..., i, i + offset]
 * of the 2-D planes of axes axis1 and axis2 (offset > 0 above the main
 * diagonal); as numpy, the other axes first, the diagonal last.
 */
export const diagonal = defop('diagonal', 1, (a, offset = 0, axis1 = 0, axis2 = 1) => {
  checkOffset(offset, 'np.diagonal');
  const x = valueOf(a, 'np.diagonal');
  if (x.ndim < 2) throw new ShapeError(`np.diagonal: needs an array of at least 2 dimensions, got ${x.aval}`);
  const [i, j] = [normAxis(axis1, x.ndim, 'np.diagonal'), normAxis(axis2, x.ndim, 'np.diagonal')];
  if (i === j) throw new ValueError(`np.diagonal: axis1 and axis2 are both ${i}; they must be different axes`);
  // The plane's axes last, axis1 then axis2: v[..., n, m].
  const v = transpose(x, [...x.shape.keys()].filter((k) => k !== i && k !== j).concat([i, j]));
  const [n, m] = v.shape.slice(-2);
  // Each row (column, below the main diagonal) keeps its one diagonal element; the sum picks it.
  const picked = where(eye(n, m, offset, 'bool'), v, zerosLike(v));
  const len = Math.max(0, offset >= 0 ? Math.min(n, m - offset) : Math.min(m, n + offset));
  const sums = sum(picked, v.ndim - (offset >= 0 ? 1 : 2));
  return slice(sums, sums.shape.map(() => 0), [...sums.shape.slice(0, -1), len]);
});

/** np.trace(a, offset, axis1, axis2): the sums of the diagonals at `offset` of the planes of axes axis1 and axis2. */
export const trace = defop('trace', 1, (a, offset = 0, axis1 = 0, axis2 = 1) => sum(diagonal(a, offset, axis1, axis2), -1));

/** np.swapaxes(a, axis1, axis2): a with the two axes exchanged (a transpose). */
export const swapaxes = defop('swapaxes', 1, (a, axis1, axis2) => {
  const v = valueOf(a, 'np.swapaxes');
  const [i, j] = [normAxis(axis1, v.ndim, 'np.swapaxes'), normAxis(axis2, v.ndim, 'np.swapaxes')];
  const perm = v.shape.map((_, k) => (k === i ? j : k === j ? i : k));
  return transpose(v, perm);
});

/** np.matrixTranspose(x): each matrix of a stack transposed (the last two axes swapped), as jnp.matrix_transpose. */
export const matrixTranspose = defop('matrixTranspose', 1, (x) => {
  const v = valueOf(x, 'np.matrixTranspose');
  if (v.ndim < 2) throw new ValueError(`np.matrixTranspose: x must be at least two-dimensional for matrix_transpose; got ndim=${v.ndim}`);
  return swapaxes(v, -1, -2);
});

/** np.moveaxis(a, source, destination): the axes `source` (an int or a list) moved to `destination`, the others in order. */
export const moveaxis = defop('moveaxis', 1, (a, source, destination) => {
  const v = valueOf(a, 'np.moveaxis');
  const src = (Array.isArray(source) ? source : [source]).map((s) => normAxis(s, v.ndim, 'np.moveaxis'));
  const dst = (Array.isArray(destination) ? destination : [destination]).map((d) => normAxis(d, v.ndim, 'np.moveaxis'));
  if (src.length !== dst.length) {
    throw new ValueError('np.moveaxis: `source` and `destination` arguments must have the same number of elements');
  }
  const perm = v.shape.map((_, k) => k).filter((k) => !src.includes(k));
  [...dst.keys()].sort((p, q) => dst[p] - dst[q]).forEach((p) => perm.splice(dst[p], 0, src[p]));
  return transpose(v, perm);
});

/** np.hstack(arrays): concatenated along axis 1 (axis 0 for 1-D arrays; scalars become 1-D). */
export const hstack = defop('hstack', 1, (arrays) => {
  const vs = sequenceOf(arrays, 'np.hstack').map((x) => valueOf(x, 'np.hstack')).map((v) => (v.ndim === 0 ? reshape(v, [1]) : v));
  return concatenate(vs, vs[0].ndim === 1 ? 0 : 1);
});

/** np.vstack(arrays): concatenated along axis 0, 1-D arrays (and scalars) as rows. */
export const vstack = defop('vstack', 1, (arrays) => {
  const vs = sequenceOf(arrays, 'np.vstack').map((x) => valueOf(x, 'np.vstack')).map((v) => (v.ndim < 2 ? reshape(v, [1, v.size]) : v));
  return concatenate(vs, 0);
});

/** np.outer(a, b): a_i * b_j over the flattened a and b. */
export const outer = defop('outer', 2, (a, b) => multiply(reshape(a, [-1, 1]), reshape(b, [1, -1])));

/** np.inner(a, b): the sum over the last axes of a and b (a dot_general; scalars multiply). */
export const inner = defop('inner', 2, (a, b) => {
  const [x, y] = [valueOf(a, 'np.inner'), valueOf(b, 'np.inner')];
  if (x.ndim === 0 || y.ndim === 0) return multiply(x, y);
  return dotGeneral(x, y, [[[x.ndim - 1], [y.ndim - 1]], [[], []]]);
});

/**
 * np.roll(a, shift, axis): the elements shifted by `shift` places along
 * `axis` (of the flattened array when null), those pushed off one end
 * coming back at the other. Shifts and axes may be lists of equal length.
 */
export const roll = defop('roll', 1, (a, shift, axis = null) => {
  const v = valueOf(a, 'np.roll');
  if (axis === null) return reshape(roll(reshape(v, [v.size]), shift, 0), v.shape);
  const shifts = Array.isArray(shift) ? shift : [shift];
  const axes = Array.isArray(axis) ? axis : [axis];
  if (shifts.length !== axes.length) throw new ValueError(`np.roll: ${shifts.length} shifts for ${axes.length} axes; give one per axis`);
  let out = v;
  shifts.forEach((s, k) => {
    if (!Number.isInteger(s)) throw new ValueError(`np.roll: shift is ${quote(s)}; it must be an integer`);
    const d = normAxis(axes[k], v.ndim, 'np.roll');
    const n = v.shape[d];
    const r = n ? ((s % n) + n) % n : 0;
    if (r) out = concatenate([sliceAlong(out, d, n - r, n), sliceAlong(out, d, 0, n - r)], d);
  });
  return out;
});

// The pieces of v along `axis` cut at `cuts` (increasing, clamped to the axis).
function pieces(v, cuts, axis) {
  const n = v.shape[axis];
  const bounds = [0, ...cuts.map((c) => Math.min(Math.max(c < 0 ? c + n : c, 0), n)), n];
  return bounds.slice(1).map((stop, k) => sliceAlong(v, axis, Math.min(bounds[k], stop), stop));
}

/**
 * np.split(a, sections, axis): a list of `sections` equal pieces along `axis`
 * (0), or the pieces between the given indices; unequal sections are an error.
 */
export const split = defop('split', 1, (a, sections, axis = 0) => {
  const v = valueOf(a, 'np.split');
  const d = normAxis(axis, v.ndim, 'np.split');
  if (Array.isArray(sections)) return pieces(v, sections, d);
  if (!Number.isInteger(sections) || sections < 1) throw new ValueError(`np.split: sections is ${quote(sections)}; it must be a positive integer or a list of indices`);
  if (v.shape[d] % sections) throw new ValueError('array split does not result in an equal division');
  const size = v.shape[d] / sections;
  return pieces(v, Array.from({ length: sections - 1 }, (_, k) => (k + 1) * size), d);
});

/** np.array_split(a, sections, axis): as split, the first n % sections pieces one longer when they cannot be equal. */
export const arraySplit = defop('arraySplit', 1, (a, sections, axis = 0) => {
  const v = valueOf(a, 'np.arraySplit');
  const d = normAxis(axis, v.ndim, 'np.arraySplit');
  if (Array.isArray(sections)) return pieces(v, sections, d);
  if (!Number.isInteger(sections) || sections < 1) throw new ValueError(`np.arraySplit: sections is ${quote(sections)}; it must be a positive integer or a list of indices`);
  const n = v.shape[d], size = Math.floor(n / sections), extra = n % sections;
  const cuts = [];
  for (let k = 1, at = 0; k < sections; k++) cuts.push((at += size + (k <= extra ? 1 : 0)));
  return pieces(v, cuts, d);
});

/**
 * np.tile(a, reps): a repeated reps[d] times along each dimension (an int
 * repeats the last one; a and reps are aligned from the right, the shorter
 * one padded with 1s), as a broadcast and a reshape.
 */
export const tile = defop('tile', 1, (a, reps) => {
  const v = valueOf(a, 'np.tile');
  const r = Array.isArray(reps) ? [...reps] : [reps];
  if (!r.every((k) => Number.isInteger(k) && k >= 0)) throw new ValueError(`np.tile: reps is ${quote(reps)}; give non-negative integers`);
  const n = Math.max(r.length, v.ndim);
  const rs = [...Array(n - r.length).fill(1), ...r];
  const shape = [...Array(n - v.ndim).fill(1), ...v.shape];
  // [1, s0, 1, s1, ...] broadcast to [r0, s0, r1, s1, ...], then merged pairwise.
  const spread = broadcastTo(reshape(v, shape.flatMap((s) => [1, s])), shape.flatMap((s, d) => [rs[d], s]));
  return reshape(spread, shape.map((s, d) => s * rs[d]));
});

/**
 * np.repeat(a, repeats, axis, totalRepeatLength): each element repeated
 * `repeats` times along `axis` (of the flattened array when null): one count
 * for all (a broadcast and a reshape) or one count per element (a gather): a
 * list, or a concrete array, read as JAX concretizes it (the counts fix the
 * shape) unless totalRepeatLength gives the length, when they may be traced.
 */
export const repeat = (a, repeats, axis = null, totalRepeatLength = null) => {
  if (totalRepeatLength !== null && totalRepeatLength !== undefined) return repeatTo(a, repeats, axis, totalRepeatLength);
  return repeatBy(a, repeats instanceof DArray ? concreteValues(repeats, 'np.repeat') : repeats, axis);
};
// With the result's length given (totalRepeatLength), the counts may be
// traced, as JAX's: a 1 marks where each element's run starts (the counts'
// exclusive cumsum, scattered; runs past the length dropped), and the
// marks' cumsum - 1 is the element each position takes (past the counts'
// total, the last one's run goes on).
const repeatTo = defop('repeat', 2, (a, repeats, axis, total) => {
  if (!Number.isInteger(total) || total < 0) throw new ValueError(`np.repeat: total_repeat_length must be a non-negative integer, got ${quote(total)}`);
  let v = valueOf(a, 'np.repeat');
  if (axis === null) v = reshape(v, [v.size]);
  const d = axis === null ? 0 : normAxis(axis, v.ndim, 'np.repeat');
  const counts = broadcastTo(asDtype(traced(traceFor('repeat'), repeats, 'np.repeat'), 'int32'), [v.shape[d]]);
  const starts = subtract(cumsum(counts), counts);
  const marks = updateItem('add', zeros([total], 'int32'), [starts], 1, { mode: 'drop' });
  return take(v, subtract(cumsum(marks), 1), { axis: d, mode: 'clip' });
});
const repeatBy = defop('repeat', 1, (a, repeats, axis) => {
  let v = valueOf(a, 'np.repeat');
  if (axis === null) v = reshape(v, [v.size]);
  const d = axis === null ? 0 : normAxis(axis, v.ndim, 'np.repeat');
  const counts = Array.isArray(repeats) && repeats.length === 1 ? repeats[0] : repeats;
  if (Array.isArray(counts)) {
    // One count per element along the axis: the positions each repeated, gathered.
    if (counts.length !== v.shape[d] || !counts.every((r) => Number.isInteger(r) && r >= 0)) {
      throw new ValueError(`np.repeat: repeats has ${counts.length} entries; give one non-negative integer per element along axis ${d} (${v.shape[d]}) or one for all`);
    }
    return take(v, counts.flatMap((r, i) => Array(r).fill(i)), { axis: d, mode: 'clip' });
  }
  if (!Number.isInteger(counts) || counts < 0) {
    throw new ValueError(`np.repeat: repeats is ${quote(repeats)}; give a non-negative integer, or a list or concrete array of them (the counts fix the result's shape, so a traced array is not supported)`);
  }
  const widened = [...v.shape.slice(0, d + 1), 1, ...v.shape.slice(d + 1)];
  const spread = broadcastTo(reshape(v, widened), widened.map((s, i) => (i === d + 1 ? counts : s)));
  return reshape(spread, v.shape.map((s, i) => (i === d ? s * counts : s)));
});

/** np.kron(a, b): the Kronecker product, a[i] * b[j] at i * b.shape + j along every dimension. */
export const kron = defop('kron', 2, (a, b) => {
  const [x, y] = [valueOf(a, 'np.kron'), valueOf(b, 'np.kron')];
  const n = Math.max(x.ndim, y.ndim);
  const xs = [...Array(n - x.ndim).fill(1), ...x.shape], ys = [...Array(n - y.ndim).fill(1), ...y.shape];
  const product = multiply(reshape(x, xs.flatMap((s) => [s, 1])), reshape(y, ys.flatMap((s) => [1, s])));
  return reshape(product, xs.map((s, d) => s * ys[d]));
});

/**
 * np.diag(v, k): for a 1-D v, the square matrix with v on its k-th diagonal
 * and zeros elsewhere; for a 2-D v, its k-th diagonal (np.diagonal).
 */
export const diag = defop('diag', 1, (v, k = 0) => {
  checkOffset(k, 'np.diag');
  const x = valueOf(v, 'np.diag');
  if (x.ndim === 2) return diagonal(x, k);
  if (x.ndim !== 1) throw new ShapeError(`np.diag: needs a 1-D or 2-D array, got ${x.aval}`);
  const n = x.shape[0] + Math.abs(k);
  // Element (i, i + k) is v[i] (k >= 0: indexed by the row) or v[j] at column j = i + k (k < 0).
  const padded = k ? concatenate([x, zeros([Math.abs(k)], x.dtype)]) : x;
  const values = broadcastTo(reshape(padded, k >= 0 ? [n, 1] : [1, n]), [n, n]);
  return where(eye(n, n, k, 'bool'), values, zerosLike(values));
});

/** np.logspace(start, stop, num, {endpoint, base, dtype, axis}): base ** linspace(start, stop, num) (base 10). */
export const logspace = (start, stop, num = 50, { endpoint = true, base = 10, dtype = null, axis = 0 } = {}) =>
  logspaceOf(start, stop, base, num, endpoint, dtype, axis);
const logspaceOf = defop('logspace', 3, (start, stop, base, num, endpoint, dtype, axis) => {
  const lin = linspace(start, stop, num, { endpoint, axis });
  const b = asDtype(valueOf(base, 'np.logspace'), 'float32');
  const out = power(b.ndim ? expandDims(b, axis) : b, lin);
  return dtype === null ? out : asDtype(out, dtype, false);
});

/** np.geomspace(start, stop, num, {endpoint, dtype, axis}): numbers evenly spaced on a log scale from start to stop (both of one sign). */
export const geomspace = defop('geomspace', 2, (start, stop, num = 50, { endpoint = true, dtype = null, axis = 0 } = {}) => {
  const [lo, hi] = [asDtype(valueOf(start, 'np.geomspace'), 'float32'), asDtype(valueOf(stop, 'np.geomspace'), 'float32')];
  // As JAX: the sign of the bounds factored out (negative ranges run on their magnitudes), the magnitudes' logarithms spaced evenly.
  const flip = subtract(1, floorDivide(multiply(subtract(1, sign(lo)), subtract(1, sign(hi))), 2));
  let out = multiply(flip, logspace(log10(multiply(flip, lo)), log10(multiply(flip, hi)), num, { endpoint, base: 10, axis: 0 }));
  if (axis !== 0) out = moveaxis(out, 0, axis);
  return dtype === null ? out : asDtype(out, dtype, false);
});

/** np.rollaxis(a, axis, start): `axis` moved to sit before `start` (0), as numpy's. */
export const rollaxis = defop('rollaxis', 1, (a, axis, start = 0) => {
  const v = valueOf(a, 'np.rollaxis');
  const d = normAxis(axis, v.ndim, 'np.rollaxis');
  if (!Number.isInteger(start) || start < -v.ndim || start > v.ndim) throw new ValueError(`np.rollaxis: start=${quote(start)} must be between ${-v.ndim} and ${v.ndim}`);
  let s = start < 0 ? start + v.ndim : start;
  if (s > d) s -= 1;
  return moveaxis(v, d, s);
});

/** np.trapezoid(y, x, {dx, axis}): the integral of y by the trapezoidal rule, over sample points x or spacing dx (1). */
export const trapezoid = (y, x = null, { dx = 1, axis = -1 } = {}) => trapezoidOf(y, x ?? [], x !== null, dx, axis);
const trapezoidOf = defop('trapezoid', 2, (y, x, hasX, dx, axis) => {
  const v = moveaxis(toInexact(valueOf(y, 'np.trapezoid')), axis, -1);
  const n = v.shape[v.ndim - 1];
  let step = dx;
  if (hasX) {
    const xv = toInexact(valueOf(x, 'np.trapezoid'));
    const xs = xv.ndim === 1 ? xv : moveaxis(xv, axis, -1);
    step = subtract(sliceAlong(xs, xs.ndim - 1, 1, n), sliceAlong(xs, xs.ndim - 1, 0, n - 1));
  }
  const pairs = add(sliceAlong(v, v.ndim - 1, 1, n), sliceAlong(v, v.ndim - 1, 0, n - 1));
  return multiply(0.5, sum(multiply(step, pairs), -1));
});

/** np.vander(x, N, increasing): the Vandermonde matrix of the vector x, powers N - 1 down to 0 (or up with increasing). */
export const vander = defop('vander', 1, (x, N = null, increasing = false) => {
  const v = valueOf(x, 'np.vander');
  if (v.ndim !== 1) throw new ValueError(`np.vander: x must be a one-dimensional array, got shape [${v.shape}]`);
  const n = N ?? v.shape[0];
  if (!Number.isInteger(n) || n < 0) throw new ValueError(`np.vander: N must be a non-negative integer, got ${quote(N)}`);
  if (n === 0) return zeros([v.shape[0], 0], v.dtype);
  // One column per power, each x ** p with p a static integer (integer_pow: exact for integers).
  return stack(Array.from({ length: n }, (_, i) => power(v, increasing ? i : n - 1 - i)), 1);
});
