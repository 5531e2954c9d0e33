// sl.random: jax.random's threefry2x32 PRNG, bit for bit as JAX (with
// jax_threefry_partitionable on, its default since JAX 0.5). A key is a
// uint32 array of shape [2] (PRNGKey) or a typed key (key(), a KeyArray over
// that data). Element i of an array of random bits is the threefry2x32 hash
// of the 64-bit counter i (its high and low words) under the key, the two
// output words xor-ed; split's key i is the hash of counter i itself, so
// fold_in(key, i) equals split(key, n)[i]. The distributions are JAX's
// formulas over those bits (uniform from the mantissa bits, normal through
// erf_inv, randint from two draws and a modulus, permutation by sorting on
// random keys; choice from those; gamma by Marsaglia and Tsang's rejection
// in a while_loop, one key per element).

import { ConcretizationError, OverflowError, ShapeError, ValueError } from '../errors.js';
import * as lax from './lax/index.js';
import { normAxis } from './numpy/helpers.js';
import * as np from './numpy/index.js';
import { concreteValues } from './core/array.js';
import { staticKey } from './core/op.js';
import { avalOf, broadcastShapes, literalTracer, traced, traceFor } from './core/operands.js';
import { runEager } from './core/run.js';
import { checkShape, quote } from './core/shape.js';
import { currentTrace } from './core/state.js';
import { isTracer } from './core/tracer.js';
import { WeakFloat } from './core/weak_float.js';
import { customJvp } from './custom.js';
import { gammaGrad } from './random_gamma_grad.js';
import { vmap } from './vmap.js';
import { isDtypeName, isFloat, isInteger, isUnsigned } from '../dtypes.js';
import { pyTuple } from './core/python_text.js';

/** A typed PRNG key array (jax.random.key): key data of shape [...shape, 2], dtype key<fry>. */
export class KeyArray {
  constructor(data) {
    this.data = data;
  }
  /** The shape of the array of keys (the data's without its last dimension). */
  get shape() {
    return this.data.shape.slice(0, -1);
  }
  /** The number of dimensions. */
  get ndim() {
    return this.shape.length;
  }
  /** JAX's name of the threefry key type. */
  get dtype() {
    return 'key<fry>';
  }
  /** The key data (a tree node over it: jit, vmap and grad see the uint32 data). */
  treeFlatten() {
    return [[this.data], null];
  }
  /** Rebuilds a KeyArray from its data. */
  static treeUnflatten(_, [data]) {
    return new KeyArray(data);
  }
  /** Whether each key equals `other`'s (keys compare by their data, as JAX's key arrays). */
  equal(other) {
    if (!(other instanceof KeyArray)) throw new ValueError(`KeyArray.equal: compares with another key array, got ${other}`);
    return np.all(np.equal(this.data, other.data), { axis: -1 });
  }
  toString() {
    return `Array((${this.shape.join(', ')}${this.ndim === 1 ? ',' : ''}), dtype=key<fry>) overlaying:\n${this.data}`;
  }
}

// The key data of `key` and whether it was typed; errors name `fn`.
function unpack(key, fn) {
  const typed = key instanceof KeyArray;
  const data = typed ? key.data : key;
  let aval;
  try {
    aval = avalOf(data, fn);
  } catch {
    aval = null;
  }
  if (aval && aval.dtype === 'uint32' && aval.shape.length > 1 && aval.shape.at(-1) === 2) {
    const batch = aval.shape.slice(0, -1);
    throw new ValueError(`${fn.replace('random.', '').replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)} accepts a single key, but was given a key array of shape ${pyTuple(batch)} != (). Use jax.vmap for batching.`);
  }
  if (!aval || aval.dtype !== 'uint32' || aval.shape.length !== 1 || aval.shape[0] !== 2) {
    const got = aval ? `${aval.dtype}[${aval.shape}]` : typeof key;
    throw new ValueError(`${fn}: key must be a single PRNG key: a uint32[2] array from PRNGKey or a typed key from key(); got ${got}`);
  }
  return { data, typed };
}

// Runs body(...tracers) in the current trace, or eagerly as one cached program
// keyed by `statics`; `arrays` are the operands (numbers among them are statics).
function run(name, statics, arrays, body) {
  const dyn = [];
  const slots = arrays.map((a) => (typeof a === 'number' ? { n: a } : { i: dyn.push(a) - 1 }));
  const call = (...xs) => body(...slots.map((s) => (s.i === undefined ? s.n : traced(traceFor(`random.${name}`), xs[s.i], `random.${name}`))));
  if (currentTrace()) return call(...dyn);
  return runEager(`random.${name}|${staticKey([statics, slots])}`, call, dyn);
}

