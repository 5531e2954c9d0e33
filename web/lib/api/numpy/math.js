// numpy's elementwise arithmetic and functions, reductions, shapes and the
// arrays it makes, over traced values and arrays, with numpy's broadcasting
// and dtype promotion (JS numbers are weakly typed, as Python scalars in
// JAX), each lowered to the program's primitives.

import { ShapeError, ValueError } from '../../errors.js';
import { defop } from '../core/op.js';
import { shardingParam } from '../core/array.js';
import { isScalar, WeakFloat } from '../core/weak_float.js';
import { avalOf, broadcastShapes, literalTracer, refuseKeys, resultType, traced, traceFor } from '../core/operands.js';
import { checkDimensions, checkFits, checkShape, isDimension, quote } from '../core/shape.js';
import { asDtype, broadcastValue, elementwise, emitHere, normAxis, same, selectWhere, sequenceOf, toInexact, truth, withWhere } from './helpers.js';
import { isTracer } from '../core/tracer.js';
import { inexactDtype, isFloat, isInteger, isUnsigned, itemsize } from '../../dtypes.js';

const product = (s) => s.reduce((a, b) => a * b, 1);

function binary(name, prim, { float = false } = {}) {
  return defop(name, 2, (x, y) => {
    refuseKeys(prim, [x, y], name);
    const type = resultType([avalOf(x, name), avalOf(y, name)]);
    // A float function promotes to a float dtype (float32 from integers), weak when the operands' type is (true_divide(1, 2) as JAX).
    return emitHere(name, prim, {}, elementwise(name, [x, y], float ? { dtype: inexactDtype(type.dtype), weak: type.weak } : type, prim));
  });
}

function compare(name, prim) {
  return defop(name, 2, (x, y) => emitHere(name, prim, {}, elementwise(name, [x, y], undefined, prim)));
}

function unary(name, prim, { float = true } = {}) {
  return defop(name, 1, (x) => {
    refuseKeys(prim, [x], name);
    const t = traceFor(name);
    let v = traced(t, x, name);
    if (float) v = asDtype(v, inexactDtype(v.dtype), v.weakType);
    return emitHere(name, prim, {}, [v]);
  });
}

/** x + y. */
export const add = binary('add', 'add');
/** x - y. */
export const subtract = binary('subtract', 'sub');
/** x * y. */
export const multiply = binary('multiply', 'mul');
/** x / y (true division: integers become float32). */
export const divide = binary('divide', 'div', { float: true });
const floatPower = binary('power', 'pow', { float: true });
const intPower = defop('power', 1, (x, y) => {
  const v = traced(traceFor('power'), x, 'power');
  if (y < 0 && !isFloat(v.dtype)) throw new ValueError('np.power: integers cannot be raised to negative powers');
  return emitHere('power', 'integer_pow', { y }, [v]);
});
/**
 * x ** y: for an integer JS number y, integer_pow in x's dtype (as jnp.power
 * with a static integer exponent); otherwise pow in float32.
 */
export function power(x, y) {
  const integral = typeof y === 'number' && Number.isInteger(y) && Math.abs(y) < 2 ** 31;
  return integral ? intPower(x, y) : floatPower(x, y);
}
/** Elementwise maximum. */
export const maximum = binary('maximum', 'max');
/** Elementwise minimum. */
export const minimum = binary('minimum', 'min');
/** x == y (bool). */
export const equal = compare('equal', 'eq');
/** x != y (bool). */
export const notEqual = compare('notEqual', 'ne');
/** x < y (bool). */
export const less = compare('less', 'lt');
/** x <= y (bool). */
export const lessEqual = compare('lessEqual', 'le');
/** x > y (bool). */
export const greater = compare('greater', 'gt');
/** x >= y (bool). */
export const greaterEqual = compare('greaterEqual', 'ge');

// Where both bool arrays are true (lax's `and`, written as a select).
const both = (p, q) => selectWhere(p, q, zerosLike(q));

// x rem y on operands made elementwise: the remainder of truncating division (the sign of x).
const rem = (fn, a, b) => emitHere(fn, 'rem', {}, [a, b]);

/** np.fmod: the remainder of truncating division, with the sign of x (lax.rem). */
export const fmod = defop('fmod', 2, (x, y) => rem('fmod', ...elementwise('fmod', [x, y])));

/** np.remainder (Python's x % y): the remainder of floored division, with the sign of y, as jnp.remainder. */
export const remainder = defop('remainder', 2, (x, y) => {
  const [a, b] = elementwise('remainder', [x, y]);
  const m = rem('remainder', a, b);
  if (isUnsigned(a.dtype)) return m; // unsigned: truncating and floored division agree
  return selectWhere(both(notEqual(less(m, 0), less(b, 0)), notEqual(m, 0)), add(m, b), m);
});

