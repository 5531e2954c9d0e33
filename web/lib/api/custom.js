// jax.custom_jvp and jax.custom_vjp: a function whose derivatives come from
// rules the user gives. Calling it emits one custom_jvp_call (custom_vjp_call).
// Where no derivative will be taken of the trace, the call holds the
// function's program and the core traces the rules only when a derivative
// needs them (cpp/ir/primitives/derivatives.h), calling back into JS with a
// trace to emit into; under grad, jvp or vjp the rule (custom_vjp's fwd) is
// traced where the call is and the function never is, as in JAX.

import { ValueError } from '../errors.js';
import { add, zeros, zerosLike } from './numpy/math.js';
import { avalOf, traced } from './core/operands.js';
import { isLeafValue } from './core/run.js';
import { currentTrace, engine, withTrace } from './core/state.js';
import { avalString, callCore, isTracer, keepRuleError, Trace } from './core/tracer.js';
import { describe, flatten, numLeaves, unflatten } from './core/tree.js';
import { argnumsOf, beginDiff, eagerly } from './transforms.js';

// A rule's trace: isolated (a rule reads only its arguments, and concrete
// arrays only as constants: operands.js), `diffs` derivatives to be taken of it.
function ruleTrace(core, kind, diffs) {
  const t = new Trace(core, null, kind);
  t.consts = null;
  t.diffs = diffs;
  return t;
}

// The JS function the core calls to trace a rule when a derivative needs it:
// `body(tracers)` gets the rule's flat arguments as traced values of a trace
// over the core's builder (a view this function deletes) and returns the flat results.
function ruleCallback(kind, body) {
  return (coreTrace, atoms) => {
    const t = ruleTrace(coreTrace, kind, 0);
    try {
      const outs = withTrace(t, () => body(t.wrap(atoms)));
      return outs.map((x) => traced(t, x, kind).atomIn(t));
    } catch (e) {
      keepRuleError(e);
      return null;
    } finally {
      t.live = false;
      coreTrace.delete();
    }
  };
}

const nameOf = (f, fallback) => (typeof f === 'function' && f.name ? f.name : fallback);

// The leaves of `tree` after checking that its structure is `def`'s; errors say `what`.
function leavesLike(tree, def, what) {
  const { leaves, def: got } = flatten(tree, isLeafValue);
  if (describe(got) !== describe(def)) {
    throw new ValueError(`${what} must have the structure ${describe(def)}, got ${describe(got)}`);
  }
  return leaves;
}

// The leaves of a rule's primal output: the function's output structure is
// the first primal output's when the function itself was not traced.
function primalLeaves(call, tree, what) {
  call.outDef ??= flatten(tree, isLeafValue).def;
  return leavesLike(tree, call.outDef, what);
}

// What a custom call's rules need of its arguments `args`: statics (the
// arguments at nondiffArgnums), nums (the others' positions), leaves (their
// flat leaves), args(trees) (the argument list with the differentiated ones
// replaced), split(leaves) (flat leaves as one tree per differentiated
// argument), avals and defs (per argument, its leaves' types and its
// structure), and outDef (the output structure, once known).
function signature(kind, nondiffArgnums, args) {
  const nondiff = argnumsOf(nondiffArgnums, args.length, kind);
  const nums = args.map((_, i) => i).filter((i) => !nondiff.includes(i));
  const parts = nums.map((i) => flatten(args[i], isLeafValue));
  return {
    statics: nondiff.map((i) => args[i]),
    nums,
    leaves: parts.flatMap((p) => p.leaves),
    args: (trees) => {
      const all = [...args];
      nums.forEach((i, j) => {
        all[i] = trees[j];
      });
      return all;
    },
    split: (leaves) => {
      let k = 0;
      return parts.map((p) => unflatten(p.def, leaves.slice(k, (k += p.leaves.length))));
    },
    avals: parts.map((p) => p.leaves.map((x) => ({ ...avalOf(x, kind), vma: isTracer(x) ? x.vma : [] }))),
    defs: parts.map((p) => p.def),
    outDef: null,
  };
}

// A custom call where no derivative will be taken of it (t.diffs is 0: at
// the top of a jit, a shard_map, a loop): f traced on the arguments, the call
// emitted by `emit(ft, outAtoms)` with the rules the core traces when needed.
function stagedCall(t, kind, f, call, args, emit) {
  const { ft, inner, newArgs } = beginDiff(t, f, args, call.nums, kind);
  try {
    const out = withTrace(inner, () => f(...newArgs));
    const { leaves, def } = flatten(out, isLeafValue);
    call.outDef = def;
    const outAtoms = leaves.map((x) => traced(inner, x, kind).atomIn(inner));
    return unflatten(def, t.wrap(emit(ft, outAtoms)));
  } finally {
    inner.live = false;
    ft.delete();
  }
}

