// Defining operations that work both inside traces (emitting primitives) and
// on concrete arrays (run at once as a small cached program, returning
// future arrays, as JAX's eager dispatch).

import { currentTrace } from './state.js';
import { runEager } from './run.js';
import { ArrayBase } from './tracer.js';
import { ValueError } from '../../errors.js';
import { plainStatic } from './weak_float.js';

/**
 * A cache key of static arguments: JSON, except that Infinity, -Infinity and
 * NaN stay distinct (JSON writes them all as null).
 */
export function staticKey(values) {
  return JSON.stringify(values, (_, v) => (typeof v === 'number' && !Number.isFinite(v) ? `#${v}` : v));
}

/**
 * An operation `name` whose first `arrays` arguments are arrays (or trees of
 * arrays) and the rest static options (a WeakFloat among them is read as its
 * number). Outside a trace it runs eagerly.
 */
export function defop(name, arrays, impl) {
  const f = (...args) => {
    if (currentTrace()) return impl(...args.slice(0, arrays), ...args.slice(arrays).map(plainStatic));
    const dynamic = args.slice(0, arrays);
    const statics = args.slice(arrays).map(plainStatic);
    const array = statics.findIndex((s) => s instanceof ArrayBase);
    if (array >= 0) throw new ValueError(`${name}: argument ${arrays + array + 1} is an array, but it is a static argument: give a number, a list of numbers or a string`);
    return runEager(`${name}|${staticKey(statics)}`, (...xs) => impl(...xs, ...statics), dynamic);
  };
  Object.defineProperty(f, 'name', { value: name });
  return f;
}
