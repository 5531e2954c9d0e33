// jax.export: a traced function as data. export(f)(...args) traces f at the
// arguments' shapes and dtypes; serialize() gives a versioned JSON text (the
// program in its JSON form, the input and output trees, and the data of the
// constants it captured); deserialize(text) rebuilds it in the C++ core, which
// checks every equation again (cpp/ir/forms/json_read.h), so what is called is a
// program the rules accept, whoever wrote the text. The checker's judge runs
// what its sandbox traced this way.

import { hostData, putHost } from './core/array.js';
import { ResourceError, ValueError, fromCore } from '../errors.js';
import { DTYPE_NAMES, isDtypeName, laneArray } from '../dtypes.js';
import { makeMesh } from './mesh.js';
import { avalKey, execute, isLeafValue, signature, traceProgram } from './core/run.js';
import { Jaxpr } from './transforms.js';
import { currentTrace, engine } from './core/state.js';
import { callCore } from './core/tracer.js';
import { describe, flattenArgs, numLeaves, unflatten } from './core/tree.js';
import { foreignPrintId, noteForeignCallbacks } from './core/debug_calls.js';

/** The format name and version serialize() writes and deserialize() reads. */
export const FORMAT = 'shardlab.exported';
/** The serialization version; deserialize() accepts only this one. */
export const VERSION = 1;

/** What deserialize() accepts by default: sizes of the text, trees and constants, and the program's limits. */
export const DEFAULT_LIMITS = Object.freeze({
  maxTextBytes: 16 << 20,
  maxTreeNodes: 10000,
  maxTreeDepth: 32,
  maxConstBytes: 8 << 20,
  maxEquations: 20000,
  maxValueBytes: 256 << 20,
  maxTotalBytes: 2 ** 31,
  maxWork: 2e10,
});


// Points every debug_callback equation of a program's JSON form (nested
// programs too) at a number of this side's: a print's at its format's
// (printed to the foreign output, debug_calls.js), a callback's at 0 (its
// function is the program maker's: dropped); returns whether it held any.
// Deeper than the core's reader reads (which refuses such a program), it looks no further.
function pointDebugCalls(node, depth = 0) {
  if (!node || typeof node !== 'object' || depth > 256) return false;
  let found = false;
  if (node.primitive === 'debug_callback' && isObject(node.params)) {
    const { fmt } = node.params;
    node.params.callback = typeof fmt === 'string' && fmt && Array.isArray(node.inputs) ? foreignPrintId(fmt, node.inputs.length) : 0;
    found = true;
  }
  for (const v of Object.values(node)) found = pointDebugCalls(v, depth + 1) || found;
  return found;
}

/** A function traced at fixed argument shapes, ready to call, serialize or print (jax.export.Exported). */
export class Exported {
  /** Internal: use export() or deserialize(). `tracedProgram` is a traced program (run.js). */
  constructor(tracedProgram, inTree, inAvals) {
    this._traced = tracedProgram;
    /** The structure of the arguments (a list node of the positional arguments). */
    this.inTree = inTree;
    /** The structure of the result. */
    this.outTree = tracedProgram.outDef;
    /** Each argument leaf's {dtype, shape}. */
    this.inAvals = inAvals;
    /** Each result leaf's {dtype, shape}. */
    this.outAvals = tracedProgram.outAvals.map(envelopeAval);
  }

  /** The program as a Jaxpr (toString(): jax.make_jaxpr's text; toJSON(): its structured form). */
  jaxpr() {
    return new Jaxpr(this._traced.program, this._traced.consts.length);
  }

  /**
   * The structured form (as Jaxpr.toJSON) of the program the devices run:
   * the traced one lowered (custom rules inlined, cond and scan as while
   * loops, pmean as a psum and a division). A profiler timeline's spans
   * index its equations.
   */
  loweredJSON() {
    return JSON.parse(this._traced.program.loweredJSON());
  }

  /** The equations of the program the devices run: the lowered one's (a scan as a while over its steps), nested bodies included. */
  get numEquations() {
    return this._traced.program.numEquations();
  }

  /** Calls the program on arguments of the exported shapes and dtypes: a Promise of the result tree, as a jit call. */
  call(...args) {
    try {
      if (currentTrace()) throw new ValueError('Exported.call: call it outside traced functions');
      // Weak types aside, as JAX's Exported.call takes a Python scalar for a float32[] argument.
      const sig = signature(args, 'Exported.call', false, false);
      const want = `${describe(this.inTree)}|${this.inAvals.map((a) => avalKey(a, false)).join(';')}`;
      if (sig.key !== want) {
        throw new ValueError(`Exported.call: the function was exported for arguments ${want} but is called with ${sig.key}`);
      }
      const { outs, done } = execute(this._traced, sig.leaves, 'Exported.call');
      return Promise.all([done, ...outs.map((o) => o._ready)]).then(() => unflatten(this.outTree, outs));
    } catch (e) {
      return Promise.reject(e);
    }
  }

