// jax.vmap: f traced on one example of its arguments, then batched by the
// core (cpp/ir/transforms/batching.h) into the enclosing trace, one batching rule per
// primitive.

import { ValueError } from '../errors.js';
import { traced } from './core/operands.js';
import { isLeafValue } from './core/run.js';
import { currentTrace, engine, withTrace } from './core/state.js';
import { callCore, Trace } from './core/tracer.js';
import { broadcastPrefix, flatten, flattenArgs, unflatten } from './core/tree.js';
import { eagerly } from './transforms.js';

// A mapped axis: an integer (negative from the end) or null (not mapped).
const isAxis = (a) => a === null || a === undefined || Number.isInteger(a);

/**
 * jax.vmap(f, {inAxes, outAxes, axisSize}): f mapped over an axis of its
 * arguments. `inAxes` is an integer or null for every argument, or an array
 * with one entry per positional argument, each a tree prefix of it (an
 * integer: the axis mapped, negative from the end; null: the argument is the
 * same for every example). `outAxes` is a tree prefix of the result
 * likewise (or a function of the result returning one, for a front end that
 * knows it only then). `axisSize` gives the batch size when no argument is
 * mapped. `axisName` names the mapped axis: collectives in f may name it, the
 * examples standing for its devices (lax.psum(x, axisName) sums the batch,
 * lax.axisIndex(axisName) is each example's position).
 */
export function vmap(f, { inAxes = 0, outAxes = 0, axisSize = null, axisName = null } = {}) {
  if (typeof f !== 'function') throw new ValueError(`vmap: the first argument must be a function, got ${typeof f}`);
  const g = (...args) => {
    const t = currentTrace();
    if (!t) return eagerly('vmap', g, args);
    if (Array.isArray(inAxes) && inAxes.length !== args.length) {
      throw new ValueError(
        `vmap in_axes must be an int, None, or a tuple of entries corresponding to the positional arguments passed to the function, but got len(in_axes)=${inAxes.length}, len(args)=${args.length}`,
      );
    }
    const { traces } = engine().runtime;
    const { leaves, def } = flattenArgs(args, isLeafValue);
    const axes = broadcastPrefix(inAxes, def, isAxis, 'vmap inAxes').map((a) => a ?? null);
    const atoms = leaves.map((x) => traced(t, x, 'vmap').atomIn(t));
    const vt = callCore(() => traces.vmap(t.core, atoms, axes, axisSize, axisName));
    const inner = new Trace(vt.body(), t, 'vmap');
    inner.diffs = t.diffs;
    try {
      const out = withTrace(inner, () => f(...unflatten(def, inner.wrap(vt.inputs()))));
      const outTree = flatten(out, isLeafValue);
      const outAtoms = outTree.leaves.map((x) => traced(inner, x, 'vmap').atomIn(inner));
      const prefix = typeof outAxes === 'function' ? outAxes(out) : outAxes;
      const outAxesFlat = broadcastPrefix(prefix, outTree.def, isAxis, 'vmap outAxes').map((a) => a ?? null);
      return unflatten(outTree.def, t.wrap(callCore(() => vt.finish(outAtoms, outAxesFlat))));
    } finally {
      inner.live = false;
      vt.delete();
    }
  };
  return g;
}
