// The function transformations: jit, makeJaxpr, grad, valueAndGrad, vjp,
// jvp and shardMap, plus devicePut (vmap.js and jacobians.js hold the others). Inside a trace they emit into it (a jit
// is inlined); outside, grad & co. run at once and return future arrays.

import { isArray, hostData, putHost, reshard, toSharding } from './core/array.js';
import { ShapeError, ValueError } from '../errors.js';
import { contextMesh, getAbstractMesh, isSpec, Mesh, NamedSharding } from './mesh.js';
import { avalOf, literalTracer, traced } from './core/operands.js';
import { staticKey } from './core/op.js';
import { closeTrace, compiled, execute, isLeafValue, openTrace, programOf, setTraceObserver, traceProgram } from './core/run.js';
import { currentTrace, engine, withTrace } from './core/state.js';
import { callCore, Trace } from './core/tracer.js';
import { broadcastPrefix, describe, flatten, flattenArgs, keyPaths, prefixPaths, unflatten } from './core/tree.js';
import { checkDivisible, checkInputSpec, checkOutputVma, checkSpecRanks } from './shard_map_checks.js';
import { isWeakScalar } from './core/weak_float.js';
import { isFloat } from '../dtypes.js';
import { pyTuple } from './core/python_text.js';

/**
 * jax.jit: compiles fn once per argument signature (tree structure, dtypes,
 * shapes). Calling it returns a Promise of the output tree of arrays; the
 * work runs on the device workers. Inside another trace it is one `jit`
 * equation of fn's program (printed as JAX prints it, run inline), named
 * `name` (fn's name by default).
 * inShardings / outShardings (a sharding or a PartitionSpec for all, or a
 * tree prefix of the argument list / the output) place the arguments and
 * outputs so, as devicePut inside the function would.
 */
export function jit(f, { staticArgnums = [], inShardings = null, outShardings = null, name = f.name || 'fn' } = {}) {
  const fn = inShardings === null && outShardings === null ? f : placed(f, inShardings, outShardings);
  const statics = Array.isArray(staticArgnums) ? staticArgnums : [staticArgnums];
  const caches = new Map();
  // Traces (once per signature) and submits a call: {outs: future arrays, def}.
  const dispatch = (...args) => {
    const key = staticKey(statics.map((i) => args[i]));
    let cache = caches.get(key);
    if (!cache) {
      cache = new Map();
      caches.set(key, cache);
    }
    const dynamic = args.filter((_, i) => !statics.includes(i));
    const call = (...dyn) => {
      let k = 0;
      return fn(...args.map((a, i) => (statics.includes(i) ? a : dyn[k++])));
    };
    const { tracedProgram, leaves } = compiled(cache, call, dynamic, 'jit');
    return { ...execute(tracedProgram, leaves, 'jit'), def: tracedProgram.outDef };
  };
  // Inside another trace: one jit equation of fn's program.
  const nested = (...args) => nestedCall(currentTrace(), fn, args, statics, 'jit', (ft, outs) => ft.jitCall(outs, name));
  const jitted = function (...args) {
    if (currentTrace()) return nested(...args);
    let run;
    try {
      run = dispatch(...args);
    } catch (e) {
      return Promise.reject(e);
    }
    return Promise.all([run.done, ...run.outs.map((o) => o._ready)]).then(() => unflatten(run.def, run.outs));
  };
  /**
   * jax.jit's call as JAX makes it: returns the output tree at once, its
   * arrays futures (computed already in a blocking engine); errors throw.
   */
  jitted.dispatch = (...args) => {
    if (currentTrace()) return nested(...args);
    const run = dispatch(...args);
    return unflatten(run.def, run.outs);
  };
  /** jax.jit(f).lower(...args): the program for these arguments' types (Lowered). */
  jitted.lower = (...args) => {
    const dynamic = args.filter((_, i) => !statics.includes(i));
    return new Lowered(makeJaxpr((...dyn) => {
      let k = 0;
      return fn(...args.map((a, i) => (statics.includes(i) ? a : dyn[k++])));
    })(...dynamic));
  };
  Object.defineProperty(jitted, 'name', { value: `jit(${name})` });
  return jitted;
}