  /** The versioned JSON text deserialize() reads (a Promise: the constants' data is awaited). */
  async serialize() {
    const consts = [];
    for (const x of this._traced.consts) consts.push({ ...envelopeAval({ dtype: x.dtype, shape: x.shape, weak: x.weakType }), data: toBase64(await x.data()) });
    const head = JSON.stringify({ format: FORMAT, version: VERSION, inTree: this.inTree, outTree: this.outTree, inAvals: this.inAvals, outAvals: this.outAvals, consts });
    // The program's JSON text goes in as it is (it is one JSON object), not parsed and written again.
    return `${head.slice(0, -1)},"program":${this._traced.program.toJSON()}}`;
  }

  /** Frees the program and the constants' device memory. */
  dispose() {
    this._traced.program.delete();
    if (this._traced.ownsConsts) for (const x of this._traced.consts) x.dispose();
  }
}

/**
 * jax.export.export: export(f)(...args) traces f (a function or a jit
 * function) at the shapes and dtypes of `args` (arrays, ShapeDtypeStructs or
 * numbers, in trees) and returns its Exported.
 */
function exportFn(f) {
  if (typeof f !== 'function') throw new ValueError(`export: expected a function, got ${typeof f}`);
  return (...args) => {
    if (currentTrace()) throw new ValueError('export: call it outside traced functions');
    const { leaves, def } = flattenArgs(args, isLeafValue);
    // A jit function traced here is inlined, so f may be one.
    const tracedProgram = traceProgram(f, args, 'export');
    const inAvals = tracedProgram.program.inAvals().slice(0, leaves.length).map(envelopeAval);
    return new Exported(tracedProgram, def, inAvals);
  };
}
export { exportFn as export };

/**
 * jax.export.deserialize: the Exported of a text serialize() wrote. Nothing
 * in it is trusted: the envelope, trees and constants are checked here, the
 * program by the C++ core's reader, all within `limits` (DEFAULT_LIMITS);
 * anything malformed is a ValueError naming what, anything too large a
 * ResourceError.
 */
export function deserialize(text, { limits = {} } = {}) {
  const lim = { ...DEFAULT_LIMITS, ...limits };
  const bad = (why) => new ValueError(`deserialize: ${why}`);
  if (typeof text !== 'string') throw bad(`expected a string, got ${typeof text}`);
  if (text.length > lim.maxTextBytes) throw new ResourceError(`deserialize: the text has ${text.length} characters; at most ${lim.maxTextBytes} are accepted`);
  let doc;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw bad(`the text is not JSON (${e.message})`);
  }
  if (!isObject(doc)) throw bad('the text must hold an object');
  if (doc.format !== FORMAT || doc.version !== VERSION) {
    throw bad(`the text is not ${FORMAT} version ${VERSION} (format ${JSON.stringify(doc.format)}, version ${JSON.stringify(doc.version)})`);
  }
  const inTree = checkTree(doc.inTree, 'inTree', lim);
  const outTree = checkTree(doc.outTree, 'outTree', lim);
  if (inTree.kind !== 'array') throw bad('inTree must be the list of the positional arguments');
  const inAvals = checkAvals(doc.inAvals, 'inAvals', numLeaves(inTree));
  const outAvals = checkAvals(doc.outAvals, 'outAvals', numLeaves(outTree));
  if (!Array.isArray(doc.consts)) throw bad('consts must be a list');
  let constBytes = 0;
  const hosts = doc.consts.map((k, i) => {
    const [aval] = checkAvals([k], `consts[${i}]`, 1);
    const n = aval.shape.reduce((a, b) => a * b, 1);
    constBytes += 4 * n;
    if (constBytes > lim.maxConstBytes) throw new ResourceError(`deserialize: the constants hold more than ${lim.maxConstBytes} bytes`);
    const bytes = typeof k.data === 'string' ? fromBase64(k.data, `consts[${i}].data`) : null;
    if (!bytes || bytes.length !== 4 * n) throw bad(`consts[${i}].data must be base64 of ${4 * n} bytes`);
    return { ...aval, data: new (laneArray(aval.dtype))(bytes.buffer, bytes.byteOffset, n) };
  });
  if (!isObject(doc.program)) throw bad('program must be an object');

  const { runtime } = engine();
  // Its debug calls' functions are not here (the sandbox's): a callback's
  // records are taken and dropped, a print's printed from its format alone.
  if (pointDebugCalls(doc.program)) noteForeignCallbacks();
  const program = callCore(() => runtime.traces.programFromJson(JSON.stringify(doc.program), lim));
  try {
    // The program's own types are the truth: the envelope must agree with them.
    const ins = program.inAvals();
    const outs = program.outAvals();
    const same = (a, b) =>
      a.dtype === b.dtype && Boolean(a.weak_type) === b.weak && a.shape.length === b.shape.length && a.shape.every((d, i) => d === b.shape[i]);
    if (ins.length !== inAvals.length + hosts.length || ![...inAvals, ...hosts].every((a, i) => same(a, ins[i]))) {
      throw bad('inAvals and consts do not match the program\'s inputs');
    }
    if (outs.length !== outAvals.length || !outAvals.every((a, i) => same(a, outs[i]))) throw bad('outAvals do not match the program\'s outputs');
    // Read from the text, which the core has just accepted: every mesh in it is one of the program's.
    const meshes = meshesOf(doc.program);
    const consts = hosts.map((h) => putHost(hostData(h.data, { dtype: h.dtype, shape: h.shape }, 'deserialize'), undefined, Boolean(h.weak_type)));
    const tracedProgram = { program, inDef: inTree, outDef: outTree, consts, ownsConsts: true, meshes, outAvals: outs, outSpecs: program.outSpecs() };
    return new Exported(tracedProgram, inTree, inAvals);
  } catch (e) {
    program.delete();
    throw fromCore(e);
  }
}

