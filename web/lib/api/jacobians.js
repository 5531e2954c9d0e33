// jax.jacfwd, jax.jacrev and jax.hessian, as JAX builds them: vmap of jvp
// over the standard basis of the inputs (forward), vmap of the pullback over
// the standard basis of the outputs (reverse). The Jacobian of output y
// (a tree's leaf) with respect to input x has shape y.shape + x.shape; the
// result has the output's tree structure, each leaf holding one Jacobian
// per argnum (a list when argnums is a list, as JAX's tuple).

import { ValueError } from '../errors.js';
import { slice } from './lax/index.js';
import { eye, reshape, zerosLike } from './numpy/index.js';
import { asDtype } from './numpy/helpers.js';
import { traced } from './core/operands.js';
import { isLeafValue } from './core/run.js';
import { currentTrace } from './core/state.js';
import { flatten, unflatten } from './core/tree.js';
import { argnumsOf, eagerly, jvp, vjp } from './transforms.js';
import { vmap } from './vmap.js';
import { isFloat } from '../dtypes.js';

const prod = (s) => s.reduce((a, b) => a * b, 1);

// JAX's refusals of inputs that are not floating point.
const INPUT_REQUIREMENT = {
  jacfwd: [
    'real-valued inputs (input dtype that is a sub-dtype of np.floating)',
    ' For holomorphic differentiation, pass holomorphic=True. For differentiation of non-holomorphic functions involving complex inputs or integer inputs, use jax.jvp directly.',
  ],
  jacrev: [
    'real- or complex-valued inputs (input dtype that is a sub-dtype of np.inexact)',
    ' If you want to use Boolean- or integer-valued inputs, use vjp or set allow_int to True.',
  ],
};

// The differentiated arguments' leaves as traced values (float32, as JAX requires), with how to rebuild the arguments.
function inputsOf(t, args, nums, fn) {
  const parts = nums.map((i) => flatten(args[i], isLeafValue));
  const leaves = parts.flatMap((p) => p.leaves).map((x) => traced(t, x, fn));
  const [requirement, advice] = INPUT_REQUIREMENT[fn];
  for (const x of leaves) {
    if (!isFloat(x.dtype)) throw new ValueError(`${fn} requires ${requirement}, but got ${x.dtype}.${advice}`);
  }
  const rebuild = (flat) => {
    let k = 0;
    return parts.map((p) => unflatten(p.def, flat.slice(k, (k += p.leaves.length))));
  };
  return { leaves, rebuild };
}

// The standard basis of values of `shapes` (their sizes summed: n): per shape an [n, ...shape] array.
function standardBasis(shapes) {
  const n = shapes.reduce((a, s) => a + prod(s), 0);
  const e = eye(n);
  let at = 0;
  return shapes.map((s) => {
    const size = prod(s);
    const part = shapes.length === 1 ? e : slice(e, [0, at], [n, (at += size)]);
    return reshape(part, [n, ...s]);
  });
}

// The slices of `x` along `axis` holding each shape's part (the basis's order), reshaped to `lead` + shape + `trail`.
function splitAlong(x, axis, shapes, lead, trail) {
  let at = 0;
  return shapes.map((s) => {
    const start = x.shape.map(() => 0);
    const limit = [...x.shape];
    start[axis] = at;
    limit[axis] = at += prod(s);
    return reshape(shapes.length === 1 ? x : slice(x, start, limit), [...lead, ...s, ...trail]);
  });
}

// A Jacobian block weakly typed as `example` is (jacfwd: the output; jacrev:
// the input), as JAX's _possible_downcast makes it: jacfwd(lambda x: x)(1.0) is weak.
const typedLike = (part, example) => asDtype(part, part.dtype, part.dtype === example.dtype && Boolean(example.weakType));

// f with only the arguments at `nums` free (the others fixed to args').
const partial = (f, args, nums) => (...dyn) => {
  const all = [...args];
  nums.forEach((i, j) => (all[i] = dyn[j]));
  return f(...all);
};

// The result tree: the output's structure, each leaf holding its Jacobians per argument (a list if argnums is).
function jacobianTree(outDef, perOutput, argnums, rebuild) {
  return unflatten(
    outDef,
    perOutput.map((flat) => {
      const perArg = rebuild(flat);
      return Array.isArray(argnums) ? perArg : perArg[0];
    }),
  );
}

