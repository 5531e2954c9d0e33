// The jax.lax functions the core's registry states (the collectives, pmean
// and pcast: each Def's kLaxName and kLaxArgs, cpp/ir/primitives/parallel.h),
// read through one binding (laxFunctions, engine/core_traces.js): their
// arguments, how each is passed and its default. sl.lax's functions and
// Python's jax.lax ones are built from it; nothing here restates a parameter.

import { ValueError } from '../../errors.js';
import { camelCase } from '../../names.js';
import { isLeafValue } from '../core/run.js';
import { engine } from '../core/state.js';
import { traced, traceFor } from '../core/operands.js';
import { callCore } from '../core/tracer.js';
import { flatten, unflatten } from '../core/tree.js';

let registry = null; // name -> {name, primitive, collective, takesOperands, args: [{name, type, keyword, optional, default}]}

/** The registry's record of the jax.lax function `name` (e.g. 'all_gather'), read from the core once. */
export function laxSchema(name) {
  registry ??= new Map(engine().runtime.traces.laxFunctions().map((f) => [f.name, f]));
  const f = registry.get(name);
  if (!f) throw new ValueError(`lax: the core has no function '${name}'; it has ${[...registry.keys()].join(', ')}`);
  return f;
}

const axesOf = (axisName, fn) => {
  const axes = Array.isArray(axisName) ? axisName : [axisName];
  if (!axes.length || !axes.every((a) => typeof a === 'string')) {
    throw new ValueError(`${fn}: axisName must be a mesh axis name or a list of them, got ${JSON.stringify(axisName)}`);
  }
  return axes;
};

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
    const t = traceFor(fn);
    const { leaves, def } = flatten(tree, isLeafValue);
    const atoms = leaves.map((x) => traced(t, x, fn).atomIn(t));
    const outs = t.wrap(callCore(() => t.core.bind(name, args, atoms)));
    return f.takesOperands ? unflatten(def, outs) : outs[0];
  };
}

// A value as Python writes it in a signature's default.
const pythonValue = (v) => (v === true ? 'True' : v === false ? 'False' : String(v));

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
