// Tracing a JS function into a program, and running a program on the
// devices. A program is traced once per signature (the tree structure and
// each leaf's dtype and shape) and cached; running it returns future arrays.

import { DArray, hostData, isArray, reshard } from './array.js';
import { ShardingError, ValueError } from '../../errors.js';
import { defaultMesh, NamedSharding, P, typeSpec } from '../mesh.js';
import { avalOf, literalTracer, traced } from './operands.js';
import { checkDimensions, checkFits } from './shape.js';
import { engine, withTrace } from './state.js';
import { avalString, callCore, isTracer, Trace } from './tracer.js';
import { describe, flatten, flattenArgs, unflatten } from './tree.js';
import { WeakFloat } from './weak_float.js';
import { deliver, mayRecord } from './debug_calls.js';

/** jax.ShapeDtypeStruct: an abstract argument (shape and dtype) for makeJaxpr. */
export class ShapeDtypeStruct {
  constructor(shape, dtype = 'float32') {
    this.shape = checkDimensions(shape, 'ShapeDtypeStruct');
    this.dtype = dtype;
    Object.freeze(this);
  }
}

/** Whether x is a leaf of an argument tree. */
export function isLeafValue(x) {
  return isTracer(x) || isArray(x) || x instanceof ShapeDtypeStruct || x instanceof WeakFloat || ArrayBuffer.isView(x);
}

// The input aval of an argument leaf: JS numbers are f32[] (a learning rate), booleans bool[].
/**
 * The dtype of a JS-number argument, weakly typed: a float32 for a function
 * (JS cannot tell 3 from 3.0, and a function's number is usually a float, a
 * learning rate); for one eager operation (scalarInts), int32 for an integer
 * in int32's range, as the same number inside a trace is a weak int literal.
 */
function scalarDtype(x, scalarInts) {
  return scalarInts && Number.isInteger(x) && x >= -(2 ** 31) && x < 2 ** 31 ? 'int32' : 'float32';
}

function inputAval(x, fn, scalarInts = false) {
  if (x instanceof ShapeDtypeStruct) {
    checkFits(x.shape, x.dtype, fn, 'the ShapeDtypeStruct');
    return { dtype: x.dtype, shape: x.shape };
  }
  if (typeof x === 'number') return { dtype: scalarDtype(x, scalarInts), shape: [], weak: true };
  return avalOf(x, fn);
}

/** The key of an argument leaf's aval: float32[8,2], ~float32[] when weakly typed (as JAX prints a weak type) and `weak` counts, float32[8@X,2] when sharded over Explicit axes. */
export const avalKey = (a, weak = true) =>
  `${a.weak && weak ? '~' : ''}${a.sharding ? `${avalString(a, { short: false })}/${a.sharding.mesh.join(';')}` : `${a.dtype}[${a.shape}]`}`;

/** The cache key of arguments: their structure and each leaf's dtype, shape and (when `weak`) weak type. */
export function signature(args, fn, scalarInts = false, weak = true) {
  const { leaves, def } = flattenArgs(args, isLeafValue);
  const parts = leaves.map((x) => avalKey(inputAval(x, fn, scalarInts), weak));
  return { key: `${describe(def)}|${parts.join(';')}`, leaves, def };
}

// Told of each program jit or makeJaxpr traces (setTraceObserver); null when
// nobody asked, so tracing then pays one test.
let traceObserver = null;
const OBSERVED_KINDS = new Set(['jit', 'make_jaxpr']);

/** Internal (transforms.js observeTraces): calls `observer(kind, program, numConsts)` with each program jit or makeJaxpr traces; null stops. */
export function setTraceObserver(observer) {
  traceObserver = observer;
}

/**
 * A top-level trace over `args`, every leaf abstract: {t, core, def, args}
 * (args: the traced values in the arguments' structure). Programs of what
 * it traces are taken with programOf; closeTrace ends it.
 */
