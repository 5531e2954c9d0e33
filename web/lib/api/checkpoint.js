// jax.checkpoint (jax.remat): a function whose derivatives recompute its
// intermediate values in the backward pass instead of keeping them from the
// forward one, but for those its policy saves: one checkpoint equation of
// its program (cpp/ir/primitives/call.h) inside a trace.

import { ValueError } from '../errors.js';
import { currentTrace } from './core/state.js';
import { nestedCall } from './transforms.js';

/**
 * jax.checkpoint_policies, by JAX's names: what a checkpoint's forward pass
 * keeps for its backward pass (none: recompute everything; the results of
 * matrix products; all). checkpoint_dots* are JAX's older names.
 */
export const checkpointPolicies = Object.freeze({
  nothing_saveable: 'nothing_saveable',
  everything_saveable: 'everything_saveable',
  dots_saveable: 'dots_saveable',
  checkpoint_dots: 'dots_saveable',
  dots_with_no_batch_dims_saveable: 'dots_with_no_batch_dims_saveable',
  checkpoint_dots_with_no_batch_dims: 'dots_with_no_batch_dims_saveable',
});

/**
 * checkpoint(f, {preventCse, policy, staticArgnums}): f, whose derivatives
 * recompute what `policy` (null: nothing saved, or one of
 * checkpointPolicies) does not save. Called outside a trace it is f: there
 * is nothing to differentiate, and the values are the same.
 */
export function checkpoint(f, { preventCse = true, policy = null, staticArgnums = [] } = {}) {
  if (typeof f !== 'function') throw new ValueError(`checkpoint: expected a function to checkpoint, got ${typeof f}`);
  const names = new Set(Object.values(checkpointPolicies));
  if (policy !== null && !names.has(policy)) {
    throw new ValueError(`checkpoint: policy ${JSON.stringify(policy)} is not one ShardLab has; use null or one of ${[...names].join(', ')} (checkpointPolicies)`);
  }
  const statics = Array.isArray(staticArgnums) ? staticArgnums : [staticArgnums];
  return function checkpointed(...args) {
    const t = currentTrace();
    if (!t) return f(...args);
    return nestedCall(t, f, args, statics, 'checkpoint', (ft, outs) => ft.checkpointCall(outs, preventCse, policy ?? 'None'));
  };
}