function isObject(x) {
  return x !== null && typeof x === 'object' && !Array.isArray(x);
}

// A tree structure (tree.js's form) from untrusted JSON, rebuilt from what is valid only.
function checkTree(t, what, lim) {
  let nodes = 0;
  const walk = (d, depth, path) => {
    if (++nodes > lim.maxTreeNodes) throw new ResourceError(`deserialize: ${what} has more than ${lim.maxTreeNodes} nodes`);
    if (depth > lim.maxTreeDepth) throw new ResourceError(`deserialize: ${what} is nested more than ${lim.maxTreeDepth} deep`);
    const bad = (why) => new ValueError(`deserialize: ${what}${path} ${why}`);
    if (!isObject(d)) throw bad('must be an object');
    if (d.kind === 'leaf') return { kind: 'leaf' };
    if (d.kind === 'none') return { kind: 'none', value: d.value === null ? null : undefined };
    if (!Array.isArray(d.children)) throw bad('needs a list of children');
    if (d.kind === 'array') return { kind: 'array', children: d.children.map((c, i) => walk(c, depth + 1, `${path}[${i}]`)) };
    if (d.kind !== 'object') throw bad(`has an unknown kind ${JSON.stringify(d.kind)}`);
    const keys = d.keys;
    if (!Array.isArray(keys) || keys.length !== d.children.length || !keys.every((k) => typeof k === 'string')) {
      throw bad('needs one string key per child');
    }
    if (new Set(keys).size !== keys.length || keys.includes('__proto__')) throw bad('has a repeated or reserved key');
    return { kind: 'object', keys: [...keys], children: d.children.map((c, i) => walk(c, depth + 1, `.${keys[i]}`)) };
  };
  return walk(t, 0, '');
}

// A list of `n` avals from untrusted JSON.
function checkAvals(list, what, n) {
  if (!Array.isArray(list) || list.length !== n) throw new ValueError(`deserialize: ${what} must list ${n} avals`);
  return list.map((a, i) => {
    const ok = isObject(a) && isDtypeName(a.dtype) && Array.isArray(a.shape) && a.shape.length <= 32 &&
      a.shape.every((d) => Number.isInteger(d) && d >= 0 && d < 2 ** 31);
    if (!ok || (a.weak_type !== undefined && a.weak_type !== true)) {
      throw new ValueError(`deserialize: ${what}[${i}] must be {dtype: one of ${DTYPE_NAMES.join(', ')}, shape: a list of sizes, weak_type: true if weakly typed}`);
    }
    return envelopeAval({ dtype: a.dtype, shape: a.shape, weak: a.weak_type });
  });
}

// An aval as the envelope writes it: {dtype, shape}, and weak_type: true when weakly typed (as the program's JSON).
function envelopeAval({ dtype, shape, weak }) {
  return weak ? { dtype, shape: [...shape], weak_type: true } : { dtype, shape: [...shape] };
}

// The meshes of a program's shard_maps at any depth (in its JSON form, as
// the core accepted it): in shard_map bodies, jit calls, branches, loops.
function meshesOf(program) {
  const out = new Map();
  const isProgram = (v) => v !== null && typeof v === 'object' && Array.isArray(v.eqns);
  const walk = (p) => {
    for (const e of p.eqns) {
      if (e.primitive === 'shard_map') {
        const m = makeMesh(e.params.mesh.shape, e.params.mesh.axis_names);
        out.set(m.key, m);
      }
      Object.values(e.params).flatMap((v) => (Array.isArray(v) ? v : [v])).filter(isProgram).forEach(walk);
    }
  };
  walk(program);
  return [...out.values()];
}

function toBase64(typed) {
  const bytes = new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength);
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

function fromBase64(s, what) {
  let bin;
  try {
    bin = atob(s);
  } catch {
    throw new ValueError(`deserialize: ${what} is not base64`);
  }
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

