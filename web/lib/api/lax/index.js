// sl.lax: the collectives of a shard_map body (over one mesh axis or
// several) and the primitives numpy has no name for. Collectives take trees,
// as jax.lax's do.

import { ValueError } from '../../errors.js';
import { isArray, shardingParam } from '../core/array.js';
import { defop } from '../core/op.js';
import { avalOf, literalTracer, traced, traceFor } from '../core/operands.js';
import { isLeafValue } from '../core/run.js';
import { isTracer } from '../core/tracer.js';
import { laxFunction } from './parallel.js';

export { axisSize } from './parallel.js';
export { withShardingConstraint } from '../resharding.js';
import { checkShape, isDimension, MAX_DIMENSION, quote } from '../core/shape.js';
import { flatten, unflatten } from '../core/tree.js';
import { isFloat } from '../../dtypes.js';

export { cond, foriLoop, scan, switchBranches as switch, whileLoop } from './control_flow.js';

// The collectives, pmean and pcast: built from the core registry's record of
// each (./parallel.js), which states their arguments once.

/** jax.lax.psum(x, axisName): the sum over the devices along the axes (x may be a tree; one psum for all its leaves). */
export const psum = laxFunction('psum');
/** jax.lax.pmean: psum divided by the number of devices along the axes. */
export const pmean = laxFunction('pmean');
/** jax.lax.pmax. */
export const pmax = laxFunction('pmax');
/** jax.lax.pmin. */
export const pmin = laxFunction('pmin');
/** jax.lax.all_gather(x, axisName, {axis, tiled}). */
export const allGather = laxFunction('all_gather');
/** jax.lax.psum_scatter(x, axisName, {scatterDimension, tiled}). */
export const psumScatter = laxFunction('psum_scatter');
/** jax.lax.ppermute(x, axisName, perm): perm lists [source, destination] positions. */
export const ppermute = laxFunction('ppermute');
/** jax.lax.all_to_all(x, axisName, splitAxis, concatAxis, {tiled}). */
export const allToAll = laxFunction('all_to_all');
/** jax.lax.axis_index(axisName): this device's position along the axes (int32, varying). */
export const axisIndex = laxFunction('axis_index');
/** jax.lax.pcast(tree, axisName, {to: 'varying'}): marks values as varying along the axes (pvary). */
export const pcast = laxFunction('pcast');
/** jax.lax.pvary(tree, axisName): pcast to varying. */
export const pvary = (tree, axisName) => pcast(tree, axisName, { to: 'varying' });

function prim(name, primName, arrays, params) {
  return defop(`lax.${name}`, arrays, (...args) => {
    const t = traceFor(`lax.${name}`);
    const xs = args.slice(0, arrays).map((x) => traced(t, x, `lax.${name}`));
    return t.emit(primName, params(...args), xs.map((x) => x.atomIn(t)))[0];
  });
}

const stopLeaf = prim('stopGradient', 'stop_gradient', 1, () => ({}));
/**
 * jax.lax.stop_gradient(tree): the same values, with derivative zero. As in
 * JAX, only floating leaves get a stop_gradient equation; the rest pass through.
 */
export function stopGradient(tree) {
  const { leaves, def } = flatten(tree, isLeafValue);
  return unflatten(
    def,
    leaves.map((x) => (isFloat(avalOf(x, 'lax.stopGradient').dtype) ? stopLeaf(x) : x)),
  );
}

/**
 * jax.lax.dot_general(x, y, [[lhsContract, rhsContract], [lhsBatch, rhsBatch]], {outSharding}):
 * `outSharding` types the result where the operands' shardings leave it
 * ambiguous, as JAX's out_sharding=.
 */
export const dotGeneral = (x, y, dimensionNumbers, { outSharding } = {}) => dotGeneralOp(x, y, dimensionNumbers, shardingParam(outSharding, 'lax.dotGeneral'));