const u32 = (v) => lax.convertElementType(v, 'uint32');
const u32Literal = (v) => literalTracer(traceFor('random'), v, 'uint32');
const shapeOf = (shape, fn) => checkShape(shape === undefined || shape === null ? [] : typeof shape === 'number' ? [shape] : shape, fn, 'uint32');

// threefry2x32 of counter (hi, lo) arrays under key data k: its two output words.
function hash(k, hi, lo) {
  const t = traceFor('random');
  const [k1, k2] = [k.at(0).get(), k.at(1).get()];
  return t.emit('threefry2x32', {}, [k1, k2, hi, lo].map((v) => v.atomIn(t)));
}

// The 64-bit counters 0..n-1 of `shape` (row-major) as (hi, lo) uint32 words.
function counters(shape) {
  const n = shape.reduce((a, b) => a * b, 1);
  const lo = np.reshape(lax.iota('uint32', n), shape);
  return [np.zeros(shape, 'uint32'), lo];
}

// 32 random bits per element of `shape`: the two words of the counter's hash xor-ed.
function bitsOf(k, shape) {
  const [o1, o2] = hash(k, ...counters(shape));
  return lax.bitwiseXor(o1, o2);
}

// Key data k split into `shape` keys: key i is the hash of counter i (both words).
function splitOf(k, shape) {
  const [o1, o2] = hash(k, ...counters(shape));
  return np.stack([o1, o2], shape.length);
}

const rewrap = (typed, data) => (typed ? new KeyArray(data) : data);

/** jax.random.PRNGKey(seed): the uint32[2] key [0, seed mod 2^32] of an integer seed (a JS integer or a traced int32/uint32 scalar). */
export const PRNGKey = (seed) => seedKey(seed, 'PRNGKey');

// The key data of an integer seed; errors name `ctor` (PRNGKey or key), as JAX's do.
function seedKey(seed, ctor) {
  if (typeof seed === 'number') {
    if (!Number.isSafeInteger(seed)) throw new ShapeError(`PRNG key seed must be an integer; got ${seed}`);
    const low = ((seed % 2 ** 32) + 2 ** 32) % 2 ** 32;
    return run('PRNGKey', [low], [], () => np.stack([np.zeros([], 'uint32'), np.broadcastTo(u32Literal(low), [])]));
  }
  const { dtype, shape } = avalOf(seed, `random.${ctor}`);
  if (shape.length) {
    throw new ShapeError(`${ctor} accepts a scalar seed, but was given an array of shape ${pyTuple(shape)} != (). Use jax.vmap for batching`);
  }
  if (!isInteger(dtype)) throw new ShapeError(`PRNG key seed must be an integer; got a ${dtype} scalar`);
  return run('PRNGKey', [], [seed], (s) => np.stack([np.zeros([], 'uint32'), u32(s)]));
}

/** jax.random.key(seed, {impl}): a typed key (key<fry>) over the seed's key data; impl, when given, must name threefry2x32. */
export function key(seed, { impl = null } = {}) {
  if (impl !== null && !THREEFRY.includes(String(impl))) {
    throw new ValueError(`random.key: PRNG implementation ${quote(String(impl))} is not available; ShardLab has 'threefry2x32' (key<fry>)`);
  }
  return new KeyArray(seedKey(seed, 'key'));
}

/** jax.random.key_data(keys): the uint32 data of typed keys (raw keys unchanged). */
export const keyData = (keys) => (keys instanceof KeyArray ? keys.data : keys);
// The names of the one PRNG implementation here, as jax.random's impl= and dtype= take it.
const THREEFRY = ['threefry2x32', 'key<fry>'];

/** jax.random.wrap_key_data(data, {impl, dtype}): typed keys over uint32 data of shape [..., 2] (threefry2x32's, the only implementation). */
export function wrapKeyData(data, { impl = null, dtype: keyType = null } = {}) {
  if (impl !== null && keyType !== null) throw new ValueError('random.wrapKeyData: cannot specify both `impl` and `dtype` arguments');
  const named = impl ?? keyType;
  if (named !== null && !THREEFRY.includes(String(named))) {
    throw new ValueError(`random.wrapKeyData: PRNG implementation ${quote(String(named))} is not available; ShardLab has 'threefry2x32' (key<fry>)`);
  }
  const { dtype, shape } = avalOf(data, 'random.wrapKeyData');
  if (dtype !== 'uint32' || shape[shape.length - 1] !== 2) throw new ValueError(`random.wrapKeyData: key data must be uint32 of shape [..., 2], got ${dtype}[${shape}]`);
  return new KeyArray(data);
}