/** np.floorDivide (Python's x // y): floor(x / y), consistent with remainder, as jnp.floor_divide. */
export const floorDivide = defop('floorDivide', 2, (x, y) => {
  const [a, b] = elementwise('floorDivide', [x, y]);
  const m = rem('floorDivide', a, b);
  if (isUnsigned(a.dtype)) return emitHere('floorDivide', 'div', {}, [a, b]);
  if (!isFloat(a.dtype)) {
    const q = emitHere('floorDivide', 'div', {}, [a, b]);
    return selectWhere(both(notEqual(sign(a), sign(b)), notEqual(m, 0)), subtract(q, 1), q);
  }
  // JAX's float divmod: (a - m) / b, one less where m's sign differs from b's, rounded to the integer.
  const d = divide(subtract(a, m), b);
  const fixed = selectWhere(both(notEqual(m, 0), notEqual(sign(b), sign(m))), subtract(d, 1), d);
  return emitHere('floorDivide', 'round', { rounding_method: 0 }, [fixed]);
});

/** -x. */
export const negative = unary('negative', 'neg', { float: false });
/** e^x. */
export const exp = unary('exp', 'exp');
/** Natural logarithm. */
export const log = unary('log', 'log');
/** Hyperbolic tangent. */
export const tanh = unary('tanh', 'tanh');
/** Square root. */
export const sqrt = unary('sqrt', 'sqrt');
/** x * x. */
export const square = unary('square', 'square', { float: false });
/** |x|. */
export const abs = unary('abs', 'abs', { float: false });
/** The sign of x (-1, 0, 1). */
export const sign = unary('sign', 'sign', { float: false });
/** The largest integer <= x (float32). */
export const floor = unary('floor', 'floor');
/** The smallest integer >= x (float32). */
export const ceil = unary('ceil', 'ceil');
/** x rounded toward zero (float32): ceil below zero, floor above, as jnp.trunc. */
export const trunc = defop('trunc', 1, (x) => selectWhere(less(x, 0), ceil(x), floor(x)));
/** Sine. */
export const sin = unary('sin', 'sin');
/** Cosine. */
export const cos = unary('cos', 'cos');
/** Tangent. */
export const tan = unary('tan', 'tan');
/** Inverse sine (lax.asin). */
export const arcsin = unary('arcsin', 'asin');
/** Inverse cosine (lax.acos). */
export const arccos = unary('arccos', 'acos');
/** Inverse tangent (lax.atan). */
export const arctan = unary('arctan', 'atan');
/** np.arctan2(x1, x2): the angle of the point (x2, x1), in (-pi, pi] (lax.atan2). */
export const arctan2 = binary('arctan2', 'atan2', { float: true });
/** Hyperbolic sine. */
export const sinh = unary('sinh', 'sinh');
/** Hyperbolic cosine. */
export const cosh = unary('cosh', 'cosh');
/** ln(1 + x), exact for small x. */
export const log1p = unary('log1p', 'log1p');
/** e^x - 1, exact for small x. */
export const expm1 = unary('expm1', 'expm1');
/** 2^x. */
export const exp2 = unary('exp2', 'exp2');
/** Base-2 logarithm: log(x) / log(2), as jnp.log2. */
export const log2 = defop('log2', 1, (x) => divide(log(x), Math.LN2));
/** Base-10 logarithm: log(x) / log(10), as jnp.log10. */
export const log10 = defop('log10', 1, (x) => divide(log(x), Math.LN10));
/** 1 / x (float32). */
export const reciprocal = defop('reciprocal', 1, (x) => divide(1, x));
/** Whether x is neither infinite nor NaN (lax.is_finite; integers and bools always are). */
export const isfinite = defop('isfinite', 1, (x) => {
  const v = traced(traceFor('isfinite'), x, 'isfinite');
  return isFloat(v.dtype) ? emitHere('isfinite', 'is_finite', {}, [v]) : full(v.shape, true, 'bool');
});
/** Whether x is NaN: x != x, as jnp.isnan. */
export const isnan = defop('isnan', 1, (x) => notEqual(x, x));
/** Whether x is +inf or -inf: |x| == inf, as jnp.isinf (its inf a float32 constant, strong as JAX's _constant_like). */
export const isinf = defop('isinf', 1, (x) => equal(abs(x), literalTracer(traceFor('isinf'), Infinity, 'float32')));
/**
 * np.nanToNum(x, {nan, posinf, neginf}): NaN replaced by `nan` (0), +inf by
 * `posinf` and -inf by `neginf` (the largest finite float32s by default), as jnp.nan_to_num.
 */