/** A traced program: toString() gives jax.make_jaxpr's text, toJSON() its structured form. */
export class Jaxpr {
  /**
   * Internal: from a core program whose last `numConsts` inputs are
   * closed-over arrays (JAX's constvars; `consts`, their values, when the
   * caller has them); its text, JSON and printed bodies are read now.
   */
  constructor(program, numConsts = 0, consts = null) {
    /** How many of the JSON's invars, the last ones, are constants (JAX's constvars). */
    this.numConsts = numConsts;
    /** The constants' values (arrays), or null when they were not kept. */
    this.consts = consts;
    this._text = program.textWithConsts(numConsts);
    this._json = program.toJSON();
    this._bodies = program.printedBodies(numConsts);
    this._compiledText = program.compiledText(numConsts);
    this._compiledJson = program.loweredJSON();
  }

  /**
   * The program that runs, as text: where its values are sharded over
   * Explicit mesh axes, partitioned into one shard_map whose body is each
   * device's program, with the collectives the types need inserted; then
   * lowered (ShardLab's counterpart of XLA's compiled HLO).
   */
  compiledText() {
    return this._compiledText;
  }

  /** The program that runs as a plain object (toJSON's form; each collective with its `traffic`). */
  compiledJSON() {
    return JSON.parse(this._compiledJson);
  }

  /** The program as jaxpr text. */
  toString() {
    return this._text;
  }

  /**
   * Where the text's nested programs (shard_map bodies) printed on several
   * lines have their equations: [{first, last, equations}], lines
   * [first, last) of toString(), in the order they appear.
   */
  printedBodies() {
    return this._bodies.map((b) => ({ ...b }));
  }

  /** The program as a plain object (invars, eqns with primitive, params, inputs and outputs; outvars). */
  toJSON() {
    return JSON.parse(this._json);
  }
}

/** jax.jit(f).lower(...args): the traced program for those arguments' types (JAX's Lowered stage). */
export class Lowered {
  /** Internal: from the function's Jaxpr. */
  constructor(jaxpr) {
    this._jaxpr = jaxpr;
  }

  /** The program's text: its jaxpr, shardings in its types (ShardLab lowers to no StableHLO). */
  asText() {
    return String(this._jaxpr);
  }

  /** The Compiled stage: the program that runs. */
  compile() {
    return new Compiled(this._jaxpr);
  }
}

/** jax.jit(f).lower(...args).compile(): the program that runs for those types (JAX's Compiled stage). */
export class Compiled {
  /** Internal: from the function's Jaxpr. */
  constructor(jaxpr) {
    this._jaxpr = jaxpr;
  }

  /** The per-device program that runs (Jaxpr.compiledText), ShardLab's counterpart of the compiled HLO. */
  asText() {
    return this._jaxpr.compiledText();
  }
}

/** jax.make_jaxpr: makeJaxpr(fn)(...args) traces fn (synchronously) and returns its Jaxpr. */
export function makeJaxpr(fn) {
  return (...args) => {
    if (currentTrace()) throw new ValueError('makeJaxpr: call it outside traced functions');
    const tracedProgram = traceProgram(fn, args, 'make_jaxpr');
    try {
      return new Jaxpr(tracedProgram.program, tracedProgram.consts.length, tracedProgram.consts);
    } finally {
      tracedProgram.program.delete();
    }
  };
}

/**
 * Calls `observer({kind, jaxpr})` with each program a jit call or makeJaxpr
 * traces from now on (`kind` 'jit' or 'make_jaxpr', `jaxpr` a Jaxpr), in
 * Python too; `null` stops. For tools that show what a script traced (the
 * page's playground); a jit traces once per argument signature.
 */
