// jax.lax.cond, switch, scan and fori_loop: control flow as primitives with
// sub-programs (cpp/ir/primitives/control_flow.h). Each branch or body is
// traced in a nested trace; values it closes over become operands. Outside
// a trace they run eagerly, as one program.

import { ValueError } from '../errors.js';
import { add, astype, clip, notEqual } from './np.js';
import { avalOf, traced } from './operands.js';
import { isLeafValue } from './run.js';
import { currentTrace, engine, withTrace } from './state.js';
import { callCore, Trace } from './tracer.js';
import { describe, flatten, unflatten } from './tree.js';
import { eagerly } from './transforms.js';

// Emits a cond over `branches` at `index` (an int32 scalar in range) on the
// operand list; `mismatch(k, a, b)` words the error for branch k's output
// structure b differing from branch 0's a.
function branchOn(fn, index, branches, operands, mismatch) {
  const t = currentTrace();
  const { Module } = engine();
  const { leaves, def } = flatten(operands, isLeafValue);
  const c = callCore(() => new Module.CondTrace(t.core, leaves.map((x) => traced(t, x, fn).atomIn(t))));
  try {
    let outDef = null;
    branches.forEach((branch, k) => {
      const inner = new Trace(callCore(() => c.beginBranch()), t, fn);
      try {
        const out = withTrace(inner, () => branch(...unflatten(def, inner.wrap(c.inputs()))));
        const o = flatten(out, isLeafValue);
        if (outDef && describe(outDef) !== describe(o.def)) throw new ValueError(mismatch(k, describe(outDef), describe(o.def)));
        outDef = o.def;
        callCore(() => c.endBranch(o.leaves.map((x) => traced(inner, x, fn).atomIn(inner))));
      } finally {
        inner.live = false;
      }
    });
    return unflatten(outDef, t.wrap(callCore(() => c.finish(traced(t, index, fn).atomIn(t)))));
  } finally {
    c.delete();
  }
}

// The type of a predicate or index, which must be a scalar.
function scalarAval(x, fn, what) {
  const a = avalOf(x, fn);
  if (a.shape.length) throw new ValueError(`${what} must be scalar, got ${x} of shape [${a.shape}].`);
  return a;
}

/**
 * jax.lax.cond(pred, trueFun, falseFun, ...operands): trueFun(...operands)
 * if pred else falseFun(...operands), both traced (as a cond whose branch 0
 * is falseFun); they must return the same types.
 */
export function cond(pred, trueFun, falseFun, ...operands) {
  if (typeof trueFun !== 'function' || typeof falseFun !== 'function') {
    throw new ValueError('lax.cond: trueFun and falseFun must be functions');
  }
  if (!currentTrace()) return eagerly('lax.cond', (p, ...ops) => cond(p, trueFun, falseFun, ...ops), [pred, ...operands]);
  const a = scalarAval(pred, 'lax.cond', 'Pred');
  const index = astype(a.dtype === 'bool' ? pred : notEqual(pred, 0), 'int32');
  return branchOn(
    'lax.cond',
    index,
    [falseFun, trueFun],
    operands,
    (_, x, y) => `true_fun and false_fun output must have same type structure, got ${y} and ${x}.`,
  );
}

/**
 * jax.lax.switch(index, branches, ...operands): branches[index](...operands),
 * the index clamped to the branches, every branch traced.
 */
export function switchBranches(index, branches, ...operands) {
  if (!Array.isArray(branches) || !branches.every((b) => typeof b === 'function')) {
    throw new ValueError(`lax.switch: branches argument should be a sequence of functions, got ${typeof branches}`);
  }
  if (!branches.length) throw new ValueError('lax.switch: Empty branch sequence');
  if (!currentTrace()) return eagerly('lax.switch', (i, ...ops) => switchBranches(i, branches, ...ops), [index, ...operands]);
  const a = scalarAval(index, 'lax.switch', 'Index');
  if (a.dtype !== 'int32') throw new ValueError(`lax.switch: Index type must be an integer, got ${a.dtype}.`);
  if (branches.length === 1) return branches[0](...operands);
  return branchOn(
    'lax.switch',
    clip(index, 0, branches.length - 1),
    branches,
    operands,
    (k, x, y) => `branch 0 and ${k} outputs must have same type structure, got ${x} and ${y}.`,
  );
}

/**
 * jax.lax.scan(f, init, xs, {length, reverse}): carry = init; for each row
 * x of xs (from the end when reverse): [carry, y] = f(carry, x); returns
 * [carry, ys] (the ys stacked). init, xs and the results are trees; xs may
 * be null with a length.
 */