// A custom call of which a derivative will be taken (t.diffs > 0): JAX's JVP
// trace calls the rule there and never the function, so its rule `body` (of
// the flat arguments, `times` over: a jvp rule's primals and tangents) is
// traced now, isolated, and `emit(ft, outAtoms)` makes the call of it.
function ruleCall(t, kind, call, times, body, emit) {
  const atoms = call.leaves.map((x) => traced(t, x, kind).atomIn(t));
  const ft = callCore(() => engine().runtime.traces.function(t.core, Array(times).fill(atoms).flat(), true));
  const inner = ruleTrace(ft.body(), kind, t.diffs - 1);
  try {
    const outs = withTrace(inner, () => body(inner.wrap(ft.inputs())));
    const outAtoms = outs.map((x) => traced(inner, x, kind).atomIn(inner));
    return unflatten(call.outDef, t.wrap(emit(ft, outAtoms)));
  } finally {
    inner.live = false;
    ft.delete();
  }
}

/**
 * jax.custom_jvp(fun, {nondiffArgnums}): fun with a JVP rule of one's own,
 * set by `.defjvp(jvp)`: jvp(...nondiffArgs, primals, tangents) returns
 * [primalOut, tangentOut], where primals and tangents are arrays with one
 * entry per other argument. `.defjvps(...rules)` gives one rule per argument
 * instead: rule(tangent, primalOut, ...primals), null for none. The printed
 * program names the function `name` (default fun.name) and the rule by its name.
 */
export function customJvp(fun, { nondiffArgnums = [], name = nameOf(fun, 'fun') } = {}) {
  if (typeof fun !== 'function') throw new ValueError(`customJvp: the first argument must be a function, got ${typeof fun}`);
  let jvp = null;
  let jvpName = '';
  const g = (...args) => {
    if (!jvp) throw new ValueError(`No JVP defined for custom_jvp function ${name} using defjvp.`);
    const t = currentTrace();
    if (!t) return eagerly('customJvp', g, args);
    const call = signature('customJvp', nondiffArgnums, args);
    const head = `Custom JVP rule ${jvpName} for function ${name}`;
    // jvp(primals, tangents) -> [primal outputs, tangent outputs], flat.
    const rule = (ins) => {
      const half = ins.length / 2;
      const r = jvp(...call.statics, call.split(ins.slice(0, half)), call.split(ins.slice(half)));
      if (!Array.isArray(r) || r.length !== 2) {
        throw new ValueError(
          `${head} must produce a pair (list or tuple of length two) representing primal and tangent outputs, but got ${describe(flatten(r, isLeafValue).def)}.`,
        );
      }
      return [...primalLeaves(call, r[0], `${head}: its primal output`), ...leavesLike(r[1], call.outDef, `${head}: its tangent output`)];
    };
    if (t.diffs > 0) return ruleCall(t, `customJvp rule ${jvpName}`, call, 2, rule, (ft, outAtoms) => callCore(() => ft.customJvpCallOfRule(outAtoms, name, jvpName)));
    const lazy = ruleCallback(`customJvp rule ${jvpName}`, rule);
    return stagedCall(t, 'customJvp', fun, call, args, (ft, outAtoms) => callCore(() => ft.customJvpCall(outAtoms, name, jvpName, lazy)));
  };
  g.fun = fun;
  /** Sets the JVP rule and returns it (a decorator in Python); options: {name} for printing. */
  g.defjvp = (rule, { symbolicZeros = false, name: ruleName = nameOf(rule, 'jvp') } = {}) => {
    if (typeof rule !== 'function') throw new ValueError(`defjvp: the rule must be a function, got ${typeof rule}`);
    if (symbolicZeros) throw new ValueError('defjvp: symbolicZeros=true is not supported by ShardLab (tangents are always arrays)');
    jvp = rule;
    jvpName = ruleName;
    g.jvp = rule;
    return rule;
  };
  /** The JVP as a sum of per-argument rules, rule(tangent, primalOut, ...primals) (null: no contribution). */
  g.defjvps = (...rules) =>
    g.defjvp(
      (primals, tangents) => {
        const out = g(...primals);
        const { leaves, def } = flatten(out, isLeafValue);
        // Per argument its rule's tangent (zeros without one), summed left to right, as JAX's defjvps.
        const parts = rules.map((r, i) => (r ? leavesLike(r(tangents[i], out, ...primals), def, `defjvps rule ${i}`) : leaves.map((x) => zerosLike(x))));
        return [out, unflatten(def, leaves.map((_, k) => parts.slice(1).reduce((s, p) => add(s, p[k]), parts[0][k])))];
      },
      { name: 'jvp' },
    );
  return g;
}