export const nanToNum = defop('nanToNum', 1, (x, { nan = 0, posinf = null, neginf = null } = {}) => {
  const MAX = 3.4028234663852886e38;
  const v = traced(traceFor('nanToNum'), x, 'nanToNum');
  if (!isFloat(v.dtype)) return v;
  let out = selectWhere(isnan(v), nan, v);
  out = selectWhere(equal(out, Infinity), posinf ?? MAX, out);
  return selectWhere(equal(out, -Infinity), neginf ?? -MAX, out);
});
/**
 * x rounded to `decimals` decimal places (0 by default), halves to even, as
 * jnp.round: round(x * 10^decimals) / 10^decimals for a float (JAX's
 * rescaling, with its float32 rounding); an integer is unchanged for
 * decimals >= 0, else rounded to a multiple of 10^-decimals through float32
 * (exact below 2^24).
 */
export const round = defop('round', 1, (x, decimals = 0) => {
  if (!Number.isInteger(decimals)) throw new ValueError(`np.round: decimals must be an integer, got ${decimals}`);
  const t = traceFor('round');
  const a = avalOf(x, 'round');
  const isInt = !isFloat(a.dtype);
  if (isInt && decimals >= 0) return traced(t, x, 'round');
  const v = asDtype(traced(t, x, 'round'), inexactDtype(a.dtype), a.weak);
  const nearest = (u) => emitHere('round', 'round', { rounding_method: 1 }, [u]);
  if (decimals === 0) return nearest(v);
  const factor = literalTracer(t, 10 ** decimals, 'float32'); // a strong constant, as JAX's _lax_const
  const out = emitHere('round', 'div', {}, [nearest(emitHere('round', 'mul', {}, [v, factor])), factor]);
  return isInt ? asDtype(out, a.dtype, a.weak) : out;
});


/**
 * jnp.matmul: vectors, matrices and stacks of matrices whose leading (batch)
 * dimensions broadcast, as JAX traces it: a batch dimension both operands
 * have (equal sizes) is a dot_general batch dimension; one only one operand
 * has, or of size 1 in the other (squeezed from it), is a free dimension of
 * that operand; then a transpose puts the result in batch order, and size-1
 * dimensions both had come back with expand_dims. `outSharding` (a
 * NamedSharding, or a PartitionSpec on the context mesh) types the result
 * where its operands' shardings leave it ambiguous (a contraction over a
 * sharded dimension), as JAX's out_sharding=.
 */
export const matmul = (x, y, { outSharding } = {}) => matmulOp(x, y, shardingParam(outSharding, 'matmul'));

const matmulOp = defop('matmul', 2, (x, y, outSharding) => {
  const t = traceFor('matmul');
  const [a, b] = [traced(t, x, 'matmul'), traced(t, y, 'matmul')];
  const { dtype: dt, weak } = resultType([avalOf(a), avalOf(b)]);
  let [l, r] = [asDtype(a, dt, weak), asDtype(b, dt, weak)];
  if (l.ndim === 0 || r.ndim === 0) throw new ShapeError(`matmul: operands must have rank >= 1, got ${l.aval} and ${r.aval}`);
  const [lMat, rMat] = [l.ndim > 1, r.ndim > 1];
  const n = Math.max(l.ndim - 2, r.ndim - 2, 0);
  // Each operand's batch sizes, aligned right (null where it has none).
  const batchOf = (v, mat) => [...Array(n - Math.max(v.ndim - 2, 0)).fill(null), ...(mat ? v.shape.slice(0, -2) : [])];
  const [lb, rb] = [batchOf(l, lMat), batchOf(r, rMat)];
  const lSqueeze = [];
  const rSqueeze = [];
  const both = [];
  const [lBatch, rBatch] = [[], []];
  const [idxBatch, idxL, idxR] = [[], [], []]; // where each kind of dot_general output dimension goes
  for (let i = 0; i < n; i++) {
    if (lb[i] === null) idxR.push(i);
    else if (rb[i] === null) idxL.push(i);
    else if (lb[i] === 1 && rb[i] === 1) {
      lSqueeze.push(idxBatch.length + idxL.length + lSqueeze.length);
      rSqueeze.push(idxBatch.length + idxR.length + rSqueeze.length);
      both.push(i);
    } else if (lb[i] === 1) {
      idxR.push(i);
      lSqueeze.push(idxBatch.length + idxL.length + lSqueeze.length);
    } else if (rb[i] === 1) {
      idxL.push(i);
      rSqueeze.push(idxBatch.length + idxR.length + rSqueeze.length);
    } else if (lb[i] === rb[i]) {
      lBatch.push(idxBatch.length + idxL.length);
      rBatch.push(idxBatch.length + idxR.length);
      idxBatch.push(i);
    } else {
      throw new ShapeError(`matmul: ${l.aval} @ ${r.aval}: the batch dimensions [${l.shape.slice(0, -2)}] and [${r.shape.slice(0, -2)}] do not broadcast`);
    }
  }
  if (lMat) idxL.push(n);
  if (rMat) idxR.push(n + (lMat ? 1 : 0));
  const lc = l.ndim - 1;
  const rc = r.ndim === 1 ? 0 : r.ndim - 2;
  if (l.shape[lc] !== r.shape[rc]) {
    throw new ShapeError(
      `matmul: ${l.aval} @ ${r.aval}: the contracted dimensions have sizes ${l.shape[lc]} and ${r.shape[rc]}; they must be equal`,
    );
  }
  if (lSqueeze.length) l = emitHere('matmul', 'squeeze', { dimensions: lSqueeze }, [l]);
  if (rSqueeze.length) r = emitHere('matmul', 'squeeze', { dimensions: rSqueeze }, [r]);
  const dims = [[l.ndim - 1], [r.ndim - 1 - (rMat ? 1 : 0)], lBatch, rBatch];
  const order = [...idxBatch, ...idxL, ...idxR];
  const perm = order.map((_, k) => k).sort((i, j) => order[i] - order[j]); // argsort (the values skip dimensions both squeezed)
  // The result's out_sharding in dot_general's dimension order: without the dimensions expand_dims adds, before the transpose.
  let outDims = null;
  if (outSharding) {
    const kept = outSharding.dims.filter((_, d) => !both.includes(d));
    outDims = { ...outSharding, dims: perm.map((_, k) => kept[perm.indexOf(k)] ?? []) };
  }
  let out = emitHere('matmul', 'dot_general', { dimension_numbers: dims, preferred_element_type: dt, out_sharding: outDims }, [l, r]);
  if (perm.some((p, k) => p !== k)) out = emitHere('matmul', 'transpose', { permutation: perm }, [out]);
  if (both.length) out = emitHere('matmul', 'expand_dims', { dimensions: both }, [out]);
  return out;
});

