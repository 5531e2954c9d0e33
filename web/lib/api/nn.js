// sl.nn: the activation and normalisation functions of jax.nn.

import { customJvp } from './custom.js';
import { defop } from './op.js';
import * as np from './np.js';
import * as lax from './lax.js';

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