// A bwd rule's cotangent must vary along exactly the mesh axes its primal
// input does (JAX's typecompat of the two types, vma included).
function checkCotangentVma(ct, primal, path) {
  const vma = isTracer(ct) ? ct.vma : [];
  if (vma.length === primal.vma.length && vma.every((a) => primal.vma.includes(a))) return;
  const type = (a, v) => avalString({ dtype: a.dtype, shape: a.shape, vma: v }, { short: false });
  throw new ValueError(
    `Custom VJP bwd rule must produce an output with the same type as the args tuple of the primal function, but at output${path} the bwd rule produced an output of type ${type(avalOf(ct, 'customVjp'), vma)} corresponding to an input of type ${type(primal, primal.vma)}`,
  );
}

/**
 * jax.custom_vjp(fun, {nondiffArgnums}): fun with a VJP of one's own, set by
 * `.defvjp(fwd, bwd)`: fwd takes fun's arguments and returns [output,
 * residuals]; bwd(...nondiffArgs, residuals, outputCotangent) returns an
 * array with one cotangent per other argument (null: zero). Forward-mode
 * derivatives of it are JAX's error.
 */
export function customVjp(fun, { nondiffArgnums = [], name = nameOf(fun, 'fun') } = {}) {
  if (typeof fun !== 'function') throw new ValueError(`customVjp: the first argument must be a function, got ${typeof fun}`);
  let rules = null;
  const g = (...args) => {
    if (!rules) throw new ValueError(`No VJP defined for custom_vjp function ${name} using defvjp.`);
    const t = currentTrace();
    if (!t) return eagerly('customVjp', g, args);
    const { fwd, bwd, fwdName, bwdName } = rules;
    const call = signature('customVjp', nondiffArgnums, args);
    const resDefs = new Map(); // the residuals' structure, by their number of leaves
    // fwd(primals) -> [primal outputs, residuals], flat.
    const fwdRule = (ins) => {
      const r = fwd(...call.args(call.split(ins)));
      if (!Array.isArray(r) || r.length !== 2) {
        throw new ValueError(
          `Custom VJP fwd rule ${fwdName} for function ${name} must produce a pair (list or tuple of length two) where the first element represents the primal output (equal to the output of the custom_vjp-decorated function ${name}) and the second element represents residuals (i.e. values stored from the forward pass for use on the backward pass)`,
        );
      }
      const outs = primalLeaves(call, r[0], `Custom VJP fwd rule ${fwdName} for function ${name}: its primal output`);
      const res = flatten(r[1], isLeafValue);
      resDefs.set(res.leaves.length, res.def);
      return [...outs, ...res.leaves];
    };
    // bwd(residuals, output cotangents) -> a cotangent per argument, flat.
    const bwdRule = ruleCallback(`customVjp bwd ${bwdName}`, (ins) => {
      const nOut = numLeaves(call.outDef);
      const res = ins.slice(0, ins.length - nOut);
      const cts = unflatten(call.outDef, ins.slice(ins.length - nOut));
      const r = bwd(...call.statics, unflatten(resDefs.get(res.length), res), cts);
      if (!Array.isArray(r) || r.length !== call.avals.length) {
        throw new ValueError(
          `Custom VJP bwd rule ${bwdName} must produce a tuple of length equal to the number of arguments to the primal function (${call.avals.length} differentiated), but got ${Array.isArray(r) ? `length ${r.length}` : typeof r}`,
        );
      }
      return r.flatMap((ct, j) => {
        if (ct === null || ct === undefined) return call.avals[j].map((a) => zeros(a.shape, a.dtype));
        const leaves = leavesLike(ct, call.defs[j], `Custom VJP bwd rule ${bwdName}: cotangent ${j}`);
        leaves.forEach((x, k) => checkCotangentVma(x, call.avals[j][k], leaves.length > 1 ? `[${j}][${k}]` : `[${j}]`));
        return leaves;
      });
    });
    if (t.diffs > 0) {
      return ruleCall(t, `customVjp fwd ${fwdName}`, call, 1, fwdRule, (ft, outAtoms) =>
        callCore(() => ft.customVjpCallOfFwd(outAtoms, numLeaves(call.outDef), name, fwdName, bwdName, bwdRule)),
      );
    }
    const lazyFwd = ruleCallback(`customVjp fwd ${fwdName}`, fwdRule);
    return stagedCall(t, 'customVjp', fun, call, args, (ft, outAtoms) =>
      callCore(() => ft.customVjpCall(outAtoms, name, fwdName, lazyFwd, bwdName, bwdRule)),
    );
  };
  g.fun = fun;
  /** Sets fwd and bwd; options: {name} of each for printing ({fwdName, bwdName}). */
  g.defvjp = (fwd, bwd, { symbolicZeros = false, fwdName = nameOf(fwd, 'fwd'), bwdName = nameOf(bwd, 'bwd') } = {}) => {
    if (typeof fwd !== 'function' || typeof bwd !== 'function') throw new ValueError('defvjp: fwd and bwd must be functions');
    if (symbolicZeros) throw new ValueError('defvjp: symbolicZeros=true is not supported by ShardLab (cotangents are always arrays)');
    rules = { fwd, bwd, fwdName, bwdName };
  };
  return g;
}