/**
 * np.dot(a, b), numpy's rule: a scalar operand multiplies; otherwise a's
 * last axis is contracted with b's (b's second to last when b has two or
 * more), the result's axes a's others then b's others, in order:
 * dot(a, b)[i, j, k, m] = sum(a[i, j, :] * b[k, :, m]). `outSharding` as matmul's.
 */
export const dot = (x, y, { outSharding } = {}) => dotOp(x, y, shardingParam(outSharding, 'dot'));

const dotOp = defop('dot', 2, (x, y, outSharding) => {
  const t = traceFor('dot');
  const [a, b] = [traced(t, x, 'dot'), traced(t, y, 'dot')];
  if (a.ndim === 0 || b.ndim === 0) {
    const product = multiply(x, y);
    return outSharding ? emitHere('dot', 'reshard', { dst_sharding: outSharding }, [product]) : product;
  }
  const { dtype: dt, weak } = resultType([avalOf(x, 'dot'), avalOf(y, 'dot')]);
  const [ca, cb] = [a.ndim - 1, b.ndim === 1 ? 0 : b.ndim - 2];
  if (a.shape[ca] !== b.shape[cb]) {
    throw new ShapeError(`dot: ${a.aval} and ${b.aval}: the contracted dimensions have sizes ${a.shape[ca]} and ${b.shape[cb]}; they must be equal`);
  }
  const dims = [[ca], [cb], [], []];
  return emitHere('dot', 'dot_general', { dimension_numbers: dims, preferred_element_type: dt, out_sharding: outSharding }, [asDtype(a, dt, weak), asDtype(b, dt, weak)]);
});

// axis / {axis, keepdims, initial} options of the reductions.
function reductionOpts(opts) {
  if (opts === undefined || opts === null) return { axis: null, keepdims: false };
  if (typeof opts === 'number' || Array.isArray(opts)) return { axis: opts, keepdims: false };
  return { axis: opts.axis ?? null, keepdims: !!opts.keepdims, initial: opts.initial ?? undefined };
}

/**
 * A numpy reduction `name` over `prim`: np.name(x, axis) or np.name(x,
 * {axis, keepdims, initial, where}), its operand `prepare`(x) (bools summed as
 * int32, tested as bools); `initial` joins the reduced elements through
 * `join`. `where` (a mask broadcast to x) leaves elements out, as numpy's:
 * they count as the reduction's `identity`, or as `initial` for max and min,
 * which have none; `finish(out, count)` (mean) divides by the number of
 * elements reduced, the mask's where given.
 */
