// jax.debug: seeing values from inside jit, shard_map, vmap and grad. A call
// traced into a program is a debug_callback equation: its function runs on
// this thread once the program's run has ended, with each device's values
// (inside a shard_map body) in device order; outside a trace it runs at once.

import { ValueError } from '../errors.js';
import { registerCallback } from './core/debug_calls.js';
import { traced } from './core/operands.js';
import { isLeafValue } from './core/run.js';
import { currentTrace } from './core/state.js';
import { flattenArgs, unflatten } from './core/tree.js';

/**
 * jax.debug.callback(fn, ...args): fn(...args) with args' values (concrete
 * arrays, trees as given): at once outside a trace; inside one, each time the
 * traced program runs, once per device inside a shard_map body (device
 * order), once per example under vmap, with primal values under grad.
 * Returns whether it was traced (fn is then kept for the program's runs).
 */
export function callback(fn, ...args) {
  if (typeof fn !== 'function') throw new ValueError(`debug.callback: the first argument must be a function, got ${typeof fn}`);
  const t = currentTrace();
  if (!t) {
    fn(...args);
    return false;
  }
  const { leaves, def } = flattenArgs(args, isLeafValue);
  const id = registerCallback((values) => fn(...unflatten(def, values)));
  t.emit('debug_callback', { callback: id }, leaves.map((x) => traced(t, x, 'debug.callback').atomIn(t)));
  return true;
}

/**
 * jax.debug.print(fmt, ...args): fmt with each `{}` (in turn) or `{n}`
 * filled by an argument's values (nested lists), printed with console.log
 * where debug.callback would call its function.
 */
export function print(fmt, ...args) {
  if (typeof fmt !== 'string') throw new ValueError(`debug.print: the format must be a string, got ${typeof fmt}`);
  callback((...values) => console.log(formatted(fmt, values)), ...args);
}

// fmt's placeholders filled: {} takes the next value, {n} value n.
function formatted(fmt, values) {
  let next = 0;
  return fmt.replace(/\{(\d*)\}/g, (_, n) => {
    const k = n === '' ? next++ : Number(n);
    if (k >= values.length) throw new ValueError(`debug.print: the format ${JSON.stringify(fmt)} names value ${k}, but ${values.length} were given`);
    return text(values[k]);
  });
}

// A value as numpy would list it: nested lists of its elements (a scalar alone).
function text(v) {
  if (!v || typeof v.dataSync !== 'function') return String(v);
  const data = Array.from(v.dataSync(), (x) => (v.dtype === 'bool' ? Boolean(x) : x));
  const nest = (d, at) => (d === v.shape.length ? String(data[at]) : `[${Array.from({ length: v.shape[d] }, (_, i) => nest(d + 1, at * v.shape[d] + i)).join(' ')}]`);
  return nest(0, 0);
}