function transformation(name, impl) {
  return (f, opts = {}) => {
    if (typeof f !== 'function') throw new ValueError(`${name}: the first argument must be a function, got ${typeof f}`);
    const g = (...args) => {
      const t = currentTrace();
      if (!t) return eagerly(name, g, args);
      return impl(t, f, args, opts);
    };
    return g;
  };
}

/** jax.jacfwd(f, {argnums, hasAux}): the Jacobian by forward mode ([jacobian, aux] with hasAux). */
export const jacfwd = transformation('jacfwd', (t, f, args, { argnums = 0, hasAux = false }) => {
  const nums = argnumsOf(argnums, args.length, 'jacfwd');
  const { leaves, rebuild } = inputsOf(t, args, nums, 'jacfwd');
  const shapes = leaves.map((x) => x.shape);
  const fDyn = partial(f, args, nums);
  // One jvp per basis vector; the output (and aux) the same for every one.
  const pushfwd = (...basis) => {
    const [out, tangent] = jvp(fDyn, rebuild(leaves), rebuild(basis));
    return hasAux ? [out[0], tangent[0], out[1]] : [out, tangent];
  };
  const r = vmap(pushfwd, { outAxes: hasAux ? [null, -1, null] : [null, -1] })(...standardBasis(shapes));
  const outTree = flatten(r[1], isLeafValue);
  const outs = flatten(r[0], isLeafValue).leaves;
  const perOutput = outTree.leaves.map((j, k) => splitAlong(j, j.ndim - 1, shapes, j.shape.slice(0, -1), []).map((p) => typedLike(p, outs[k])));
  const jac = jacobianTree(outTree.def, perOutput, argnums, rebuild);
  return hasAux ? [jac, r[2]] : jac;
});

/** jax.jacrev(f, {argnums, hasAux}): the Jacobian by reverse mode ([jacobian, aux] with hasAux). */
export const jacrev = transformation('jacrev', (t, f, args, { argnums = 0, hasAux = false }) => {
  const nums = argnumsOf(argnums, args.length, 'jacrev');
  const { leaves, rebuild } = inputsOf(t, args, nums, 'jacrev');
  const [outs, pullback] = vjp(partial(f, args, nums), ...rebuild(leaves));
  const [out, aux] = hasAux ? outs : [outs, undefined];
  const outTree = flatten(out, isLeafValue);
  for (const y of outTree.leaves) {
    if (!isFloat(y.dtype)) {
      throw new ValueError(`jacrev requires real-valued outputs (output dtype that is a sub-dtype of np.floating), but got ${y.dtype}.`);
    }
  }
  const outShapes = outTree.leaves.map((y) => y.shape);
  // One pullback per basis vector of the outputs (aux gets no cotangent: zeros).
  const auxZeros = hasAux ? flatten(aux, isLeafValue).leaves.map((a) => zerosLike(a)) : [];
  const pull = (...basis) => {
    const ct = unflatten(outTree.def, basis);
    const grads = pullback(hasAux ? [ct, unflatten(flatten(aux, isLeafValue).def, auxZeros)] : ct);
    return grads.flatMap((g) => flatten(g, isLeafValue).leaves);
  };
  const rows = vmap(pull)(...standardBasis(outShapes)); // per input leaf: [m, ...x.shape]
  const perInput = rows.map((r, k) => splitAlong(r, 0, outShapes, [], leaves[k].shape).map((p) => typedLike(p, leaves[k])));
  const perOutput = outShapes.map((_, j) => perInput.map((p) => p[j]));
  const jac = jacobianTree(outTree.def, perOutput, argnums, rebuild);
  return hasAux ? [jac, aux] : jac;
});

/** jax.hessian(f, {argnums, hasAux}): jacfwd(jacrev(f)), the second derivatives. */
export function hessian(f, { argnums = 0, hasAux = false } = {}) {
  if (typeof f !== 'function') throw new ValueError(`hessian: the first argument must be a function, got ${typeof f}`);
  return jacfwd(jacrev(f, { argnums, hasAux }), { argnums, hasAux });
}