export function openTrace(args, kind, scalarInts = false) {
  const { traces } = engine().runtime;
  const { leaves, def } = flattenArgs(args, isLeafValue);
  const core = traces.top();
  const t = new Trace(core, null, kind);
  const o = { t, core, def, scalarInts, args: null };
  try {
    const inputs = leaves.map((x) => {
      const a = inputAval(x, kind, scalarInts);
      const v = t.wrap([callCore(() => core.input(a.dtype, a.shape, Boolean(a.weak), a.sharding ?? null))])[0];
      // Its sharding, as shard_map over Explicit axes checks it: an array's, else unsharded (P()).
      v.spec = isArray(x) ? x.sharding.spec : P();
      return v;
    });
    o.args = unflatten(def, inputs);
    return o;
  } catch (e) {
    closeTrace(o);
    throw e;
  }
}

/**
 * The program of open trace `o` returning `out` (traced values of it): what
 * the rest of this file calls a `tracedProgram`: the core program and what
 * running it needs, the structures, the constant arrays captured so far and
 * the meshes its shard_maps use.
 */
export function programOf(o, out, kind) {
  const { t, core } = o;
  const { leaves: outLeaves, def: outDef } = flatten(out, isLeafValue);
  // A JS number returned is a weak float32, as a JS number argument is (JS has no int literals).
  const outAtoms = outLeaves.map((x) => (typeof x === 'number' ? literalTracer(t, x, 'float32', true) : traced(t, x, kind)).atomIn(t));
  const program = callCore(() => core.build(outAtoms));
  if (traceObserver && OBSERVED_KINDS.has(kind)) traceObserver(kind, program, t.consts.length);
  return {
    program,
    inDef: o.def,
    outDef,
    consts: [...t.consts],
    scalarInts: o.scalarInts,
    meshes: [...t.meshes],
    outAvals: program.outAvals(),
    outSpecs: program.outSpecs(),
  };
}

/** Ends open trace `o`: its traced values die and its core objects are deleted. */
export function closeTrace(o) {
  o.t.live = false;
  for (const c of o.t.cleanups) c.delete();
  o.core.delete();
}

/** Traces fn(...args) with every argument leaf abstract; returns its traced program (programOf). */
export function traceProgram(fn, args, kind, scalarInts = false) {
  const o = openTrace(args, kind, scalarInts);
  try {
    return programOf(o, withTrace(o.t, () => fn(...o.args)), kind);
  } finally {
    closeTrace(o);
  }
}

/** Traces fn for `args` unless a program for their signature is cached in `cache`. */
export function compiled(cache, fn, args, kind, scalarInts = false) {
  const sig = signature(args, kind, scalarInts);
  // jax.set_mesh's mesh is read while tracing (a shard_map without one): a program per context mesh.
  const context = engine().contextMesh;
  const key = context ? `${sig.key}|${context.key}:${context.axisTypes}` : sig.key;
  let tracedProgram = cache.get(key);
  if (!tracedProgram) {
    tracedProgram = traceProgram(fn, args, kind, scalarInts);
    cache.set(key, tracedProgram);
  }
  return { tracedProgram, leaves: sig.leaves };
}

// The mesh a program runs on: its shard_maps' mesh, else its inputs', else
// the default. A program whose shard_maps use two meshes is the core's error
// (ir::program_mesh) when it runs, on every executor.
function execMesh(tracedProgram, leaves) {
  if (tracedProgram.meshes.length) return tracedProgram.meshes[0];
  const arr = [...leaves, ...tracedProgram.consts].find(isArray);
  return arr ? arr.sharding.mesh : defaultMesh();
}

// The device copies of JS-number arguments (a learning rate passed to every
// step), per runtime and mesh, so a call does not put the same scalar again:
// arrays are immutable, so reusing one is invisible. The most recently used
// entries are kept; a running job holds its own reference to its inputs.
const scalarCaches = new WeakMap();
const SCALAR_CACHE_SIZE = 64;

function scalarArray(runtime, mesh, x, scalarInts) {
  let cache = scalarCaches.get(runtime);
  if (!cache) {
    cache = new Map();
    scalarCaches.set(runtime, cache);
  }
  const dtype = scalarDtype(x, scalarInts);
  const value = dtype === 'int32' ? x : Math.fround(x);
  const key = `${mesh.key}|${dtype}|${Object.is(value, -0) ? '-0' : value}`;
  let core = cache.get(key);
  if (core) {
    cache.delete(key); // re-inserted below as the most recent
  } else {
    core = callCore(() => runtime.put(mesh._handle, dtype === 'int32' ? Int32Array.of(value) : Float32Array.of(value), [], [], dtype));
    if (cache.size >= SCALAR_CACHE_SIZE) {
      const [oldest, handle] = cache.entries().next().value;
      cache.delete(oldest);
      handle.delete();
    }
  }
  cache.set(key, core);
  return core;
}