/** jax.random.split(key, num = 2): `num` new keys (or an array of keys of shape `num` when it is a list). */
export function split(key, num = 2) {
  const { data, typed } = unpack(key, 'random.split');
  const shape = shapeOf(num, 'random.split');
  return rewrap(typed, run('split', [shape], [data], (k) => splitOf(k, shape)));
}

/** jax.random.fold_in(key, data): a new key from key and an integer (the same as split(key, n)[data]). */
export function foldIn(key, value) {
  const { data, typed } = unpack(key, 'random.foldIn');
  if (typeof value === 'number' && !Number.isSafeInteger(value)) throw new ValueError(`random.foldIn: data must be an integer, got ${value}`);
  const v = typeof value === 'number' ? ((value % 2 ** 32) + 2 ** 32) % 2 ** 32 : value;
  return rewrap(
    typed,
    run('foldIn', [], [data, v], (k, d) => {
      const [o1, o2] = hash(k, np.zeros([], 'uint32'), typeof d === 'number' ? u32Literal(d) : u32(d));
      return np.stack([o1, o2]);
    }),
  );
}

/** jax.random.bits(key, shape, dtype = 'uint32'): raw random bits. */
export function bits(key, shape = [], dtype = 'uint32') {
  if ((dtype ?? 'uint32') !== 'uint32') {
    throw new ValueError(
      isUnsigned(dtype) ? `random.bits: ShardLab draws uint32 bits only, got ${dtype}; draw uint32 and convert with astype` : `dtype argument to \`bits\` must be an unsigned int dtype, got ${dtype}`,
    );
  }
  const { data } = unpack(key, 'random.bits');
  const s = shapeOf(shape, 'random.bits');
  return run('bits', [s], [data], (k) => bitsOf(k, s));
}

function checkFloat(fn, dtype) {
  if ((dtype ?? 'float32') === 'float32') return;
  if (isDtypeName(dtype) && !isFloat(dtype)) {
    // JAX's words: normal-like samplers take complex dtypes too.
    const kinds = ['normal', 'truncatedNormal'].includes(fn) ? 'a float or complex dtype' : 'a float dtype';
    throw new ValueError(`dtype argument to \`${fn.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}\` must be ${kinds}, got ${dtype}`);
  }
  throw new ValueError(`random.${fn}: ShardLab samples float32 only (JAX draws a ${dtype}'s from bits of its own width), got ${dtype}; sample float32 and convert with astype`);
}

// Floats in [minval, maxval): the top 23 bits as a mantissa of [1, 2), minus 1, scaled; at least minval.
function uniformOf(k, shape, minval, maxval) {
  const mantissa = lax.bitwiseOr(lax.shiftRightLogical(bitsOf(k, shape), u32Literal(9)), u32Literal(0x3f800000));
  const floats = np.subtract(lax.bitcastConvertType(mantissa, 'float32'), 1);
  const lo = np.astype(minval, 'float32');
  const hi = np.astype(maxval, 'float32');
  return np.maximum(lo, np.add(np.multiply(floats, np.subtract(hi, lo)), lo));
}

/** jax.random.uniform(key, shape = [], dtype = 'float32', minval = 0, maxval = 1): floats in [minval, maxval). */
export function uniform(key, shape = [], dtype = 'float32', minval = 0, maxval = 1) {
  [minval, maxval] = [minval ?? 0, maxval ?? 1];
  checkFloat('uniform', dtype);
  const { data } = unpack(key, 'random.uniform');
  const s = shapeOf(shape, 'random.uniform');
  return run('uniform', [s], [data, minval, maxval], (k, lo, hi) => uniformOf(k, s, lo, hi));
}

const SQRT2 = Math.fround(Math.SQRT2);
const NEXT_BELOW_MINUS_ONE = -0.9999999403953552; // nextafter(-1, 0) in float32

/** jax.random.normal(key, shape = [], dtype = 'float32'): standard normal samples, sqrt(2) erf_inv(u) for u uniform in (-1, 1). */
export function normal(key, shape = [], dtype = 'float32') {
  checkFloat('normal', dtype);
  const { data } = unpack(key, 'random.normal');
  const s = shapeOf(shape, 'random.normal');
  return run('normal', [s], [data], (k) => normalOf(k, s));
}

/**
 * random.orthogonal(key, n, shape=[], dtype='float32', m=null): a uniformly
 * (Haar) distributed n x m matrix with orthonormal columns (rows when n < m)
 * per batch index of `shape`, as JAX's: q of the QR of a normal
 * (max(n, m), min(n, m)) matrix, its columns signed by r's diagonal.
 */
