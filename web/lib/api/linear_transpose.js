// jax.linear_transpose: the transpose of a linear function, traced at the
// primals' shapes and dtypes (their values never read) and transposed by
// the core with every argument linear, so a non-linear use of one is the
// transposing primitive's error (as JAX's).

import { ValueError } from '../errors.js';
import { isFloat } from '../dtypes.js';
import { avalOf, literalTracer, traced } from './core/operands.js';
import { isLeafValue } from './core/run.js';
import { currentTrace, withTrace } from './core/state.js';
import { callCore } from './core/tracer.js';
import { flatten } from './core/tree.js';
import { asDtype } from './numpy/helpers.js';
import { zeros } from './numpy/math.js';
import { beginDiff, cotangentValues, jit } from './transforms.js';

/**
 * linearTranspose(f, ...primals): transposeFn(cotangents) -> one cotangent
 * per primal (f linear in its float arguments; a primal may be an array or
 * anything with shape and dtype, a ShapeDtypeStruct).
 */
export function linearTranspose(f, ...primals) {
  const types = primals.map((p) => {
    const { shape, dtype, weak = false } = p?.shape !== undefined && p?.dtype !== undefined ? p : avalOf(p, 'linear_transpose');
    if (!isFloat(dtype)) {
      throw new ValueError(`linear_transpose only supports [float or complex] -> [float or complex], and integer -> integer functions, but got ${dtype} as an input`);
    }
    return { shape: [...shape], dtype, weak };
  });
  const transposed = (cts) => {
    const t = currentTrace();
    // A weakly typed scalar primal (a Python float) stays weak, so its cotangent is too, as JAX's.
    const args = types.map(({ shape, dtype, weak }) => (weak && shape.length === 0 ? literalTracer(t, 0, dtype, true) : zeros(shape, dtype)));
    const nums = args.map((_, i) => i);
    const { ft, inner, newArgs, split } = beginDiff(t, f, args, nums, 'linear_transpose', t.diffs + 1);
    try {
      const outTree = flatten(withTrace(inner, () => f(...newArgs)), isLeafValue);
      const outAtoms = outTree.leaves.map((x) => traced(inner, x, 'linear_transpose').atomIn(inner));
      inner.live = false;
      // Each cotangent in its output's dtype: a weakly typed one of another is converted (a strong one is refused).
      const ctLeaves = cotangentValues(cts, outTree, t, 'linear_transpose').map((v, i) => {
        const { dtype } = avalOf(outTree.leaves[i], 'linear_transpose');
        return (v.dtype === dtype ? v : asDtype(v, dtype, v.weakType)).atomIn(t);
      });
      // Each cotangent of its primal's type, weak type included (as JAX instantiates them).
      const results = t.wrap(callCore(() => ft.linearTranspose(outAtoms, ctLeaves, t.core)));
      return split(results.map((r, i) => asDtype(r, types[i].dtype, types[i].weak)));
    } finally {
      inner.live = false;
      ft.delete();
    }
  };
  const eager = jit(transposed, { name: 'transpose' });
  return (cts) => (currentTrace() ? transposed(cts) : eager.dispatch(cts));
}