/**
 * Runs a traced program on argument leaves: {outs, done}, its outputs
 * (leaves) as future arrays, or computed ones in a blocking engine
 * (init({blocking})), and `done`, which settles when the run has ended (a
 * program with no outputs has nothing else to wait on: its arguments are
 * read until then). A failed run rejects `done` and every output; `done`'s
 * rejection is handled here, so it is only reported where it is awaited.
 */
export function execute(tracedProgram, leaves, fn) {
  const { runtime, blocking } = engine();
  const mesh = execMesh(tracedProgram, leaves);
  const shardings = outShardings(tracedProgram, mesh);
  if (blocking) {
    const temps = [];
    const moved = [];
    try {
      const inputs = programInputs(tracedProgram, leaves, mesh, fn, (x) => movedTo(mesh, x, moved)._handle(fn), temps);
      let hs;
      try {
        hs = runtime.runProgramSync(mesh._handle, tracedProgram.program, inputs);
      } finally {
        // A failed run's calls too: the values printed before it failed are what one debugs it with.
        if (mayRecord()) deliver(runtime.takeDebugRecordsSync());
      }
      return { outs: placed(tracedProgram, shardings, (aval, i) => new DArray(aval, shardings.computed[i], hs[i])), done: Promise.resolve() };
    } finally {
      for (const h of temps) h.delete();
      for (const x of moved) x.dispose();
    }
  }
  const done = (async () => {
    const temps = [];
    const moved = [];
    try {
      const handles = new Map();
      for (const x of [...leaves, ...tracedProgram.consts]) if (isArray(x)) handles.set(x, await movedTo(mesh, x, moved)._coreArray(fn));
      // No await from here to the submission, so no other call can evict a cached scalar in between.
      const inputs = programInputs(tracedProgram, leaves, mesh, fn, (x) => handles.get(x), temps);
      try {
        return await runtime.runProgram(mesh._handle, tracedProgram.program, inputs);
      } finally {
        // A failed run's calls too: the values printed before it failed are what one debugs it with.
        if (mayRecord()) deliver(await runtime.takeDebugRecords());
      }
    } finally {
      for (const h of temps) h.delete();
      for (const x of moved) x.dispose();
    }
  })();
  const ended = done.then(() => {});
  ended.catch(() => {}); // handled: the outputs carry a failed run's error to whoever reads them
  return { outs: placed(tracedProgram, shardings, (aval, i) => new DArray(aval, shardings.computed[i], done.then((hs) => hs[i]))), done: ended };
}

// Array x as a program on `mesh` takes it. An array on the same devices
// (a mesh of the same size: meshes number their devices from 0) stays, as
// the executors read it in place. An ordinary array (replicated on the
// default mesh, where every array not put elsewhere lives) on other devices
// moves to the program's mesh (listed in `moved` for the caller to
// dispose), as JAX moves an uncommitted array to a computation's devices;
// any other array stays, and is the core's error when the program runs.
function movedTo(mesh, x, moved) {
  const s = x.sharding;
  if (s.mesh.size === mesh.size || s.mesh !== defaultMesh() || s.spec.axes().length) return x;
  const y = reshard(x, new NamedSharding(mesh, P()));
  moved.push(y);
  return y;
}