export function orthogonal(key, n, shape = [], dtype = 'float32', m = null) {
  checkFloat('orthogonal', dtype);
  const cols = m ?? n;
  for (const [what, v] of [['n', n], ['m', cols]]) {
    if (!Number.isInteger(v) || v < 0) throw new ValueError(`random.orthogonal: ${what} must be a non-negative integer, got ${v}`);
  }
  const { data } = unpack(key, 'random.orthogonal');
  const s = shapeOf(shape, 'random.orthogonal');
  return run('orthogonal', [s, n, cols], [data], (k) => {
    const z = normalOf(k, [...s, Math.max(n, cols), Math.min(n, cols)]);
    const [q, r] = np.linalg.qr(z);
    const x = np.multiply(q, np.expandDims(np.sign(np.linalg.diagonal(r)), -2));
    return n < cols ? np.matrixTranspose(x) : x;
  });
}

// Standard normal samples of `shape` from key data k: sqrt(2) erf_inv(u), u uniform in (-1, 1).
const normalOf = (k, shape) => np.multiply(SQRT2, lax.erfInv(uniformOf(k, shape, NEXT_BELOW_MINUS_ONE, 1)));

/** jax.random.bernoulli(key, p = 0.5, shape): booleans, true with probability p (uniform < p). */
export function bernoulli(key, p = 0.5, shape = null) {
  const { data } = unpack(key, 'random.bernoulli');
  const s = shapeOf(shape ?? avalOf(p, 'random.bernoulli').shape, 'random.bernoulli');
  return run('bernoulli', [s], [data, p], (k, q) => np.less(uniformOf(k, s, 0, 1), np.astype(q, 'float32')));
}

// The range of the integer dtypes randint draws.
const INT_RANGE = { int32: [-2147483648, 2147483647], uint32: [0, 4294967295] };

/**
 * jax.random.randint(key, shape, minval, maxval, dtype = 'int32'): integers
 * in [minval, maxval), as JAX draws them: two 32-bit draws combined modulo
 * the span (maxval <= minval gives minval), in the dtype's arithmetic.
 */
export function randint(key, shape, minval, maxval, dtype = 'int32') {
  const dt = dtype ?? 'int32';
  if (!INT_RANGE[dt]) throw new ValueError(`random.randint: dtype must be an integer dtype ('int32' or 'uint32'), got ${dtype}`);
  const { data } = unpack(key, 'random.randint');
  const s = shapeOf(shape, 'random.randint');
  for (const v of [minval, maxval]) {
    if (typeof v !== 'number' && isFloat(avalOf(v, 'random.randint').dtype)) throw new ValueError('random.randint: minval and maxval must be integers');
  }
  // Number bounds are Python ints: JAX makes them int32 arrays first (an
  // OverflowError outside int32), then clips them to the dtype's range (_convert_and_clip_integer).
  for (const v of [minval, maxval]) {
    if (typeof v === 'number' && !(v >= INT_RANGE.int32[0] && v <= INT_RANGE.int32[1])) {
      throw new OverflowError(`Python int ${v} too large to convert to int32`);
    }
  }
  const [lowest, highest] = INT_RANGE[dt];
  const clip = (v) => (typeof v === 'number' ? Math.min(Math.max(Math.trunc(v), lowest), highest) : v);
  const outOfRange = typeof maxval === 'number' && maxval > highest;
  return run('randint', [s, outOfRange, dt], [data, clip(minval), clip(maxval)], (k, lo, hi) => {
    const int = (v) => (typeof v === 'number' ? literalTracer(traceFor('random.randint'), v, dt) : np.astype(v, dt));
    const [mn, mx] = [int(lo), int(hi)];
    const keys = splitOf(k, [2]);
    const higher = bitsOf(keys.at(0).get(), s);
    const lower = bitsOf(keys.at(1).get(), s);
    let span = u32(np.subtract(mx, mn));
    span = np.where(np.lessEqual(mx, mn), u32Literal(1), span);
    if (outOfRange) span = np.where(np.greater(mx, mn), np.add(span, u32Literal(1)), span);
    let multiplier = lax.rem(np.broadcastTo(u32Literal(2 ** 16), span.shape), span);
    multiplier = lax.rem(np.multiply(multiplier, multiplier), span);
    const offset = lax.rem(np.add(np.multiply(lax.rem(higher, np.broadcastTo(span, s)), np.broadcastTo(multiplier, s)), lax.rem(lower, np.broadcastTo(span, s))), np.broadcastTo(span, s));
    return np.add(mn, lax.convertElementType(offset, dt));
  });
}