export function observeTraces(observer) {
  setTraceObserver(observer && ((kind, program, numConsts) => observer({ kind, jaxpr: new Jaxpr(program, numConsts) })));
}

// A transformed function's eager programs live as long as the function: a
// front end that transforms a fresh function on every call (Python's
// jax.grad(f)(x) in a loop) leaves nothing behind once the function is gone.
// A running job holds the program it runs, so deleting the handle is safe.
const eagerPrograms = new FinalizationRegistry((cache) => {
  for (const tracedProgram of cache.values()) tracedProgram.program.delete();
});

// f with its arguments and outputs put where jit's shardings say (devicePut
// in the trace: a resharding shard_map where the layout changes).
function placed(f, inShardings, outShardings) {
  return (...args) => {
    const ins = inShardings === null ? args : devicePut(args, inShardings);
    const out = f(...ins);
    return outShardings === null ? out : devicePut(out, outShardings);
  };
}

/** Runs a transformed function eagerly: traced as a whole (once per signature, cached on g), executed at once. */
export function eagerly(name, g, args) {
  if (!g._eager) {
    g._eager = new Map();
    eagerPrograms.register(g, g._eager);
  }
  const { tracedProgram, leaves } = compiled(g._eager, g, args, name);
  const { outs, done } = execute(tracedProgram, leaves, name);
  // g (so its programs) stays alive until the run has submitted and finished.
  Promise.allSettled([done]).then(() => g);
  return unflatten(tracedProgram.outDef, outs);
}


/** The positions `argnums` (an integer or a list; negative from the end) among n arguments; errors name `fn`. */
export function argnumsOf(argnums, n, fn) {
  const list = Array.isArray(argnums) ? argnums : [argnums];
  for (const a of list) {
    if (!Number.isInteger(a) || a < -n || a >= n) {
      throw new ValueError(`${fn}: argnums ${JSON.stringify(argnums)} is out of range for ${n} positional arguments`);
    }
  }
  return list.map((a) => (a < 0 ? a + n : a));
}

/**
 * Starts tracing f for differentiation with respect to args[nums]: returns
 * the core's FunctionTrace, the inner trace, the arguments to call f with,
 * and how to split derivatives per argument. `diffs`: the derivatives that
 * will be taken of the inner trace (t.diffs + 1 for grad, jvp and vjp; 0 for a staged call).
 */
/**
 * fn traced in trace t as a function of its non-static arguments (closing
 * over t's values), then emitted into t by `emit(ft, outAtoms)` as one
 * equation calling its program (a jit's, a checkpoint's); returns the
 * outputs' tree.
 */
export function nestedCall(t, fn, args, statics, kind, emit) {
  const nums = args.map((_, i) => i).filter((i) => !statics.includes(i));
  const { ft, inner, newArgs } = beginDiff(t, fn, args, nums, kind);
  try {
    const out = withTrace(inner, () => fn(...newArgs));
    const { leaves, def } = flatten(out, isLeafValue);
    const outAtoms = leaves.map((x) => traced(inner, x, kind).atomIn(inner));
    return unflatten(def, t.wrap(callCore(() => emit(ft, outAtoms))));
  } finally {
    inner.live = false;
    ft.delete();
  }
}

export function beginDiff(t, f, args, nums, fn, diffs = 0) {
  const { traces } = engine().runtime;
  const parts = nums.map((i) => flatten(args[i], isLeafValue));
  const atoms = parts.flatMap((p) => p.leaves.map((x) => traced(t, x, fn).atomIn(t)));
  const ft = callCore(() => traces.function(t.core, atoms));
  const inner = new Trace(ft.body(), t, fn);
  inner.diffs = diffs;
  const ins = inner.wrap(ft.inputs());
  const newArgs = [...args];
  let k = 0;
  nums.forEach((i, j) => {
    const n = parts[j].leaves.length;
    newArgs[i] = unflatten(parts[j].def, ins.slice(k, k + n));
    k += n;
  });
  const split = (derivs) => {
    let m = 0;
    return nums.map((_, j) => {
      const n = parts[j].leaves.length;
      const tree = unflatten(parts[j].def, derivs.slice(m, m + n));
      m += n;
      return tree;
    });
  };
  return { ft, inner, newArgs, split };
}

