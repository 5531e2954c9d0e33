// sl.nn: the activation and normalisation functions of jax.nn (and logsumexp,
// also jax.scipy.special.logsumexp).

import { ValueError } from '../errors.js';
import { customJvp } from './custom.js';
import { defop } from './core/op.js';
import * as np from './numpy/index.js';
import * as lax from './lax/index.js';

/**
 * max(x, 0), with derivative 0 at 0: a custom_jvp function as in JAX (whose
 * own derivative of max would give 0.5 there).
 */
export const relu = customJvp((x) => np.maximum(x, 0), { name: 'relu' });
relu.defjvps((g, ans, x) => lax.select(np.greater(x, 0), g, np.zerosLike(g)));
/** 1 / (1 + e^-x). */
export const sigmoid = defop('nn.sigmoid', 1, (x) => lax.logistic(np.astype(x, 'float32')));
/** GELU in its tanh approximation (jax.nn.gelu with approximate=True, the default). */
export const gelu = defop('nn.gelu', 1, (x) => {
  const inner = np.multiply(Math.sqrt(2 / Math.PI), np.add(x, np.multiply(0.044715, np.power(x, 3))));
  return np.multiply(np.multiply(0.5, x), np.add(1, np.tanh(inner)));
});
/** exp(x) / sum(exp(x)) along `axis` (default -1), shifted by the max for stability. */
export const softmax = defop('nn.softmax', 1, (x, { axis = -1 } = {}) => {
  const e = np.exp(np.subtract(x, np.max(x, { axis, keepdims: true })));
  return np.divide(e, np.sum(e, { axis, keepdims: true }));
});
/** log(softmax(x)) along `axis` (default -1), computed stably. */
export const logSoftmax = defop('nn.logSoftmax', 1, (x, { axis = -1 } = {}) => {
  const shifted = np.subtract(x, np.max(x, { axis, keepdims: true }));
  return np.subtract(shifted, np.log(np.sum(np.exp(shifted), { axis, keepdims: true })));
});
/** x * sigmoid(x) (jax.nn.silu, also swish). */
export const silu = defop('nn.silu', 1, (x) => np.multiply(x, sigmoid(x)));
export { silu as swish };
/** log(1 + e^x) = logaddexp(x, 0), as jax.nn.softplus: no overflow, and smooth derivatives of every order. */
export const softplus = defop('nn.softplus', 1, (x) => np.logaddexp(x, 0));
/** x for x > 0, alpha * (e^x - 1) otherwise (alpha = 1). */
export const elu = defop('nn.elu', 1, (x, alpha = 1) => {
  const positive = np.greater(x, 0);
  return np.where(positive, x, np.multiply(alpha, np.expm1(np.where(positive, 0, x))));
});
/** x for x >= 0, negativeSlope * x otherwise (0.01). */
export const leakyRelu = defop('nn.leakyRelu', 1, (x, negativeSlope = 0.01) => np.where(np.greaterEqual(x, 0), x, np.multiply(negativeSlope, x)));
/**
 * One-hot encoding: an array with a new last axis of `numClasses` entries,
 * 1 where the entry's index equals x (float32 by default; indices out of
 * range give a row of zeros), as jax.nn.one_hot.
 */
export const oneHot = defop('nn.oneHot', 1, (x, numClasses, { dtype = 'float32' } = {}) => {
  if (!Number.isInteger(numClasses) || numClasses < 0) {
    throw new ValueError(`nn.oneHot: numClasses is ${numClasses}; it must be a non-negative integer`);
  }
  return np.astype(np.equal(np.expandDims(x, -1), np.arange(numClasses)), dtype ?? 'float32');
});
/**
 * log(sum(exp(a))) over `axis` (every axis by default), shifted by the
 * maximum (held constant for the derivative, as JAX's) so it does not overflow.
 */
export const logsumexp = defop('nn.logsumexp', 1, (a, { axis = null, keepdims = false } = {}) => {
  const top = np.max(a, { axis, keepdims: true });
  const shift = lax.stopGradient(np.where(np.isfinite(top), top, 0));
  const out = np.add(np.log(np.sum(np.exp(np.subtract(a, shift)), { axis, keepdims: true })), shift);
  return keepdims ? out : np.reshape(out, np.sum(a, { axis }).shape);
});
/**
 * (x - mean) / sqrt(variance + epsilon) over `axis` (-1); the mean and
 * variance are x's unless given, as jax.nn.standardize.
 */
// (Not a defop: mean and variance may be arrays, which an eager program's cache key cannot hold.)
export function standardize(x, { axis = -1, mean = null, variance = null, epsilon = 1e-5 } = {}) {
  const m = mean ?? np.mean(x, { axis, keepdims: true });
  const v = variance ?? np.subtract(np.mean(np.square(x), { axis, keepdims: true }), np.square(m));
  // float32 as JS numbers are floats: variance 1 and epsilon 0 (no 1.0 in JS) make no int32 rsqrt.
  return np.multiply(np.subtract(x, m), lax.rsqrt(np.astype(np.add(v, epsilon), 'float32')));
}