// x shuffled along `axis` as JAX does: rounds of sorting by fresh random keys.
function shuffleOf(k, x, axis) {
  const rounds = Math.ceil((3 * Math.log(Math.max(1, x.size))) / Math.log(2 ** 32 - 1));
  let kk = k;
  let v = x;
  const t = traceFor('random.permutation');
  for (let r = 0; r < rounds; r++) {
    const keys = splitOf(kk, [2]);
    kk = keys.at(0).get();
    const sortKeys = bitsOf(keys.at(1).get(), v.shape);
    v = t.emit('sort', { dimension: axis, is_stable: true, num_keys: 1 }, [sortKeys.atomIn(t), v.atomIn(t)])[1];
  }
  return v;
}

/**
 * jax.random.permutation(key, x, axis = 0, independent = false): a random
 * permutation of range(x) for an integer x, else x's slices along `axis`
 * permuted (each one-dimensional slice independently when independent).
 */
export function permutation(key, x, axis = 0, independent = false) {
  const { data } = unpack(key, 'random.permutation');
  if (typeof x === 'number') {
    if (!Number.isInteger(x) || x < 0) throw new ValueError(`random.permutation: x must be a non-negative integer or an array, got ${x}`);
    normAxis(axis, 1, 'random.permutation'); // range(x) has one axis
    return run('permutation', [x], [data], (k) => shuffleOf(k, lax.iota('int32', x), 0));
  }
  const { shape, dtype } = avalOf(x, 'random.permutation');
  if (!shape.length && isTracer(x) && !isFloat(dtype)) {
    throw new ConcretizationError(`random.permutation: x, the number of items to permute, is a traced ${dtype} scalar; it must be a concrete integer (a static argument under jit)`);
  }
  if (!shape.length) throw new ShapeError('random.permutation: x must be an integer or an array of rank 1 or more');
  const ax = normAxis(axis, shape.length, 'random.permutation');
  return run('permutation', [ax, independent], [data, x], (k, v) => {
    if (independent || v.ndim === 1) return shuffleOf(k, v, ax);
    const order = shuffleOf(k, lax.iota('int32', v.shape[ax]), 0);
    return np.take(v, order, { axis: ax, mode: 'clip' });
  });
}

const TINY = 1.1754943508222875e-38; // float32's smallest normal number

// Gumbel samples as JAX's mode "low" draws them: -log(-log(u)), u uniform in [tiny, 1).
const gumbelOf = (k, shape) => np.negative(np.log(np.negative(np.log(uniformOf(k, shape, TINY, 1)))));

/**
 * jax.random.gumbel(key, shape = [], dtype = 'float32', mode = null): samples
 * of density exp(-(x + exp(-x))), JAX's mode "low" (its default): -log(-log(u)).
 */
export function gumbel(key, shape = [], dtype = 'float32', mode = null) {
  checkFloat('gumbel', dtype);
  if (mode !== null && mode !== undefined && mode !== 'low') {
    throw new ValueError(`random.gumbel: mode ${JSON.stringify(mode)} is not supported by ShardLab; its mode is "low" (JAX's default)`);
  }
  const { data } = unpack(key, 'random.gumbel');
  const s = shapeOf(shape, 'random.gumbel');
  return run('gumbel', [s], [data], (k) => gumbelOf(k, s));
}

/** jax.random.exponential(key, shape = [], dtype = 'float32'): samples of density exp(-x), -log1p(-u) as JAX draws them. */
export function exponential(key, shape = [], dtype = 'float32') {
  checkFloat('exponential', dtype);
  const { data } = unpack(key, 'random.exponential');
  const s = shapeOf(shape, 'random.exponential');
  return run('exponential', [s], [data], (k) => np.negative(np.log1p(np.negative(uniformOf(k, s, 0, 1)))));
}

/**
 * jax.random.categorical(key, logits, axis = -1, shape): indices drawn with
 * probabilities softmax(logits) along `axis` (the Gumbel-max trick, as JAX).
 */