function valueAndGradImpl(f, { argnums = 0, hasAux = false } = {}, fn) {
  const g = (...args) => {
    const t = currentTrace();
    if (!t) return eagerly(fn, g, args);
    const nums = argnumsOf(argnums, args.length, fn);
    for (const n of nums) {
      // A JS number is a float here, as an argument of any jit call (JS has no int literals).
      for (const leaf of flatten(args[n], isLeafValue).leaves.filter((x) => typeof x !== 'number')) {
        const { dtype } = avalOf(leaf, fn);
        if (!isFloat(dtype)) {
          throw new ShapeError(
            `grad requires real- or complex-valued inputs (input dtype that is a sub-dtype of np.inexact), but got ${dtype}. ` +
              'If you want to use Boolean- or integer-valued inputs, use vjp or set allow_int to True.',
          );
        }
      }
    }
    const { ft, inner, newArgs, split } = beginDiff(t, f, args, nums, fn, t.diffs + 1);
    try {
      const out = withTrace(inner, () => f(...newArgs));
      let value = out;
      let aux;
      if (hasAux) {
        if (!Array.isArray(out) || out.length !== 2) throw new ValueError(`${fn}: with hasAux the function must return [value, aux]`);
        [value, aux] = out;
      }
      if (!isLeafValue(value) && typeof value !== 'number') {
        throw new ShapeError(`${fn}: the function must return a float32 scalar${hasAux ? ' (and aux)' : ''}, got a tree`);
      }
      const auxTree = flatten(aux, isLeafValue);
      const outAtoms = [value, ...auxTree.leaves].map((x) => traced(inner, x, fn).atomIn(inner));
      const r = callCore(() => ft.grad(outAtoms));
      const outs = t.wrap(r.outputs);
      const grads = split(t.wrap(r.derivs));
      const gradsOut = Array.isArray(argnums) ? grads : grads[0];
      const valueOut = hasAux ? [outs[0], unflatten(auxTree.def, outs.slice(1))] : outs[0];
      return [valueOut, gradsOut];
    } finally {
      inner.live = false;
      ft.delete();
    }
  };
  return g;
}

/** jax.value_and_grad(f, {argnums, hasAux}): returns [value, grads] (or [[value, aux], grads]). */
export function valueAndGrad(f, opts = {}) {
  return valueAndGradImpl(f, opts, 'valueAndGrad');
}

/** jax.grad(f, {argnums, hasAux}): the gradient (a tree per argnum; [grads, aux] with hasAux). */
export function grad(f, opts = {}) {
  const vg = valueAndGradImpl(f, opts, 'grad');
  const g = (...args) => {
    if (!currentTrace()) return eagerly('grad', g, args);
    const [value, grads] = vg(...args);
    return opts.hasAux ? [grads, value[1]] : grads;
  };
  return g;
}