function reduction(name, prim, { finish, prepare = (v) => v, join, identity } = {}) {
  return withWhere(name, (x, where, opts) => {
    const t = traceFor(name);
    let v = prepare(traced(t, x, name));
    const { axis, keepdims, initial } = reductionOpts(opts);
    const axes =
      axis === null ? v.shape.map((_, i) => i) : [...new Set((Array.isArray(axis) ? axis : [axis]).map((a) => normAxis(a, v.ndim, `np.${name}`)))].sort((a, b) => a - b);
    let count = axes.reduce((n, a) => n * v.shape[a], 1);
    if (where !== undefined) {
      const fill = identity ?? initial;
      if (fill === undefined) {
        throw new ValueError(`np.${name}: reduction operation ${name} does not have an identity, so to use a where mask one has to specify 'initial'`);
      }
      const mask = broadcastTo(truth(traced(t, where, name)), v.shape);
      v = selectWhere(mask, v, fill);
      if (finish) count = sum(mask, { axis: axes });
    }
    let out = emitHere(name, prim, { axes }, [v]);
    if (initial !== undefined) {
      if (!join) throw new ValueError(`np.${name}: takes no initial value`);
      out = join(out, initial);
    }
    if (finish) out = finish(out, count);
    if (keepdims) out = reshape(out, v.shape.map((d, i) => (axes.includes(i) ? 1 : d)));
    return out;
  });
}

// Operation `name` = impl(x, where, opts) taking `where` in its options: the
// mask becomes an array argument of its own (traced or captured as arrays
// are, and never part of an eager program's cache key); without it, where is
// undefined.
// JAX's promote_integers of sum, prod, cumsum and cumprod: a bool or an
// integer narrower than 32 bits is summed as int32 (uint32 when unsigned).
const countable = (v) => (v.dtype === 'bool' || (isInteger(v.dtype) && itemsize(v.dtype) < 4) ? asDtype(v, isUnsigned(v.dtype) ? 'uint32' : 'int32') : v);

/** Sum over `axis` (all by default); np.sum(x, 1) or np.sum(x, {axis: 1, keepdims: true, initial, where}). */
export const sum = reduction('sum', 'reduce_sum', { prepare: countable, join: (s, i) => add(s, i), identity: 0 });
/** Product over `axis` (all by default); {axis, keepdims, initial, where}. */
export const prod = reduction('prod', 'reduce_prod', { prepare: countable, join: (s, i) => multiply(s, i), identity: 1 });
/** Mean over `axis` (float32); {axis, keepdims, where} (the mean of the elements where is true). */
export const mean = reduction('mean', 'reduce_sum', { finish: (s, n) => divide(s, n), identity: 0 });
/** Maximum over `axis`; {initial} joins a value, which makes an empty reduction valid, and is what `where` leaves out count as. */
export const max = reduction('max', 'reduce_max', { join: (s, i) => maximum(s, i) });
/** Minimum over `axis`; {initial, where} as max's. */
export const min = reduction('min', 'reduce_min', { join: (s, i) => minimum(s, i) });
/** Whether any element over `axis` (all by default; {where} as sum's) is nonzero (true), bool: reduce_or, as JAX. */
export const any = reduction('any', 'reduce_or', { prepare: truth, identity: false });
/** Whether every element over `axis` (all by default; {where} as sum's) is nonzero (true), bool: reduce_and, as JAX. */
export const all = reduction('all', 'reduce_and', { prepare: truth, identity: true });

// argmax or argmin over `axis` (the flattened array when null), keepdims as np's.
function argReduction(name, prim) {
  return defop(name, 1, (x, opts) => {
    const { axis, keepdims } = reductionOpts(opts);
    if (Array.isArray(axis)) throw new ValueError(`np.${name}: axis must be an integer or null, got [${axis}]`);
    let v = traced(traceFor(name), x, name);
    if (v.dtype === 'bool') v = asDtype(v, 'int32');
    const a = axis === null ? 0 : normAxis(axis, v.ndim, `np.${name}`);
    const shape = v.shape;
    if (axis === null) v = reshape(v, [v.size]);
    const out = emitHere(name, prim, { axes: [a], index_dtype: 'int32' }, [v]);
    if (!keepdims) return out;
    return reshape(out, axis === null ? shape.map(() => 1) : shape.map((d, i) => (i === a ? 1 : d)));
  });
}

/** The index of the first largest element over `axis` (of the flattened array by default); np.argmax(x, 1) or np.argmax(x, {axis, keepdims}). */
export const argmax = argReduction('argmax', 'argmax');
/** The index of the first smallest element over `axis` (of the flattened array by default). */
export const argmin = argReduction('argmin', 'argmin');
// The running sum or product along `axis` (of the flattened array by default); bools count as int32.
function cumulative(name, prim) {
  return defop(name, 1, (x, opts) => {
    const { axis } = reductionOpts(opts);
    if (Array.isArray(axis)) throw new ValueError(`np.${name}: axis must be an integer or null, got [${axis}]`);
    let v = countable(traced(traceFor(name), x, name));
    if (axis === null) v = reshape(v, [v.size]);
    return emitHere(name, prim, { axis: axis === null ? 0 : normAxis(axis, v.ndim, `np.${name}`), reverse: false }, [v]);
  });
}
/** The running sum along `axis` (of the flattened array by default); bools and narrow integers count as int32 (uint32). */
export const cumsum = cumulative('cumsum', 'cumsum');
/** The running product along `axis` (of the flattened array by default). */
export const cumprod = cumulative('cumprod', 'cumprod');