export function categorical(key, logits, axis = -1, shape = null) {
  const { data } = unpack(key, 'random.categorical');
  const ls = avalOf(logits, 'random.categorical').shape;
  const ax = normAxis(axis, ls.length, 'random.categorical');
  const batch = ls.filter((_, d) => d !== ax);
  const s = shape === null ? batch : shapeOf(shape, 'random.categorical');
  // As JAX's _check_shape: the batch shape broadcasts to the shape argument.
  const broadcast = s.length >= batch.length && batch.every((n, i) => n === 1 || n === s[s.length - batch.length + i]);
  if (!broadcast) {
    throw new ValueError(
      `categorical parameter shapes must be broadcast-compatible with shape argument, and the result of broadcasting the shapes must equal the shape argument, but got logits' batch shape ${pyTuple(batch)} for shape argument ${pyTuple(s)}.`,
    );
  }
  const prefix = s.slice(0, s.length - batch.length);
  // The Gumbel noise has the shape's batch dimensions with the logits' axis put back, as JAX draws it.
  const full = [...s];
  full.splice(prefix.length + ax, 0, ls[ax]);
  return run('categorical', [full, ax, prefix.length], [data, logits], (k, l) => {
    const gumbel = gumbelOf(k, full);
    const lifted = prefix.length ? np.reshape(l, [...prefix.map(() => 1), ...ls]) : l;
    return np.argmax(np.add(gumbel, lifted), ax + prefix.length);
  });
}

/**
 * jax.random.truncated_normal(key, lower, upper, shape): standard normal
 * samples conditioned on (lower, upper), by the inverse CDF.
 */
export function truncatedNormal(key, lower, upper, shape = null, dtype = 'float32') {
  checkFloat('truncatedNormal', dtype);
  const { data } = unpack(key, 'random.truncatedNormal');
  const s = shapeOf(shape ?? broadcastShapes([avalOf(lower, 'random.truncatedNormal').shape, avalOf(upper, 'random.truncatedNormal').shape], 'random.truncatedNormal'), 'random.truncatedNormal');
  return run('truncatedNormal', [s], [data, lower, upper], (k, lo, hi) => {
    const [l, u] = [np.astype(lo, 'float32'), np.astype(hi, 'float32')];
    const a = lax.erf(np.divide(l, SQRT2));
    const b = lax.erf(np.divide(u, SQRT2));
    const out = np.multiply(SQRT2, lax.erfInv(uniformOf(k, s, a, b)));
    return np.clip(out, lax.nextafter(lax.stopGradient(l), Infinity), lax.nextafter(lax.stopGradient(u), -Infinity));
  });
}

/**
 * jax.random.choice(key, a, shape = [], replace = true, p = null, axis = 0,
 * mode = null): a sample of a's slices along `axis` (of range(a) for an
 * integer a) in place of that axis, as JAX draws it: uniform indices
 * (randint) with replacement, the first of a permutation without; with
 * weights p, searchsorted(cumsum(p), cumsum(p)[-1] (1 - u)) with
 * replacement, the top k of Gumbel noise + log p without.
 */
export function choice(key, a, shape = [], replace = true, p = null, axis = 0, mode = null) {
  const fn = 'random.choice';
  const { data } = unpack(key, fn);
  if (!Array.isArray(shape)) throw new ShapeError(`shape argument of jax.random.choice must be a sequence, got ${shape}`);
  const s = shapeOf(shape, fn);
  const { shape: aShape, dtype } = avalOf(a, fn);
  const scalar = !aShape.length;
  let nInputs;
  let ax = axis;
  if (scalar) {
    // As JAX's concrete_or_error(int, a): a scalar a is the population's size, which the result's shape needs.
    if (isTracer(a)) {
      throw new ConcretizationError(
        `random.choice: a, the size of the population, is a traced ${dtype} scalar; it must be concrete (a static argument under jit). The error occurred in jax.random.choice()`,
      );
    }
    nInputs = Math.trunc(Number(a instanceof WeakFloat ? a.value : concreteValues(a, fn)[0]));
  } else {
    ax = normAxis(axis, aShape.length, fn);
    nInputs = aShape[ax];
  }
  if (isTracer(replace)) throw new ConcretizationError('random.choice: replace is a traced value; it must be a concrete bool (a static argument under jit)');
  const nDraws = s.reduce((x, y) => x * y, 1);
  if (nDraws === 0) return np.zeros(s, dtype); // JAX's shape here, not a's with the axis replaced
  if (nInputs <= 0) throw new ValueError('a must be greater than 0 unless no samples are taken');
  if (!replace && nDraws > nInputs) {
    throw new ValueError(`Cannot take a larger sample (size ${nDraws}) than population (size ${nInputs}) when 'replace=False'`);
  }
  const weighted = p !== null && p !== undefined;
  if (weighted) {
    const { shape: pShape, dtype: pDtype } = avalOf(p, fn);
    if (isFloat(pDtype) && pDtype !== 'float32') {
      throw new ValueError(`random.choice: ShardLab samples float32 only (JAX draws with p's dtype, ${pDtype}); give p as float32`);
    }
    if (pShape.length !== 1 || pShape[0] !== nInputs) {
      throw new ValueError(`p must be None or a 1D vector with the same size as a.shape[axis]. p has shape ${pyTuple(pShape)} and a.shape[axis] is ${nInputs}.`);
    }
  }
  const outShape = scalar ? s : [...aShape.slice(0, ax), ...s, ...aShape.slice(ax + 1)];
  const operands = [data, ...(scalar ? [] : [a]), ...(weighted ? [p] : [])];
  return run('choice', [s, Boolean(replace), ax, nInputs, scalar, weighted, mode], operands, (k, ...rest) => {
    const arr = scalar ? null : rest[0];
    // Indices into a's axis (or the sample itself, for an integer a).
    let ind;
    if (!weighted && replace) ind = randint(k, s, 0, nInputs);
    else if (!weighted) {
      // A scalar a hands its own axis to permutation, which checks it against range(a)'s one axis.
      const perm = permutation(k, scalar ? nInputs : arr, scalar ? axis : ax);
      return np.reshape(lax.sliceInDim(perm, 0, nDraws, 1, scalar ? 0 : ax), outShape);
    } else {
      // promote_dtypes_inexact: integer or bool weights become float32.
      const w = np.astype(rest[scalar ? 0 : 1], 'float32');
      if (replace) {
        // Inverse CDF: the first i with cumsum(p)[i] >= total (1 - u), u uniform in [0, 1).
        const cum = np.cumsum(w);
        const r = np.multiply(cum.at(nInputs - 1).get(), np.subtract(1, uniform(k, s)));
        ind = np.searchsorted(cum, r);
      } else {
        // Gumbel top-k: the k largest of log p_i + G_i are a sample without replacement.
        const g = np.add(gumbel(k, [nInputs], 'float32', mode), np.log(w));
        ind = lax.topK(g, nDraws)[1];
      }
    }
    return np.reshape(scalar ? ind : np.take(arr, ind, { axis: ax }), outShape);
  });
}