const dotGeneralOp = prim('dotGeneral', 'dot_general', 2, (x, y, [[lc, rc], [lb, rb]], outSharding) => ({
  dimension_numbers: [lc, rc, lb, rb],
  preferred_element_type: x.dtype ?? 'float32',
  out_sharding: outSharding,
}));
/** jax.lax.slice(x, startIndices, limitIndices, strides?). */
export const slice = prim('slice', 'slice', 1, (x, start, limit, strides = []) => ({
  start_indices: start,
  limit_indices: limit,
  strides,
}));
/** jax.lax.broadcast_in_dim(x, shape, broadcastDimensions). */
export const broadcastInDim = prim('broadcastInDim', 'broadcast_in_dim', 1, (x, shape, dims) => ({
  shape: checkShape(shape, 'lax.broadcastInDim', avalOf(x, 'lax.broadcastInDim').dtype),
  broadcast_dimensions: dims,
}));
const convertLeaf = prim('convertElementType', 'convert_element_type', 1, (x, dtype) => ({ new_dtype: dtype, weak_type: false }));
/**
 * jax.lax.convert_element_type(x, dtype): x as a strongly typed dtype array.
 * As in JAX, an array or traced value already of that dtype, not weakly
 * typed, is returned as it is: no equation.
 */
export function convertElementType(x, dtype) {
  if ((isTracer(x) || isArray(x)) && x.dtype === dtype && !x.weakType) return x;
  return convertLeaf(x, dtype);
}
/** jax.lax.iota(dtype, size). */
export const iota = prim('iota', 'iota', 0, (dtype, size) => {
  if (!isDimension(size)) throw new ValueError(`lax.iota: size is ${quote(size)}; it must be an integer in 0..${MAX_DIMENSION}`);
  return { dtype, shape: checkShape([size], 'lax.iota', dtype), dimension: 0 };
});
/** jax.lax.shift_left(x, y): integers; 0 for shifts of 32 or more. */
export const shiftLeft = prim('shiftLeft', 'shift_left', 2, () => ({}));
/** jax.lax.shift_right_logical(x, y): zeros fill from the left. */
export const shiftRightLogical = prim('shiftRightLogical', 'shift_right_logical', 2, () => ({}));
/** jax.lax.shift_right_arithmetic(x, y): the sign bit fills from the left. */
export const shiftRightArithmetic = prim('shiftRightArithmetic', 'shift_right_arithmetic', 2, () => ({}));
/** jax.lax.bitwise_and(x, y). */
export const bitwiseAnd = prim('bitwiseAnd', 'and', 2, () => ({}));
/** jax.lax.bitwise_or(x, y). */
export const bitwiseOr = prim('bitwiseOr', 'or', 2, () => ({}));
/** jax.lax.bitwise_xor(x, y). */
export const bitwiseXor = prim('bitwiseXor', 'xor', 2, () => ({}));
/** jax.lax.bitwise_not(x). */
export const bitwiseNot = prim('bitwiseNot', 'not', 1, () => ({}));
/** jax.lax.bitcast_convert_type(x, newDtype): the same bits read as another dtype of the same width. */
export const bitcastConvertType = prim('bitcastConvertType', 'bitcast_convert_type', 1, (x, newDtype) => ({ new_dtype: newDtype }));
/** jax.lax.erf(x). */
export const erf = prim('erf', 'erf', 1, () => ({}));
/** jax.lax.erf_inv(x). */
export const erfInv = prim('erfInv', 'erf_inv', 1, () => ({}));
/** jax.lax.nextafter(x, y): the float32 next to x towards y. */
export const nextafter = prim('nextafter', 'nextafter', 2, () => ({}));
/** jax.lax.rev(x, dimensions): x reversed along the listed dimensions. */
export const rev = prim('rev', 'rev', 1, (x, dimensions) => ({ dimensions }));
/** jax.lax.rem(x, y): the remainder of truncating division (the sign of x); operands of one shape and dtype. */
export const rem = prim('rem', 'rem', 2, () => ({}));
/** jax.lax.div(x, y): x / y, truncating for integers (C's division, not numpy's floor); operands of one shape and dtype. */
export const div = prim('div', 'div', 2, () => ({}));
/** jax.lax.floor(x). */
export const floor = prim('floor', 'floor', 1, () => ({}));
/** jax.lax.round(x, roundingMethod): 0 rounds halves away from zero (the default), 1 to even. */
export const round = prim('round', 'round', 1, (x, roundingMethod = 0) => ({ rounding_method: roundingMethod }));
/** jax.lax.rsqrt(x). */
export const rsqrt = prim('rsqrt', 'rsqrt', 1, () => ({}));
/** jax.lax.logistic(x) = 1 / (1 + e^-x). */
export const logistic = prim('logistic', 'logistic', 1, () => ({}));
/** jax.lax.select_n(which, ...cases): cases[which] elementwise (which bool or int32); every argument an array. */
export const selectN = defop('lax.selectN', Infinity, (which, ...cases) => {
  const t = traceFor('lax.selectN');
  return t.emit('select_n', {}, [which, ...cases].map((v) => traced(t, v, 'lax.selectN').atomIn(t)))[0];
});
/** jax.lax.select(pred, onTrue, onFalse): select_n(pred, onFalse, onTrue), elementwise. */
export const select = (pred, onTrue, onFalse) => selectN(pred, onFalse, onTrue);
/** jax.lax.reduce_sum / max / min over `axes`. */
export const reduceSum = prim('reduceSum', 'reduce_sum', 1, (x, axes) => ({ axes }));
/** jax.lax.reduce_max over `axes`. */
export const reduceMax = prim('reduceMax', 'reduce_max', 1, (x, axes) => ({ axes }));
/** jax.lax.reduce_min over `axes`. */
export const reduceMin = prim('reduceMin', 'reduce_min', 1, (x, axes) => ({ axes }));

