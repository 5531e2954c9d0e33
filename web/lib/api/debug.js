// jax.debug: seeing values from inside jit, shard_map, vmap and grad. A call
// traced into a program is a debug_callback equation: its function runs on
// this thread once the program's run has ended, with each device's values
// (inside a shard_map body) in device order; outside a trace it runs at once.

import { ValueError } from '../errors.js';
import { registerCallback } from './core/debug_calls.js';
import { printPieces } from './core/debug_print.js';
import { parseFormat, staticText } from './core/debug_text.js';
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
  t.emit('debug_callback', { callback: id, fmt: '' }, leaves.map((x) => traced(t, x, 'debug.callback').atomIn(t)));
  return true;
}

/**
 * jax.debug.print(fmt, ...args): fmt with each `{}` (in turn) or `{n}`
 * filled by argument n, printed with console.log where debug.callback would
 * call its function: an array as numpy's str ([0. 1. 2.]), `{n!r}` its
 * repr, `{n:.3f}` a 0-d array's element by Python's format spec; a number
 * or string argument is written in at the call.
 */
export function print(fmt, ...args) {
  if (typeof fmt !== 'string') throw new ValueError(`debug.print: the format must be a string, got ${typeof fmt}`);
  const operands = [];
  const numbers = new Map(); // argument -> operand
  const pieces = parseFormat(fmt, args.length, { auto: true, what: 'debug.print' }).map((p) => {
    if (typeof p === 'string') return p;
    const v = args[p.index];
    if (!isLeafValue(v)) return staticText(p, v);
    if (!numbers.has(p.index)) numbers.set(p.index, operands.push(v) - 1);
    return { ...p, index: numbers.get(p.index) };
  });
  printPieces((text) => console.log(text), pieces, operands, 'debug.print');
}