// JAX's _check_shape: the parameters' shapes must broadcast with `shape` to `shape` itself.
function checkSampleShape(name, shape, ...paramShapes) {
  const all = [shape, ...paramShapes];
  let out;
  try {
    out = broadcastShapes(all, `random.${name}`);
  } catch {
    throw new ValueError(`Incompatible shapes for broadcasting: shapes=[${all.map(pyTuple).join(', ')}]`);
  }
  if (out.length !== shape.length || out.some((d, i) => d !== shape[i])) {
    throw new ValueError(
      `${name} parameter shapes must be broadcast-compatible with shape argument, and the result of broadcasting the shapes must equal the shape argument, but got result ${pyTuple(out)} for shape argument ${pyTuple(shape)}.`,
    );
  }
}

const THIRD = Math.fround(1 / 3);
const SQUEEZE = Math.fround(0.0331);

/*
 * One Gamma(alpha) sample (its log with logSpace) from key data k, JAX's
 * _gamma_one: Marsaglia and Tsang's method, "A simple method for generating
 * gamma variables" (2000). For alpha >= 1, with d = alpha - 1/3 and
 * c = 1 / (3 sqrt(d)): draw x ~ N(0, 1) until v = 1 + c x > 0, set V = v^3,
 * draw U uniform, and accept d V when U < 1 - 0.0331 x^4 (the squeeze) or
 * log U < x^2 / 2 + d (1 - V + log V); else draw again. alpha < 1 is boosted:
 * Gamma(alpha) ~ Gamma(alpha + 1) U'^(1 / alpha), or in log space
 * log Gamma(alpha + 1) + log(U') / alpha, log U' drawn as -Exponential
 * (log1p(-u), so that both spaces take U' = 1 - u alike). The keys are
 * JAX's: split(k) = (loop key, U' key), each rejection round split(loop
 * key, 3) = (next, x key, U key), each draw of x split(x key) = (next, x's key).
 */