/** jax.vjp(f, ...primals): returns [out, vjpFn] where vjpFn(cotangents) gives one cotangent per primal. */
export function vjp(f, ...primals) {
  const t = currentTrace();
  if (!t) return eagerVjp(f, primals);
  const nums = primals.map((_, i) => i);
  const { ft, inner, newArgs, split } = beginDiff(t, f, primals, nums, 'vjp', t.diffs + 1);
  t.root.cleanups.push(ft);
  let outTree;
  let outAtoms;
  try {
    const out = withTrace(inner, () => f(...newArgs));
    outTree = flatten(out, isLeafValue);
    outAtoms = outTree.leaves.map((x) => traced(inner, x, 'vjp').atomIn(inner));
  } finally {
    inner.live = false;
  }
  const out = unflatten(outTree.def, t.wrap(callCore(() => ft.primal(outAtoms))));
  // Called in this trace or one nested in it (vmap's, for jacrev): the cotangents are emitted there.
  const vjpFn = (cts) => {
    const here = currentTrace();
    const ctLeaves = cotangentValues(cts, outTree, here, 'vjp').map((v) => v.atomIn(here));
    const r = callCore(() => ft.vjp(outAtoms, ctLeaves, here.core));
    return split(here.wrap(r.derivs));
  };
  return [out, vjpFn];
}

/**
 * The cotangents `cts` of a function's outputs (`outTree`, flattened) as
 * values of trace `here`, checked against the outputs with JAX's errors; a
 * JS number is a weakly typed cotangent of its output's dtype (JS has no int
 * literals: 1 is 1.0 here).
 */
export function cotangentValues(cts, outTree, here, fn) {
  checkCotangents(cts, outTree);
  return flatten(cts, isLeafValue).leaves.map((x, i) =>
    typeof x === 'number' ? literalTracer(here, x, outTree.leaves[i].dtype, true) : traced(here, x, fn),
  );
}

// The cotangents of a vjp pullback (or a linear transpose) against its function's outputs, with JAX's errors.
function checkCotangents(cts, outTree) {
  const { leaves, def } = flatten(cts, isLeafValue);
  if (describe(def) !== describe(outTree.def)) {
    throw new ShapeError(`Tree structure of cotangent input ${describe(def)}, does not match structure of primal output ${describe(outTree.def)}.`);
  }
  leaves.forEach((ct, i) => {
    const want = avalOf(outTree.leaves[i], 'vjp');
    const got = avalOf(ct, 'vjp');
    if (isFloat(want.dtype) && got.dtype !== want.dtype && !got.weak) {
      throw new ShapeError(`Type of cotangent input to vjp pullback function (${got.dtype}) is not the expected tangent type (${want.dtype}) of corresponding primal output with dtype ${want.dtype}.`);
    }
    if (got.shape.length !== want.shape.length || got.shape.some((n, k) => n !== want.shape[k])) {
      throw new ValueError(`Shape of cotangent input to vjp pullback function ${pyTuple(got.shape)} must be the same as the shape of corresponding primal input ${pyTuple(want.shape)}.`);
    }
  });
}

// What `make(n)` makes for function f and n primals, made once: the
// function eager jvp runs (its programs are cached on it).
function perArity(cache, f, n, make) {
  if (!cache.has(f)) cache.set(f, new Map());
  const byCount = cache.get(f);
  if (!byCount.has(n)) byCount.set(n, make(n));
  return byCount.get(n);
}

// An eager vjp's open trace lives as long as its pullback.
const openVjps = new FinalizationRegistry((o) => closeTrace(o));

// vjp called outside any trace runs as JAX's does: the forward pass (a
// custom_vjp's fwd) now, the backward pass (its bwd) at each call of the
// pullback. One open trace holds both: the outputs' program runs now, and
// each pullback call transposes into the trace (its cotangents captured as
// constants) and runs the program of the derivatives.
function eagerVjp(f, primals) {
  const o = openTrace(primals, 'vjp');
  let out;
  let pull;
  try {
    [out, pull] = withTrace(o.t, () => vjp(f, ...o.args));
  } catch (e) {
    closeTrace(o);
    throw e;
  }
  const { leaves } = flattenArgs(primals, isLeafValue);
  const run = (tree) => {
    const tracedProgram = programOf(o, tree, 'vjp');
    const { outs, done } = execute(tracedProgram, leaves, 'vjp');
    // A running job holds the program it runs, but the run starts after its inputs are ready.
    Promise.allSettled([done]).then(() => tracedProgram.program.delete());
    return unflatten(tracedProgram.outDef, outs);
  };
  const values = run(out);
  const outTree = flatten(values, isLeafValue);
  const pullback = (cts) => {
    checkCotangents(cts, outTree);
    // Called inside a trace (make_jaxpr of the pullback), the whole vjp is traced into it.
    if (currentTrace()) return vjp(f, ...primals)[1](cts);
    return run(withTrace(o.t, () => pull(cts)));
  };
  openVjps.register(pullback, o);
  return [values, pullback];
}

