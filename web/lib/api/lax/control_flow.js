// jax.lax.cond, switch, scan, fori_loop and while_loop: control flow as
// primitives with sub-programs (cpp/ir/primitives/control_flow.h). Each branch or body is
// traced in a nested trace; values it closes over become operands. Outside
// a trace they run eagerly, as one program.

import { ShapeError, ValueError } from '../../errors.js';
import { array } from '../core/array.js';
import { add, astype, clip, notEqual } from '../numpy/math.js';
import { avalOf, traced, traceFor } from '../core/operands.js';
import { isLeafValue } from '../core/run.js';
import { currentTrace, engine, withTrace } from '../core/state.js';
import { callCore, Trace } from '../core/tracer.js';
import { describe, flatten, unflatten } from '../core/tree.js';
import { isScalar } from '../core/weak_float.js';
import { eagerly } from '../transforms.js';

// Emits a cond over `branches` at `index` (an int32 scalar in range) on the
// operand list; `mismatch(k, a, b)` words the error for branch k's output
// structure b differing from branch 0's a.
function branchOn(fn, index, branches, operands, mismatch) {
  const t = currentTrace();
  const { traces } = engine().runtime;
  const { leaves, def } = flatten(operands, isLeafValue);
  const c = callCore(() => traces.cond(t.core, leaves.map((x) => traced(t, x, fn).atomIn(t))));
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
  return traceScan(t, f, c, promoted(c, first.promote), xs, length, reverse, first).result;
}

// A weakly typed leaf of an initial carry (a JS number, as a Python scalar in
// JAX, or a weak array) takes the dtype the body gives that carry (0 for a
// float sum), as JAX's _promote_weak_typed_inputs; a weak type that differs
// alone is no mismatch (JAX's typematch ignores it).
// Per leaf of the initial carry c0, that dtype where it differs (else null);
// `ins` are the body's inputs, `outs` the leaves of the carry it returned.
function weakPromotions(c0, ins, outs, fn) {
  return c0.leaves.map((v, k) => {
    const got = avalOf(outs[k], fn);
    return avalOf(v, fn).weak && got.dtype !== ins[k].dtype && String(got.shape) === String(ins[k].shape) ? got.dtype : null;
  });
}

// The initial carry c0 (flattened) with its weakly typed leaves promoted.
function promoted(c0, promote) {
  return unflatten(c0.def, c0.leaves.map((v, k) => (promote[k] ? astype(v, promote[k]) : v)));
}