function gammaOne(k, alpha, logSpace) {
  const f32 = (v) => np.full([], v, 'float32');
  const [zero, one, two, minusOne] = [0, 1, 2, -1].map(f32);
  const boostMask = np.greaterEqual(alpha, one);
  const boosted = np.where(boostMask, alpha, np.add(alpha, one));
  const d = np.subtract(boosted, THIRD);
  const c = np.divide(THIRD, np.sqrt(d));
  const keys = splitOf(k, [2]);
  // Loop while the candidate is rejected; X holds x^2. The first state (U = 2) is rejected.
  const rejected = ([, X, V, U]) =>
    np.logicalAnd(
      np.greaterEqual(U, np.subtract(one, np.multiply(SQUEEZE, np.multiply(X, X)))),
      np.greaterEqual(np.log(U), np.add(np.multiply(X, 0.5), np.multiply(d, np.add(np.subtract(one, V), np.log(V))))),
    );
  const candidate = ([loopKey]) => {
    const ks = splitOf(loopKey, [3]);
    const [, x, v] = lax.whileLoop(
      ([, , vv]) => np.lessEqual(vv, zero),
      ([xKey]) => {
        const pair = splitOf(xKey, [2]);
        const xx = normalOf(pair.at(1).get(), []);
        return [pair.at(0).get(), xx, np.add(one, np.multiply(xx, c))];
      },
      [ks.at(1).get(), zero, minusOne],
    );
    return [ks.at(0).get(), np.multiply(x, x), np.multiply(np.multiply(v, v), v), uniformOf(ks.at(2).get(), [], 0, 1)];
  };
  const [, , V] = lax.whileLoop(rejected, candidate, [keys.at(0).get(), zero, one, two]);
  const boostKey = keys.at(1).get();
  if (logSpace) {
    const logSamples = np.negative(np.negative(np.log1p(np.negative(uniformOf(boostKey, [], 0, 1)))));
    // log U' = 0 with alpha = 0 would be 0 * inf: the boost is 0 there.
    const logBoost = np.where(np.logicalOr(boostMask, np.equal(logSamples, zero)), zero, np.multiply(logSamples, np.divide(one, alpha)));
    return np.add(np.add(np.log(d), np.log(V)), logBoost);
  }
  const samples = np.subtract(1, uniformOf(boostKey, [], 0, 1));
  const boost = np.where(boostMask, one, np.power(samples, np.divide(one, alpha)));
  return np.multiply(np.multiply(d, V), boost);
}

// Samples for float32 alphas of any shape: element i from split(k, alphas.size)[i] (JAX's _gamma_impl, vmapped as on CPU).
function gammaSamples(k, alphas, logSpace) {
  const n = alphas.shape.reduce((x, y) => x * y, 1);
  if (n === 0) return np.zeros(alphas.shape, 'float32');
  const keys = splitOf(k, [n]);
  const out = vmap((kk, al) => gammaOne(kk, al, logSpace))(keys, np.reshape(alphas, [n]));
  return np.reshape(out, alphas.shape);
}

// gamma's samples as a custom_jvp function of (key data, alphas), JAX's
// random_gamma_p: its derivative is the implicit reparameterization
// gradient, d sample = d alpha * random_gamma_grad(alpha, sample), never the
// derivative through the rejection loop.
const gammaDifferentiable = [false, true].map((logSpace) => {
  const f = customJvp((k, alphas) => gammaSamples(k, alphas, logSpace), { name: logSpace ? 'random_loggamma' : 'random_gamma' });
  f.defjvp(
    ([k, alphas], [, dAlphas]) => {
      const y = f(k, alphas);
      return [y, np.multiply(dAlphas, gammaGrad(y, alphas, logSpace))];
    },
    { name: 'random_gamma_jvp' },
  );
  return f;
});

function gammaOf(fn, key, a, shape, dtype, logSpace) {
  const { data } = unpack(key, `random.${fn}`);
  // JAX names gamma in this error for loggamma too.
  if (isDtypeName(dtype ?? 'float32') && !isFloat(dtype ?? 'float32')) throw new ValueError(`dtype argument to \`gamma\` must be a float dtype, got ${dtype}`);
  checkFloat(fn, dtype);
  const aShape = avalOf(a, `random.${fn}`).shape;
  const s = shape === null || shape === undefined ? aShape : shapeOf(shape, `random.${fn}`);
  if (s !== aShape) checkSampleShape('gamma', s, aShape);
  return run(fn, [s], [data, a], (k, alpha) => gammaDifferentiable[logSpace ? 1 : 0](k, np.broadcastTo(np.astype(alpha, 'float32'), s)));
}

/**
 * jax.random.gamma(key, a, shape = a's shape, dtype = 'float32'): samples of
 * density x^(a-1) e^-x / Gamma(a), bit for bit JAX's (Marsaglia and Tsang's
 * rejection in a while_loop, element i drawn with split(key, size)[i]);
 * differentiable in a by JAX's implicit reparameterization gradient.
 */
export const gamma = (key, a, shape = null, dtype = 'float32') => gammaOf('gamma', key, a, shape, dtype, false);

/**
 * jax.random.loggamma(key, a, shape = a's shape, dtype = 'float32'): the logs
 * of gamma's samples computed in log space (accurate where a << 1 makes the
 * samples underflow): exp(loggamma) matches gamma to float32 rounding.
 */
export const loggamma = (key, a, shape = null, dtype = 'float32') => gammaOf('loggamma', key, a, shape, dtype, true);