// cumulative_sum and cumulative_prod: axis optional only for 1-d arrays; include_initial puts the identity first.
function cumulativeOf(name, jaxName, scan, identity) {
  const fn = `np.${jaxName}`;
  return defop(name, 1, (x, { axis = null, dtype = null, includeInitial = false } = {}) => {
    const v = traced(traceFor(name), x, fn);
    if (v.ndim === 0) throw new ValueError(`${fn}: the input must be non-scalar, got a scalar`);
    if (axis === null && v.ndim > 1) {
      throw new ValueError(`${fn}: the input array has rank ${v.ndim}, however axis was not set to an explicit value. The axis argument is only optional for one-dimensional arrays.`);
    }
    const d = axis === null ? 0 : normAxis(axis, v.ndim, fn);
    let out = scan(dtype === null ? v : asDtype(v, dtype, false), { axis: d });
    if (includeInitial) {
      const first = broadcastTo(literalTracer(traceFor(name), identity, out.dtype), v.shape.map((s, i) => (i === d ? 1 : s)));
      out = concatenate([first, out], d);
    }
    return out;
  });
}
/** jnp.cumulative_sum(x, {axis, dtype, includeInitial}): the running sums (a leading 0 with includeInitial). */
export const cumulativeSum = cumulativeOf('cumulativeSum', 'cumulative_sum', cumsum, 0);
/** jnp.cumulative_prod(x, {axis, dtype, includeInitial}): the running products (a leading 1 with includeInitial). */
export const cumulativeProd = cumulativeOf('cumulativeProd', 'cumulative_prod', cumprod, 1);
/** jnp.nancumsum(a, {axis}): the running sum with NaNs counted as 0 (of the flattened array by default). */
export const nancumsum = defop('nancumsum', 1, (x, opts) => {
  const v = traced(traceFor('nancumsum'), x, 'np.nancumsum');
  return cumsum(isFloat(v.dtype) ? selectWhere(isnan(v), 0, v) : v, opts);
});
/** jnp.nancumprod(a, {axis}): the running product with NaNs counted as 1. */
export const nancumprod = defop('nancumprod', 1, (x, opts) => {
  const v = traced(traceFor('nancumprod'), x, 'np.nancumprod');
  return cumprod(isFloat(v.dtype) ? selectWhere(isnan(v), 1, v) : v, opts);
});

/**
 * x with the same elements in `shape` (one entry may be -1), read and written
 * in `order`: 'C' (row-major, the default) or 'F' (column-major: the reverse
 * dimensions' row-major, as jnp.reshape does it, through transposes).
 */
export const reshape = defop('reshape', 1, (x, shape, order = 'C') => {
  if (order === 'F') {
    const reversed = (v) => (v.ndim < 2 ? v : transpose(v));
    return reversed(reshape(reversed(traced(traceFor('reshape'), x, 'reshape')), [...checkDimensions(shape, 'reshape', 'shape', { allowUnknown: true })].reverse()));
  }
  if (order !== 'C') throw new ValueError(`reshape: order must be 'C' or 'F', got ${quote(order)}`);
  const v = traced(traceFor('reshape'), x, 'reshape');
  const s = checkDimensions(shape, 'reshape', 'shape', { allowUnknown: true });
  const unknown = s.indexOf(-1);
  if (unknown >= 0) {
    const known = product(s.filter((_, i) => i !== unknown));
    s[unknown] = known === 0 ? 0 : v.size / known;
  } else {
    checkFits(s, v.dtype, 'reshape'); // a shape that cannot exist, before the count that cannot match
  }
  if (!s.every((d) => Number.isInteger(d) && d >= 0) || product(s) !== v.size) {
    throw new ShapeError(`reshape: cannot reshape ${v.aval} (${v.size} elements) into shape [${shape}]`);
  }
  return same(s, v.shape) ? v : emitHere('reshape', 'reshape', { new_sizes: s }, [v]);
});

/** Permutes dimensions (reverses them by default). */
export const transpose = defop('transpose', 1, (x, axes) => {
  const v = traced(traceFor('transpose'), x, 'transpose');
  const perm = axes ? axes.map((a) => normAxis(a, v.ndim, 'np.transpose')) : v.shape.map((_, i) => v.ndim - 1 - i);
  return emitHere('transpose', 'transpose', { permutation: perm }, [v]);
});

