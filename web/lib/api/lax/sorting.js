// jax.lax.top_k: the k largest elements along the last axis, as a stable
// descending argsort cut to k (XLA's TopK orders equal elements by position).

import { ValueError } from '../../errors.js';
import { defop } from '../core/op.js';
import { traced, traceFor } from '../core/operands.js';
import { takeAlongAxis } from '../numpy/indexing.js';
import { argsort } from '../numpy/sorting.js';
import { sliceInDim } from './slicing.js';

/** lax.top_k(operand, k): the k largest elements along the last axis, largest first, and their int32 positions (the earlier of equal elements first). */
export const topK = defop('topK', 1, (operand, k) => {
  const v = traced(traceFor('topK'), operand, 'lax.top_k');
  if (v.ndim === 0) throw new ValueError('lax.top_k: operand must have at least one dimension, got a scalar');
  const n = v.shape[v.ndim - 1];
  if (!Number.isInteger(k) || k < 0 || k > n) throw new ValueError(`lax.top_k: k must be an integer between 0 and the last dimension (${n}), got ${k}`);
  const order = sliceInDim(argsort(v, { axis: -1, descending: true }), 0, k, 1, v.ndim - 1);
  return [takeAlongAxis(v, order, -1), order];
});