// Per function, per number of primals: jvp as one transformed function of
// primals and tangents, run eagerly (jvp called outside any trace).
const eagerJvps = new WeakMap();
const eagerJvp = (f, n) => perArity(eagerJvps, f, n, () => (...xs) => jvp(f, xs.slice(0, n), xs.slice(n)));

/** jax.jvp(f, primals, tangents): returns [out, tangentOut] (future arrays when called outside a trace). */
export function jvp(f, primals, tangents) {
  const t = currentTrace();
  if (!Array.isArray(primals) || !Array.isArray(tangents) || primals.length !== tangents.length) {
    throw new ValueError('jvp: primals and tangents must be arrays with one entry per argument of the function');
  }
  if (!t) return eagerly('jvp', eagerJvp(f, primals.length), [...primals, ...tangents]);
  const nums = primals.map((_, i) => i);
  const { ft, inner, newArgs } = beginDiff(t, f, primals, nums, 'jvp', t.diffs + 1);
  try {
    const out = withTrace(inner, () => f(...newArgs));
    const outTree = flatten(out, isLeafValue);
    const outAtoms = outTree.leaves.map((x) => traced(inner, x, 'jvp').atomIn(inner));
    const tanAtoms = tangents.flatMap((tr) => flatten(tr, isLeafValue).leaves.map((x) => traced(t, x, 'jvp').atomIn(t)));
    const r = callCore(() => ft.jvp(outAtoms, tanAtoms));
    return [unflatten(outTree.def, t.wrap(r.outputs)), unflatten(outTree.def, t.wrap(r.derivs))];
  } finally {
    inner.live = false;
    ft.delete();
  }
}

/**
 * jax.shard_map(f, {mesh, inSpecs, outSpecs, checkVma}): f runs on every
 * device of `mesh` (by default jax.set_mesh's) with its blocks of the arguments (split by inSpecs, a
 * tree prefix of the arguments); its per-device results are joined by
 * outSpecs (a tree prefix of the results, or a function of the results
 * returning one, for a front end that knows the specs only then). Values f
 * closes over become replicated inputs of the body.
 */