// One tracing of a scan: {done, result}, or, when a weakly typed initial
// carry must take the body's dtype, {done: false, promote} (per carry leaf,
// the dtype to give it) without emitting anything.
function traceScan(t, f, c0, init, xs, length, reverse, retry) {
  const { traces } = engine().runtime;
  const c = flatten(init, isLeafValue);
  const x = flatten(xs, isLeafValue);
  const atoms = (tree) => tree.leaves.map((v) => traced(t, v, 'lax.scan').atomIn(t));
  const s = callCore(() => traces.scan(t.core, atoms(c), atoms(x), length, Boolean(reverse)));
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
      const promote = weakPromotions(c0, ins, carry.leaves, 'lax.scan');
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
 * [lower, upper): x = body(i, x). With bounds given as integers it is a scan
 * (so reverse-mode differentiable), as JAX lowers a static trip count; with
 * a traced bound it is a while_loop over (i, upper, x) (forward mode only).
 */
export function foriLoop(lower, upper, body, init) {
  if (typeof body !== 'function') throw new ValueError(`lax.foriLoop: body must be a function, got ${typeof body}`);
  const isStatic = (b) => typeof b === 'number';
  for (const [name, b] of [['lower', lower], ['upper', upper]]) {
    if (isStatic(b) && !Number.isInteger(b)) throw new ValueError(`lax.foriLoop: ${name} must be an integer, got ${b}`);
    if (!isStatic(b) && avalOf(b, 'lax.foriLoop').dtype !== 'int32') {
      throw new ValueError(`lax.foriLoop: ${name} must be an int32 scalar, got ${avalOf(b, 'lax.foriLoop').dtype}`);
    }
  }
  if (!currentTrace()) {
    if (isStatic(lower) && isStatic(upper)) return eagerly('lax.foriLoop', (x) => foriLoop(lower, upper, body, x), [init]);
    // A traced bound: both bounds become int32 arguments of the program.
    const arg = (b) => (isStatic(b) ? array(b, { dtype: 'int32' }) : b);
    return eagerly('lax.foriLoop', (lo, hi, x) => foriLoop(lo, hi, body, x), [arg(lower), arg(upper), init]);
  }
  if (isStatic(lower) && isStatic(upper)) {
    // As JAX: a scan over (i, x), i an int32 counter from lower, with no xs or ys.
    const step = ([i, x]) => [[add(i, 1), body(i, x)], null];
    return scan(step, [lower, init], null, { length: Math.max(0, upper - lower) })[0][1];
  }
  // As JAX: the bounds as they are (a number weakly typed), compared by lax.lt, which does not promote.
  const lessThan = (i, hi) => {
    const t = traceFor('lax.foriLoop');
    return t.emit('lt', {}, [traced(t, i, 'lax.foriLoop').atomIn(t), traced(t, hi, 'lax.foriLoop').atomIn(t)])[0];
  };
  return whileLoop(([i, hi]) => lessThan(i, hi), ([i, hi, x]) => [add(i, 1), hi, body(i, x)], [lower, upper, init])[2];
}

/**
 * jax.lax.while_loop(condFun, bodyFun, initVal): val = initVal; while
 * condFun(val): val = bodyFun(val); returns val (a tree of the same types).
 * The trip count is known only as it runs: forward-mode differentiable,
 * while reverse mode gives JAX's error. A loop that never ends is stopped by
 * cancel() (the checker's time limit calls it).
 */
export function whileLoop(condFun, bodyFun, initVal) {
  if (typeof condFun !== 'function' || typeof bodyFun !== 'function') {
    throw new ValueError('lax.whileLoop: condFun and bodyFun must be functions');
  }
  const t = currentTrace();
  if (!t) return eagerly('lax.whileLoop', (v) => whileLoop(condFun, bodyFun, v), [initVal]);
  const c = flatten(initVal, isLeafValue);
  const first = traceWhile(t, condFun, bodyFun, c, initVal, false);
  if (first.done) return first.result;
  return traceWhile(t, condFun, bodyFun, c, promoted(c, first.promote), true).result;
}

// One tracing of a while_loop, as traceScan: {done, result} or {done: false, promote}.
function traceWhile(t, condFun, bodyFun, c0, init, retry) {
  const fn = 'lax.whileLoop';
  const { traces } = engine().runtime;
  const c = flatten(init, isLeafValue);
  const w = callCore(() => traces.whileLoop(t.core, c.leaves.map((v) => traced(t, v, fn).atomIn(t))));
  // Runs part(carry) in the trace `open()` starts; returns what `close(trace, out)` gives.
  const inPart = (open, part, close) => {
    const inner = new Trace(callCore(open), t, fn);
    try {
      const out = withTrace(inner, () => part(unflatten(c.def, inner.wrap(w.inputs()))));
      return close(inner, out);
    } finally {
      inner.live = false;
    }
  };
  try {
    inPart(
      () => w.beginCond(),
      condFun,
      (inner, pred) => {
        if (!isLeafValue(pred) && !isScalar(pred)) throw new ShapeError(`cond_fun must return a boolean scalar, but got ${describe(flatten(pred, isLeafValue).def)}.`);
        callCore(() => w.endCond(traced(inner, pred, fn).atomIn(inner)));
      },
    );
    return inPart(
      () => w.beginBody(),
      bodyFun,
      (inner, out) => {
        const o = flatten(out, isLeafValue);
        if (describe(o.def) !== describe(c.def)) {
          throw new ShapeError(`body_fun output pytree structure must match init_val, got ${describe(o.def)} and ${describe(c.def)}.`);
        }
        if (!retry) {
          const promote = weakPromotions(c0, inner.wrap(w.inputs()), o.leaves, fn);
          if (promote.some((d) => d)) return { done: false, promote };
        }
        const r = t.wrap(callCore(() => w.finish(o.leaves.map((v) => traced(inner, v, fn).atomIn(inner)))));
        return { done: true, result: unflatten(c.def, r) };
      },
    );
  } finally {
    w.delete();
  }
}