// The core arrays a run of `tracedProgram` takes: each argument leaf and
// captured constant (arrays by `handleOf`, numbers from the scalar cache,
// host data put now and listed in `temps` for the caller to delete).
function programInputs(tracedProgram, leaves, mesh, fn, handleOf, temps) {
  const { runtime } = engine();
  return [...leaves, ...tracedProgram.consts].map((x) => {
    if (x instanceof ShapeDtypeStruct) throw new ValueError(`${fn}: a ShapeDtypeStruct has no values; pass arrays to run the function`);
    if (isArray(x)) return handleOf(x);
    if (typeof x === 'number') return scalarArray(runtime, mesh, x, tracedProgram.scalarInts);
    if (x instanceof WeakFloat) return scalarArray(runtime, mesh, x.value, false);
    const h = hostData(x, {}, fn);
    const core = callCore(() => runtime.put(mesh._handle, h.data, h.shape, [], h.dtype));
    temps.push(core);
    return core;
  });
}

// The shardings of a traced program's outputs on `mesh`, made once per
// program and mesh (they are immutable, so every call's arrays share them):
// `computed`, as the executors leave them (a shard_map's out_specs, else
// replicated), and `typed`, as their types say (sharding in types: a result
// sharded over Explicit axes is laid out so; one the executors leave split
// so already is made with its type's sharding, reduced axes and all, which
// move no data).
function outShardings(tracedProgram, mesh) {
  if (tracedProgram.outShardings?.mesh !== mesh) {
    const computed = tracedProgram.outSpecs.map((s) => new NamedSharding(mesh, s === null ? P() : P(...s)));
    const typed = tracedProgram.outAvals.map((aval, i) => {
      if (!aval.sharding) return computed[i];
      const axes = aval.sharding.mesh.map(([n, size]) => `${n}:${size}`).join(',');
      if (axes !== mesh.axisNames.map((n, k) => `${n}:${mesh.axisSizes[k]}`).join(','))
        throw new ShardingError(`jit: output ${i} of type ${avalString(aval, { short: false })} is sharded over mesh axes (${axes}) but the program runs on ${mesh}; put its inputs on one mesh`);
      // An array is never unreduced: what leaves a program is summed (the core's partition reduces it).
      const rank = aval.shape.length;
      const t = new NamedSharding(mesh, typeSpec({ ...aval.sharding, unreduced: [] }, rank));
      const layout = (spec) => JSON.stringify(spec.normalized(rank).entries);
      if (layout(t.spec) === layout(computed[i].spec)) computed[i] = t;
      return t;
    });
    tracedProgram.outShardings = { mesh, computed, typed };
  }
  return tracedProgram.outShardings;
}

// The output arrays made by `make(aval, i)`, each relaid out as its type's
// sharding says where the executors left it otherwise: a program the core
// partitions (cpp/ir/transforms/partition.h) leaves its results split as
// their types say, but one it computes whole (holding a shard_map or a debug
// call, or a scan over a split scanned dimension) leaves them replicated, and
// a sharded result is then split afterwards, through the host.
function placed(tracedProgram, shardings, make) {
  return tracedProgram.outAvals.map((aval, i) => {
    const x = make(aval, i);
    if (shardings.typed[i] === shardings.computed[i]) return x;
    const y = reshard(x, shardings.typed[i]);
    const drop = () => x.dispose();
    y._ready.then(drop, drop);
    return y;
  });
}

// The eager programs, per operation and static options, the most recently
// used last: keys carry values (an index's integers, a slice's bounds), so a
// loop over them would otherwise keep one program per value forever. A
// running job holds the program it runs, so deleting an evicted one is safe.
const eagerCaches = new Map();
const EAGER_CACHE_KEYS = 256;

/**
 * Runs fn(...args) now, outside any trace, as a one-off program cached under
 * `key` (an operation and its static options): returns the output tree of
 * future arrays, as JAX's eager operations with async dispatch.
 */
export function runEager(key, fn, args) {
  let cache = eagerCaches.get(key);
  if (cache) {
    eagerCaches.delete(key); // re-inserted below as the most recent
  } else {
    cache = new Map();
    if (eagerCaches.size >= EAGER_CACHE_KEYS) {
      const [oldest, programs] = eagerCaches.entries().next().value;
      eagerCaches.delete(oldest);
      for (const p of programs.values()) p.program.delete();
    }
  }
  eagerCaches.set(key, cache);
  const name = key.split('|')[0];
  const { tracedProgram, leaves } = compiled(cache, fn, args, name, true);
  return unflatten(tracedProgram.outDef, execute(tracedProgram, leaves, name).outs);
}