export function scan(f, init, xs = null, { length = null, reverse = false } = {}) {
  if (typeof f !== 'function') throw new ValueError(`lax.scan: f must be a function, got ${typeof f}`);
  const t = currentTrace();
  if (!t) return eagerly('lax.scan', (i, x) => scan(f, i, x, { length, reverse }), [init, xs]);
  const c = flatten(init, isLeafValue);
  const first = traceScan(t, f, c, init, xs, length, reverse, null);
  if (first.done) return first.result;
  // A JS number in the initial carry is weakly typed, as a Python scalar in
  // JAX: it takes the dtype the body gives that carry (0 for a float sum).
  return traceScan(t, f, c, unflatten(c.def, c.leaves.map((v, k) => (first.promote[k] ? astype(v, first.promote[k]) : v))), xs, length, reverse, first).result;
}

// One tracing of a scan: {done, result}, or, when a weakly typed initial
// carry must take the body's dtype, {done: false, promote} (per carry leaf,
// the dtype to give it) without emitting anything.
function traceScan(t, f, c0, init, xs, length, reverse, retry) {
  const { Module } = engine();
  const c = flatten(init, isLeafValue);
  const x = flatten(xs, isLeafValue);
  const atoms = (tree) => tree.leaves.map((v) => traced(t, v, 'lax.scan').atomIn(t));
  const s = callCore(() => new Module.ScanTrace(t.core, atoms(c), atoms(x), length, Boolean(reverse)));
  const inner = new Trace(s.body(), t, 'lax.scan');
  try {
    const ins = inner.wrap(s.inputs());
    const n = c.leaves.length;
    const out = withTrace(inner, () => f(unflatten(c.def, ins.slice(0, n)), unflatten(x.def, ins.slice(n))));
    if (!Array.isArray(out) || out.length !== 2) throw new ValueError('lax.scan: the body must return a pair [carry, y]');
    const carry = flatten(out[0], isLeafValue);
    if (describe(carry.def) !== describe(c.def)) {
      throw new ValueError(
        `scan body function carry input and carry output must have the same pytree structure, but they differ: the input carry is ${describe(c.def)} and the output carry is ${describe(carry.def)}`,
      );
    }
    if (!retry) {
      const promote = c0.leaves.map((v, k) => {
        const got = avalOf(carry.leaves[k], 'lax.scan');
        return typeof v === 'number' && got.dtype !== ins[k].dtype && String(got.shape) === String(ins[k].shape) ? got.dtype : null;
      });
      if (promote.some((d) => d)) return { done: false, promote };
    }
    const y = flatten(out[1], isLeafValue);
    const local = (tree) => tree.leaves.map((v) => traced(inner, v, 'lax.scan').atomIn(inner));
    const r = t.wrap(callCore(() => s.finish([...local(carry), ...local(y)])));
    return { done: true, result: [unflatten(c.def, r.slice(0, n)), unflatten(y.def, r.slice(n))] };
  } finally {
    inner.live = false;
    s.delete();
  }
}

/**
 * jax.lax.fori_loop(lower, upper, body, init): x = init; for i in
 * [lower, upper): x = body(i, x). With bounds given as numbers it is a scan
 * (so reverse-mode differentiable), as JAX lowers a static trip count.
 */
export function foriLoop(lower, upper, body, init) {
  if (typeof body !== 'function') throw new ValueError(`lax.foriLoop: body must be a function, got ${typeof body}`);
  if (!Number.isInteger(lower) || !Number.isInteger(upper)) {
    throw new ValueError(
      'lax.foriLoop: bounds that are traced values need a while_loop, which ShardLab does not run yet; give lower and upper as integers',
    );
  }
  if (!currentTrace()) return eagerly('lax.foriLoop', (x) => foriLoop(lower, upper, body, x), [init]);
  // As JAX: a scan over (i, x), i an int32 counter from lower, with no xs or ys.
  const step = ([i, x]) => [[add(i, 1), body(i, x)], null];
  return scan(step, [lower, init], null, { length: Math.max(0, upper - lower) })[0][1];
}

/** jax.lax.while_loop: not supported yet (loops run unrolled, so the trip count must be known when tracing). */
export function whileLoop() {
  throw new ValueError(
    'lax.whileLoop is not supported by ShardLab yet: its loops run unrolled, so the trip count must be known when tracing; use lax.foriLoop with integer bounds or lax.scan',
  );
}