/** Inserts a size-1 dimension at `axis`. */
export const expandDims = defop('expandDims', 1, (x, axis) => {
  const v = traced(traceFor('expandDims'), x, 'expandDims');
  const axes = (Array.isArray(axis) ? axis : [axis]).map((a) => normAxis(a, v.ndim + (Array.isArray(axis) ? axis.length : 1), 'np.expandDims'));
  return emitHere('expandDims', 'expand_dims', { dimensions: axes.sort((a, b) => a - b) }, [v]);
});

/** Removes size-1 dimensions (all of them, or `axis`). */
export const squeeze = defop('squeeze', 1, (x, axis) => {
  const v = traced(traceFor('squeeze'), x, 'squeeze');
  const axes =
    axis === undefined || axis === null
      ? v.shape.flatMap((d, i) => (d === 1 ? [i] : []))
      : (Array.isArray(axis) ? axis : [axis]).map((a) => normAxis(a, v.ndim, 'np.squeeze'));
  return emitHere('squeeze', 'squeeze', { dimensions: axes.sort((a, b) => a - b) }, [v]);
});

/** Joins arrays along an existing axis (0 by default). */
export const concatenate = defop('concatenate', 1, (arrays, axis = 0) => {
  const t = traceFor('concatenate');
  const xs = sequenceOf(arrays, 'concatenate');
  if (xs.length === 0) throw new ValueError('concatenate: give a non-empty list of arrays');
  const { dtype: dt, weak } = resultType(xs.map((x) => avalOf(x, 'concatenate')));
  const vs = xs.map((x) => asDtype(traced(t, x, 'concatenate'), dt, weak));
  return emitHere('concatenate', 'concatenate', { dimension: normAxis(axis, vs[0].ndim, 'np.concatenate') }, vs);
});

/** Stacks arrays along a new axis (0 by default). */
export const stack = defop('stack', 1, (xs, axis = 0) => concatenate(sequenceOf(xs, 'stack').map((x) => expandDims(x, axis)), axis));

/** x converted to `dtype` (any of dtypes.js's DTYPE_NAMES). */
export const astype = defop('astype', 1, (x, dtype) => asDtype(traced(traceFor('astype'), x, 'astype'), dtype, false));

// An operation `name` making an array of `shape` filled with a value.
function filled(name, impl) {
  return defop(name, 0, (shape, ...rest) => {
    const { value, dtype, weak = false } = impl(...rest);
    const s = checkShape(shape, `np.${name}`, dtype);
    const scalar = literalTracer(traceFor(name), value, dtype, weak);
    // A scalar is the literal itself: JAX's lax.full broadcasts nothing for shape ().
    if (!s.length) return scalar;
    return emitHere(name, 'broadcast_in_dim', { shape: s, broadcast_dimensions: [] }, [scalar]);
  });
}

const fullOfScalar = filled('full', (value, dtype, weak) => ({ value, dtype, weak }));
// A fill value that is an array: broadcast to `shape` (numpy's trailing alignment), its dtype unless given.
const fullOfArray = defop('full', 1, (value, shape, dtype) => {
  const v = traced(traceFor('full'), value, 'np.full');
  // A dtype given makes it strong, as JAX's asarray(fill_value, dtype).
  return broadcastTo(asDtype(v, dtype ?? v.dtype, dtype === undefined && v.weakType), shape);
});
/**
 * An array of `shape` filled with `value` (a scalar, of its own dtype unless
 * `dtype` is given, as jnp.full, and then weakly typed as a number is; or an
 * array broadcast to `shape`).
 */
