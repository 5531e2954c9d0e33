// The jax.lax functions the core's registry states (the collectives, pmean
// and pcast: each Def's kLaxName and kLaxArgs, cpp/ir/primitives/parallel.h),
// read through one binding (laxFunctions, engine/core_traces.js): their
// arguments, how each is passed and its default. sl.lax's functions and
// Python's jax.lax ones are built from it; nothing here restates a parameter.

import { AxisNameError, ValueError } from '../../errors.js';
import { camelCase } from '../../names.js';
import { isLeafValue } from '../core/run.js';
import { currentTrace, engine } from '../core/state.js';
import { traced, traceFor } from '../core/operands.js';
import { callCore, isTracer } from '../core/tracer.js';
import { flatten, unflatten } from '../core/tree.js';
import { WeakFloat, weakFloat } from '../core/weak_float.js';
import { eagerly } from '../transforms.js';

let registry = null; // name -> {name, primitive, collective, takesOperands, args: [{name, type, keyword, optional, default}]}

/** The registry's record of the jax.lax function `name` (e.g. 'all_gather'), read from the core once. */
export function laxSchema(name) {
  registry ??= new Map(engine().runtime.traces.laxFunctions().map((f) => [f.name, f]));
  const f = registry.get(name);
  if (!f) throw new ValueError(`lax: the core has no function '${name}'; it has ${[...registry.keys()].join(', ')}`);
  return f;
}

const axesOf = (axisName, fn) => {
  if (axisName instanceof Set) {
    const names = `{${[...axisName].map((a) => `'${a}'`).join(', ')}}`;
    throw new TypeError(`${fn}: axis_name=${names} must be a tuple or a str. Got ${names}`);
  }
  const axes = Array.isArray(axisName) ? axisName : [axisName];
  if (!axes.length || !axes.every((a) => typeof a === 'string')) {
    throw new ValueError(`${fn}: axisName must be a mesh axis name or a list of them, got ${JSON.stringify(axisName)}`);
  }
  return axes;
};

/**
 * jax.lax.axis_size(axisName): the number of devices along the axes (a name
 * or a list of them) of the enclosing shard_map's mesh, a number known while
 * tracing (JAX's psum(1, axisName)).
 */
export function axisSize(axisName) {
  const axes = axesOf(axisName, 'lax.axisSize');
  for (let t = currentTrace(); t; t = t.parent) {
    if (t.mesh && axes.every((a) => t.mesh.axisNames.includes(a))) return axes.reduce((n, a) => n * t.mesh.axisSize(a), 1);
  }
  // JAX 0.11's NameError (core.py's axis environment), with the axes that are bound.
  const unbound = axes.find((a) => !meshAxes().includes(a)) ?? axes[0];
  const bound = meshAxes();
  throw new AxisNameError(
    `unbound axis name: ${unbound}${bound.length ? ` (the enclosing shard_maps bind ${bound.map((a) => `'${a}'`).join(', ')})` : ''}`,
  );
}

// The axis names of the shard_maps enclosing the current trace.
function meshAxes() {
  const names = [];
  for (let t = currentTrace(); t; t = t.parent) if (t.mesh) names.push(...t.mesh.axisNames);
  return names;
}

// psum of a value that is not traced, as JAX computes it: the value times the
// axes' size (a bool as an int), no collective, its Python-like type kept.
function constantSum(x, size) {
  if (Array.isArray(x)) return x.map((v) => constantSum(v, size)); // nested numbers: array data
  if (x instanceof WeakFloat) return weakFloat(x.value * size);
  if (typeof x === 'number' || typeof x === 'boolean') return Number(x) * size;
  return x.astype(x.dtype === 'bool' ? 'int32' : x.dtype).mul(size);
}

/**
 * The JS function of jax.lax's `name`, from its registry record: JAX's
 * positional arguments in order (an operand tree first, unless it reads
 * none, then axisName), and its keyword-only ones in a last options object
 * under their camelCase names. One call into the core, where its bind rule
 * lives (reductions bind one equation for all the leaves, so the devices
 * meet once, as JAX binds psum; the others one per leaf).
 */
export function laxFunction(name) {
  const fn = `lax.${camelCase(name)}`;
  return (...given) => {
    const f = laxSchema(name);
    const positional = f.args.filter((a) => !a.keyword);
    const keywords = f.args.filter((a) => a.keyword);
    const tree = f.takesOperands ? given.shift() : [];
    if (given.length > positional.length + (keywords.length ? 1 : 0)) {
      throw new ValueError(`${fn}: takes ${positional.map((a) => camelCase(a.name)).join(', ')}${keywords.length ? ' and an options object' : ''} after its operands; got ${given.length} arguments`);
    }
    const args = {};
    positional.forEach((a, i) => {
      if (given[i] === undefined) throw new ValueError(`${fn}: missing argument ${camelCase(a.name)}`);
      args[a.name] = a.name === 'axis_name' ? axesOf(given[i], fn) : given[i];
    });
    const options = given[positional.length] ?? {};
    for (const key of Object.keys(options)) {
      const a = keywords.find((k) => camelCase(k.name) === key);
      if (!a) throw new ValueError(`${fn}: unknown option '${key}'; its options are ${keywords.map((k) => camelCase(k.name)).join(', ') || 'none'}`);
      args[a.name] = options[key];
    }
    for (const a of keywords) if (!a.optional && args[a.name] === undefined) throw new ValueError(`${fn}: missing option ${camelCase(a.name)}`);
    const { leaves, def } = flatten(tree, isLeafValue);
    if (name === 'psum' && !leaves.some((x) => isTracer(x))) return unflatten(def, leaves.map((x) => constantSum(x, axisSize(args.axis_name))));
    const bind = (...xs) => {
      const t = traceFor(fn);
      return t.wrap(callCore(() => t.core.bind(name, args, xs.map((x) => traced(t, x, fn).atomIn(t)))));
    };
    // Outside any trace the call runs eagerly, as JAX binds a primitive: the
    // core's bind rule refuses a collective outside a shard_map with JAX's
    // NameError, and pvary has JAX's eager (impl) error.
    if (!currentTrace() && name === 'pcast') throw new ValueError(`${fn}: pvary should be called under jax.shard_map.`);
    const outs = currentTrace() ? bind(...leaves) : eagerly(fn, bind, leaves);
    return f.takesOperands ? unflatten(def, outs) : outs[0];
  };
}

// A value as Python writes it in a signature's default.
const pythonValue = (v) => (v === true ? 'True' : v === false ? 'False' : typeof v === 'string' ? `'${v}'` : String(v));

/**
 * The parameters of jax.lax's `name` in the API manifest's notation
 * (manifest.js), from its registry record: `x:tree, axis_name, *, {axis=0, tiled=False}`.
 */
export function laxParams(name) {
  const f = laxSchema(name);
  const positional = f.args.filter((a) => !a.keyword).map((a) => a.name);
  const keywords = f.args.filter((a) => a.keyword).map((a) => (a.optional ? `${a.name}=${pythonValue(a.default)}` : a.name));
  return [...(f.takesOperands ? ['x:tree'] : []), ...positional, ...(keywords.length ? ['*', `{${keywords.join(', ')}}`] : [])].join(', ');
}