/** jax.lax.argmax(x, axis, indexDtype): the index of the first largest element along `axis`. */
export const argmax = prim('argmax', 'argmax', 1, (x, axis, indexDtype = 'int32') => ({ axes: [axis], index_dtype: indexDtype }));
/** jax.lax.argmin(x, axis, indexDtype): the index of the first smallest element along `axis`. */
export const argmin = prim('argmin', 'argmin', 1, (x, axis, indexDtype = 'int32') => ({ axes: [axis], index_dtype: indexDtype }));
/** jax.lax.cumsum(x, {axis, reverse}): the running sum along `axis` (0), from the end when reverse. */
export const cumsum = prim('cumsum', 'cumsum', 1, (x, { axis = 0, reverse = false } = {}) => ({ axis, reverse }));
/** jax.lax.cumprod(x, {axis, reverse}): the running product along `axis` (0), from the end when reverse. */
export const cumprod = prim('cumprod', 'cumprod', 1, (x, { axis = 0, reverse = false } = {}) => ({ axis, reverse }));

/** jax.lax.dynamic_slice(x, startIndices, sliceSizes): start indices may be traced int32 scalars. */
export const dynamicSlice = defop('lax.dynamicSlice', 1, (x, starts, sizes) => {
  const t = traceFor('lax.dynamicSlice');
  const idx = starts.map((s) => (typeof s === 'number' ? literalTracer(t, s, 'int32') : traced(t, s, 'lax.dynamicSlice')));
  return t.emit('dynamic_slice', { slice_sizes: sizes }, [traced(t, x, 'lax.dynamicSlice'), ...idx].map((v) => v.atomIn(t)))[0];
});
/** jax.lax.dynamic_update_slice(x, update, startIndices). */
export const dynamicUpdateSlice = defop('lax.dynamicUpdateSlice', 2, (x, update, starts) => {
  const t = traceFor('lax.dynamicUpdateSlice');
  const idx = starts.map((s) => (typeof s === 'number' ? literalTracer(t, s, 'int32') : traced(t, s, 'lax.dynamicUpdateSlice')));
  const ops = [traced(t, x, 'lax.dynamicUpdateSlice'), traced(t, update, 'lax.dynamicUpdateSlice'), ...idx];
  return t.emit('dynamic_update_slice', {}, ops.map((v) => v.atomIn(t)))[0];
});

export * from './slicing.js';
export { sort, sortKeyVal, topK } from './sorting.js';
export { associativeScan } from './associative_scan.js';
export * as linalg from './linalg.js';