export function shardMap(f, { mesh: given, inSpecs, outSpecs, checkVma = true, reshards = false, name = null, paths = null } = {}) {
  if (given !== undefined && !(given instanceof Mesh)) throw new ValueError('shardMap: `mesh` must be a Mesh (from makeMesh)');
  if (inSpecs === undefined || outSpecs === undefined) throw new ValueError('shardMap: give both inSpecs and outSpecs');
  const fnName = name ?? (f.name || '<anonymous>');
  const g = (...args) => {
    const t = currentTrace();
    if (!t) return eagerly('shardMap', g, args);
    // Without `mesh`, jax.set_mesh's, read where it is traced (as JAX's, at the call); a jit's cache keys on it.
    const context = contextMesh();
    const mesh = given ?? context;
    if (!mesh) throw new ValueError('shardMap: The context mesh cannot be empty. Use `jax.set_mesh(mesh)` to enter into a mesh context, or pass `mesh`');
    if (given && context && (context.key !== mesh.key || context.axisTypes.join() !== mesh.axisTypes.join())) {
      throw new ValueError(`The context mesh ${getAbstractMesh()} should match the mesh passed to shard_map ${mesh}`);
    }
    const { traces } = engine().runtime;
    t.root.meshes.add(mesh);
    const { leaves, def } = flattenArgs(args, isLeafValue);
    const specs = broadcastPrefix(inSpecs, def, isSpec, 'shardMap inSpecs');
    const values = leaves.map((x) => traced(t, x, 'shardMap'));
    const inPaths = pathsOf(paths?.in, inSpecs, def, 'shardMap inSpecs');
    checkSpecRanks('in', fnName, specs, values, inPaths);
    checkDivisible(fnName, mesh, specs, values, inPaths);
    if (!reshards && mesh.axisTypes.every((a) => a === 'Explicit')) values.forEach((v, i) => checkInputSpec(v, specs[i]));
    const atoms = values.map((v) => v.atomIn(t));
    const sm = callCore(() => traces.shardMap(t.core, mesh._handle, specs.map((s) => s.toCore()), checkVma, atoms));
    const body = new Trace(sm.body(), t, 'shard_map');
    body.mesh = mesh; // the axes its collectives name (lax.axisSize)
    try {
      const blocks = body.wrap(sm.blocks());
      const out = withTrace(body, () => f(...unflatten(def, blocks)));
      const outTree = flatten(out, isLeafValue);
      const outValues = outTree.leaves.map((x) => traced(body, x, 'shardMap'));
      const outAtoms = outValues.map((v) => v.atomIn(body));
      const prefix = typeof outSpecs === 'function' ? outSpecs(out) : outSpecs;
      const ospecs = broadcastPrefix(prefix, outTree.def, isSpec, 'shardMap outSpecs');
      const outPaths = pathsOf(paths?.out, prefix, outTree.def, 'shardMap outSpecs');
      checkSpecRanks('out', fnName, ospecs, outValues, outPaths);
      if (checkVma) checkOutputVma(fnName, mesh, ospecs, outValues, outPaths);
      const res = t.wrap(callCore(() => sm.finish(ospecs.map((s) => s.toCore()), outAtoms)));
      res.forEach((v, i) => (v.spec = ospecs[i]));
      return unflatten(outTree.def, res);
    } finally {
      body.live = false;
      sm.delete();
    }
  };
  return g;
}

// Each value's {spec, value} key paths for the spec checks' messages (the
// front end's, else from the trees), found only when a message needs them:
// tracing a shard_map that passes its checks walks no tree for them.
function pathsOf(given, specs, def, what) {
  let paths = given;
  return () => {
    if (!paths) {
      const specPaths = prefixPaths(specs, def, isSpec, what);
      const valuePaths = keyPaths(def);
      paths = specPaths.map((spec, i) => ({ spec, value: valuePaths[i] }));
    }
    return paths;
  };
}

/**
 * jax.device_put(x, sharding): places x (an array, numbers or nested
 * arrays; a tree) on the devices as `sharding` (a NamedSharding) says.
 * Inside a trace it constrains the value's layout instead.
 */
export function devicePut(x, sharding) {
  const t = currentTrace();
  const { leaves, def } = flatten(x, isLeafValue);
  const shardings = broadcastPrefix(sharding ?? null, def, (s) => s === null || s instanceof NamedSharding || isSpec(s), 'devicePut sharding');
  const out = leaves.map((leaf, i) => {
    const s = shardings[i] === null ? null : toSharding(shardings[i], 'devicePut');
    if (t) {
      if (!s) return traced(t, leaf, 'devicePut');
      return shardMap((v) => v, { mesh: s.mesh, inSpecs: [s.spec], outSpecs: s.spec, reshards: true })(leaf);
    }
    if (isArray(leaf)) return s ? reshard(leaf, s) : leaf;
    // A number is weakly typed, as JAX's device_put of a Python scalar.
    return putHost(hostData(leaf, {}, 'devicePut'), s ?? undefined, isWeakScalar(leaf));
  });
  return unflatten(def, out);
}