export const full = (shape, value, dtype) => {
  if (!isScalar(value)) return fullOfArray(value, shape, dtype);
  const a = avalOf(value, 'np.full');
  return fullOfScalar(shape, value, dtype ?? a.dtype, dtype === undefined && a.weak);
};
/** Zeros of `shape`. */
export const zeros = filled('zeros', (dtype = 'float32') => ({ value: 0, dtype }));
/** Ones of `shape`. */
export const ones = filled('ones', (dtype = 'float32') => ({ value: 1, dtype }));
/** jnp.empty(shape, dtype): zeros, as JAX's (XLA has no uninitialized arrays). */
export const empty = filled('empty', (dtype = 'float32') => ({ value: 0, dtype }));
// An array like x filled with `value` (a number, or a traced value broadcast
// to the shape), as JAX's full_like: x's dtype and shape unless given,
// weakly typed when x is and no dtype is given, and varying along x's mesh
// axes (JAX 0.11's auto_pcast: ones_like of a per-device value is per-device).
function filledLike(name, x, value, dtype, shape) {
  const a = avalOf(x, `np.${name}`);
  const given = dtype !== undefined && dtype !== null;
  const [dt, weak, s] = [given ? dtype : a.dtype, !given && a.weak, shape ?? a.shape];
  const v = isScalar(value) ? fullOfScalar(s, value, dt, weak) : broadcastTo(asDtype(traced(traceFor(name), value, `np.${name}`), dt, weak), s);
  const missing = isTracer(x) ? x.vma.filter((axis) => !v.vma.includes(axis)) : [];
  return missing.length ? emitHere(name, 'pvary', { axes: missing }, [traced(traceFor(name), v, `np.${name}`)]) : v;
}
/** np.fullLike(x, fillValue, dtype, shape): an array of x's shape and dtype (or those given) filled with fillValue, as jnp.full_like. */
export const fullLike = defop('fullLike', 2, (x, value, dtype, shape) => filledLike('fullLike', x, value, dtype, shape));
/** Zeros of x's shape and dtype (or `dtype`, `shape`; weakly typed when x is and no dtype is given, as jnp.zeros_like). */
export const zerosLike = defop('zerosLike', 1, (x, dtype, shape) => filledLike('zerosLike', x, 0, dtype, shape));
/** Ones of x's shape and dtype (or `dtype`, `shape`), as zerosLike. */
export const onesLike = defop('onesLike', 1, (x, dtype, shape) => filledLike('onesLike', x, 1, dtype, shape));

/** np.arange(stop) or np.arange(start, stop, step, dtype): int32 when every argument is an int (a WeakFloat is a float, whatever its value), else float32 (or `dtype`). */
export const arange = (a, b, step, dtype) => {
  const ints = [a, b, step].every((v) => v === undefined || v === null || (Number.isInteger(v) && !(v instanceof WeakFloat)));
  return arangeOf(a, b, step, dtype ?? (ints ? 'int32' : 'float32'));
};
const arangeOf = defop('arange', 0, (a, b, step, dtype) => {
  const [start, stop] = b === undefined || b === null ? [0, a] : [a, b];
  step ??= 1;
  const n = Math.max(0, Math.ceil((stop - start) / step));
  if (!isDimension(n)) {
    throw new ValueError(`np.arange: start=${quote(start)}, stop=${quote(stop)}, step=${quote(step)} give ${n} elements; give finite numbers and a non-zero step`);
  }
  checkFits([n], dtype, 'np.arange', 'the result');
  let v = emitHere('arange', 'iota', { dtype, shape: [n], dimension: 0 }, []);
  if (step !== 1) v = multiply(v, step);
  if (start !== 0) v = add(v, start);
  return v;
});

/** x broadcast to `shape`. */
export const broadcastTo = defop('broadcastTo', 1, (x, shape) => {
  const v = traced(traceFor('broadcastTo'), x, 'broadcastTo');
  const s = checkShape(shape, 'np.broadcastTo', v.dtype);
  broadcastShapes([v.shape, s], 'np.broadcastTo');
  return broadcastValue(v, s);
});

/** Clips x into [lo, hi]. */
export const clip = defop('clip', 3, (x, lo, hi) => {
  let v = x;
  if (lo !== undefined && lo !== null) v = maximum(v, lo);
  if (hi !== undefined && hi !== null) v = minimum(v, hi);
  return v;
});

// The variance over `axis` of the elements where `where` (undefined: all) is
// true: their squared deviations from their mean summed, divided by n - ddof.
function varianceOf(x, where, opts) {
  const { axis, keepdims } = reductionOpts(opts);
  const ddof = opts?.ddof ?? 0;
  const t = traceFor('var');
  const v = toInexact(traced(t, x, 'var'));
  // The mask once, as bools of v's shape (which mean and sum then take as they are).
  const mask = where === undefined ? undefined : broadcastTo(truth(traced(t, where, 'var')), v.shape);
  const centered = subtract(v, mean(v, { axis, keepdims: true, where: mask }));
  const s = sum(square(centered), { axis, keepdims, where: mask });
  if (mask === undefined) return divide(s, Math.max(0, v.size / s.size - ddof));
  return divide(s, subtract(sum(mask, { axis, keepdims }), ddof));
}
/** The variance over `axis` (all by default; float32, as jnp.var): {axis, keepdims, ddof (0), where}. */
const variance = withWhere('var', varianceOf);
/** The standard deviation over `axis`: sqrt(var), with var's ddof and where. */
export const std = withWhere('std', (x, where, opts) => sqrt(varianceOf(x, where, opts)));
/** The number of nonzero (true) elements over `axis` (all by default), int32. */
export const countNonzero = defop('countNonzero', 1, (x, opts) => sum(notEqual(x, 0), opts));

export { variance as var };
