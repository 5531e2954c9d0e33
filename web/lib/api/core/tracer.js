// Traces and traced values. A trace wraps a core trace (owned by the core);
// a traced value is a plain JS object naming a variable of it, so tracing
// allocates no wasm objects per value.

import { ConcretizationError, fromCore, UnexpectedTracerError, ValueError } from '../../errors.js';
import { isDtypeName, shortName } from '../../dtypes.js';
import { currentTrace, state } from './state.js';
import { plainStatic, WeakFloat } from './weak_float.js';

/** JAX's text of an aval: f32[4,2], or f32[4,2]{V:data} inside a shard_map; float32[4,2] (str_short's default) unless short. */
export function avalString({ dtype, shape, vma = [], sharding = null }, { short = true } = {}) {
  // As JAX's str_short_aval: 8@X or 8@(X,Y) per dimension, then {V:.., U:.., R:..}.
  const group = (axes) => (axes.length === 1 ? axes[0] : `(${axes.join(',')})`);
  const dims = shape.map((n, d) => (sharding?.dims[d]?.length ? `${n}@${group(sharding.dims[d])}` : `${n}`));
  const states = [['V', vma], ['U', sharding?.unreduced ?? []], ['R', sharding?.reduced ?? []]].filter(([, axes]) => axes.length);
  const braces = states.length ? `{${states.map(([k, axes]) => `${k}:${group(axes)}`).join(', ')}}` : '';
  return `${short && isDtypeName(dtype) ? shortName(dtype) : dtype}[${dims.join(',')}]${braces}`;
}

/** A trace being built: jit / makeJaxpr at the top, shard_map bodies and differentiated functions nested. */
export class Trace {
  constructor(core, parent, kind) {
    this.core = core;
    this.parent = parent;
    this.kind = kind;
    this.root = parent ? parent.root : this;
    this.live = true;
    // How many derivatives will be taken of what this trace emits: 1 in
    // grad, jvp or vjp, 2 in grad of grad, a vmap body's its parent's, 0 in a
    // staged body (jit, shard_map, a loop). Where it is positive a custom
    // rule is traced where it is called, as JAX's JVP trace calls it (custom.js).
    this.diffs = 0;
    if (!parent) {
      this.consts = []; // concrete arrays used while tracing: extra program inputs
      this.constTracers = new Map();
      this.meshes = new Set(); // meshes named by shardMap / devicePut
      this.cleanups = []; // core objects to delete when the trace ends
    }
  }

  /** Whether `t` is this trace or encloses it. */
  sees(t) {
    for (let c = this; c; c = c.parent) if (c === t) return true;
    return false;
  }

  /** Emits primitive `prim` with `params` on atoms; returns traced values. */
  emit(prim, params, atoms) {
    return this.wrap(callCore(() => this.core.emit(prim, plainParams(params), atoms)));
  }

  /** Traced values of this trace for core atoms. */
  wrap(atoms) {
    return atoms.map((a) => new Tracer(this, a));
  }
}

// A primitive's parameters as the core reads them: a WeakFloat (Python's
// float, say a gather's fill_value) as its number.
function plainParams(params) {
  return Object.values(params).some((v) => v instanceof WeakFloat) ? plainStatic(params) : params;
}

// An error a custom rule (customJvp, customVjp) threw while the core was
// calling it: the core call fails, and callCore throws this error instead.
let ruleError = null;

/** Keeps `e`, thrown by a custom rule the core called, for callCore to rethrow. */
export function keepRuleError(e) {
  ruleError ??= e;
}

/** Calls into the core, turning core errors into ShardLab's error classes. */
export function callCore(f) {
  try {
    return f();
  } catch (e) {
    if (ruleError) {
      const kept = ruleError;
      ruleError = null;
      throw kept;
    }
    throw fromCore(e);
  }
}

/** What traced values and concrete arrays share: the properties of their type (`_type`: {dtype, shape}). */
export class ArrayBase {
  /** The shape, as a JS array. */
  get shape() {
    return [...this._type.shape];
  }

  /** The number of dimensions (rank). */
  get ndim() {
    return this._type.shape.length;
  }

  /** The dtype's name ('float32', 'bfloat16', 'int8', 'bool', ...: dtypes.js). */
  get dtype() {
    return this._type.dtype;
  }

  /** Number of elements. */
  get size() {
    return this._type.shape.reduce((a, b) => a * b, 1);
  }

  /** JAX's weak_type: whether the value is weakly typed (a Python scalar, or computed from weak values only). */
  get weakType() {
    return Boolean(this._type.weak);
  }

  /** The type as JAX prints it: f32[8,2] (f32[8@X,2] sharded over an Explicit axis, with {V:axes} inside a shard_map). */
  get aval() {
    return avalString({ ...this._type, sharding: this.typeSharding });
  }
}

/** A traced value: an abstract array (dtype, shape, varying axes) of a trace. */
export class Tracer extends ArrayBase {
  constructor(trace, atom) {
    super();
    this._trace = trace;
    this._atom = atom;
    /** Its sharding's PartitionSpec where the trace knows it (a jit argument, a shard_map result), else null. */
    this.spec = null;
  }

  get _type() {
    return this._atom;
  }

  /** The mesh axes the value varies along (inside a shard_map body). */
  get vma() {
    return [...this._atom.vma];
  }

  /** Its type's sharding over Explicit mesh axes (null when unsharded): {mesh, dims, unreduced, reduced}. */
  get typeSharding() {
    return this._atom.sharding ?? null;
  }

  /** Like JAX's str of a tracer: Traced<f32[8,2]>with<jit>. */
  toString() {
    return `Traced<${this.aval}>with<${this._trace.kind}>`;
  }

  /** Converting to a number is an error: the value is abstract while tracing. */
  [Symbol.toPrimitive](hint) {
    if (hint === 'string') return this.toString();
    throw concretization(this, hint === 'number' ? 'converted to a number' : 'used as a JS number or boolean');
  }

  /** See Symbol.toPrimitive. */
  valueOf() {
    throw concretization(this, 'converted to a number');
  }

  /** The core atom, checked to belong to the current trace or an enclosing one. */
  atomIn(trace) {
    if (!this._trace.live || !trace.sees(this._trace)) {
      throw new UnexpectedTracerError(
        `Encountered an unexpected tracer. A function transformed by JAX had a side effect, allowing for a reference to an intermediate value with type ${this.aval} wrapped in ${this} to escape the scope of the transformation.\n` +
          'JAX transformations require that functions explicitly return their outputs, and disallow saving intermediate values to global state: ' +
          'pass the value as an argument or return it instead.\nSee https://docs.jax.dev/en/latest/errors.html#jax.errors.UnexpectedTracerError',
      );
    }
    return this._atom;
  }
}

function concretization(t, how) {
  return new ConcretizationError(
    `${t} was ${how}, but while tracing (jit, grad, shardMap, makeJaxpr) values are abstract: only their shape and ` +
      'dtype are known. Use sl.np / sl.lax operations (e.g. np.where instead of if/?:), or pass the value as a ' +
      'static argument outside the traced function',
  );
}

/** Whether x is a traced value. */
export function isTracer(x) {
  return x instanceof Tracer;
}

export { state };
