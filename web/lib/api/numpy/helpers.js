// What numpy's functions share (numpy/*.js): axes, dtypes, broadcasting and
// emitting a primitive, and the three-operand where most of them choose
// with. Not public: the face (numpy/index.js) exports none of it.

import { ConcretizationError, ValueError } from '../../errors.js';
import { defop } from '../core/op.js';
import { avalOf, broadcastShapes, literalTracer, resultType, traced, traceFor } from '../core/operands.js';
import { isTracer } from '../core/tracer.js';
import { isScalar } from '../core/weak_float.js';
import { isFloat } from '../../dtypes.js';

/** Whether two shapes are equal. */
export const same = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);

/** Normalizes a possibly negative axis for rank `rank`; errors name `fn`. */
export function normAxis(axis, rank, fn) {
  if (isTracer(axis)) {
    throw new ConcretizationError(`${fn}: the axis is the traced value ${axis}, but an axis must be known while tracing: pass an integer (a static argument of jit)`);
  }
  if (!Number.isInteger(axis) || axis < -rank || axis >= rank) {
    throw new ValueError(`${fn}: axis ${axis} is out of range for an array of rank ${rank}; valid axes are ${-rank}..${rank - 1}`);
  }
  return axis < 0 ? axis + rank : axis;
}

/**
 * x as a traced value of dtype `dtype`, weakly typed when `weak` (by default
 * a conversion is strong and a value already of `dtype` stays as it is),
 * converting if needed: as JAX's _convert_element_type, a change of the weak
 * type alone is a convert_element_type too.
 */
export function asDtype(x, dtype, weak = x.dtype === dtype && x.weakType) {
  if (x.dtype === dtype && x.weakType === weak) return x;
  if (x._atom.literal !== undefined) return literalTracer(x._trace, x._atom.literal, dtype, weak);
  return emitHere('astype', 'convert_element_type', { new_dtype: dtype, weak_type: weak }, [x]);
}

/** Traced x as a float: itself when its dtype is a float, else converted to float32 (JAX's to_inexact_dtype). */
export const toInexact = (x) => (isFloat(x.dtype) ? x : asDtype(x, 'float32'));

/** Traced x broadcast to `shape` (numpy's trailing alignment). */
export function broadcastValue(x, shape) {
  if (same(x.shape, shape)) return x;
  const r = shape.length - x.ndim;
  const dims = x.shape.map((_, i) => i + r);
  return emitHere('broadcastTo', 'broadcast_in_dim', { shape, broadcast_dimensions: dims }, [x]);
}

/** Operands of an elementwise operation: traced, of one type ({dtype, weak};
  by default numpy's promotion of theirs), broadcast to one shape (rank-0
  operands stay scalars, which the primitives repeat). `prim` is the lax
  primitive the caller binds, whose shape rule JAX's errors name. */
export function elementwise(fn, xs, type, prim = null) {
  const t = traceFor(fn);
  const avals = xs.map((x) => avalOf(x, fn));
  const { dtype, weak } = type ?? resultType(avals);
  const shape = broadcastShapes(avals.map((a) => a.shape), `np.${fn}`, prim);
  return xs.map((x, i) => {
    const v = isScalar(x) ? literalTracer(t, x, dtype, weak) : asDtype(traced(t, x, fn), dtype, weak);
    return v.ndim === 0 && shape.length > 0 ? v : broadcastValue(v, shape);
  });
}

/**
 * The arrays of a sequence argument (concatenate's, stack's): a JS list as
 * it is; one array, as numpy iterates it, its subarrays along axis 0.
 */
export function sequenceOf(xs, fn) {
  if (Array.isArray(xs)) return xs;
  const v = traced(traceFor(fn), xs, fn);
  if (v.ndim === 0) throw new ValueError(`${fn}: zero-dimensional arrays cannot be concatenated; give a list of arrays`);
  const rest = v.shape.slice(1);
  return Array.from({ length: v.shape[0] }, (_, i) => {
    const start = v.shape.map((_, d) => (d === 0 ? i : 0));
    const limit = v.shape.map((n, d) => (d === 0 ? i + 1 : n));
    const row = emitHere(fn, 'slice', { start_indices: start, limit_indices: limit, strides: [] }, [v]);
    return emitHere(fn, 'squeeze', { dimensions: [0] }, [row]);
  });
}

/** Emits primitive `prim` into the current trace (operands of enclosing traces are captured). */
export function emitHere(fn, prim, params, xs) {
  const t = traceFor(fn);
  return t.emit(prim, params, xs.map((x) => x.atomIn(t)))[0];
}

/** v as bools: v itself for bools, else v != 0 (numpy's truth of a value). */
export const truth = (v) => (v.dtype === 'bool' ? v : emitHere('truth', 'ne', {}, elementwise('truth', [v, 0])));

/** np.where(cond, x, y): x where cond is true, else y (select_n, broadcast). */
export const selectWhere = defop('where', 3, (c, x, y) => {
  const t = traceFor('where');
  let cond = traced(t, c, 'where');
  if (cond.dtype !== 'bool') cond = emitHere('where', 'ne', {}, [cond, literalTracer(t, 0, cond.dtype)]);
  const [xv, yv] = elementwise('where', [x, y]);
  const shape = broadcastShapes([cond.shape, xv.shape, yv.shape], 'np.where');
  const b = (v) => (same(v.shape, shape) ? v : broadcastValue(v, shape));
  return emitHere('where', 'select_n', {}, [b(cond), b(yv), b(xv)]);
});

/** The operation `name` of impl(x, where, opts): the where mask, when opts holds one, an operand beside x (not a static). */
export function withWhere(name, impl) {
  const plain = defop(name, 1, (x, opts) => impl(x, undefined, opts));
  const masked = defop(name, 2, impl);
  const f = (x, opts) => {
    if (opts === null || typeof opts !== 'object' || Array.isArray(opts) || opts.where === undefined || opts.where === null) return plain(x, opts);
    const { where, ...rest } = opts;
    return masked(x, where, rest);
  };
  Object.defineProperty(f, 'name', { value: name });
  return f;
}

/** Elements [start, stop) of v along `axis` (a slice; the other axes whole). */
export function sliceAlong(v, axis, start, stop) {
  return emitHere('slice', 'slice', {
    start_indices: v.shape.map((_, d) => (d === axis ? start : 0)),
    limit_indices: v.shape.map((n, d) => (d === axis ? stop : n)),
    strides: [],
  }, [v]);
}

/** (x + x^T) / 2 over the last two axes: JAX's symmetrize, so that only a matrix's symmetric part counts (lax.linalg's inputs, pinv's tangent). */
export function symmetrize(x) {
  const t = traceFor('symmetrize');
  const v = traced(t, x, 'symmetrize');
  const permutation = v.shape.map((_, d) => (d < v.ndim - 2 ? d : 2 * v.ndim - 3 - d));
  const sum = emitHere('symmetrize', 'add', {}, [v, emitHere('symmetrize', 'transpose', { permutation }, [v])]);
  return emitHere('symmetrize', 'div', {}, [sum, literalTracer(t, 2, v.dtype, true)]);
}
