// Concrete arrays: a global array stored as blocks on the devices (a core
// ShardedArray), possibly still being computed. Arrays returned by eager
// operations are futures, as JAX's async dispatch: their data is awaited.

import { DeviceError, ShapeError, ValueError, fromCore } from '../../errors.js';
import { laneArray } from '../../dtypes.js';
import { blockIndex } from '../../layout.js';
import { contextMesh, defaultMesh, NamedSharding, P, PartitionSpec } from '../mesh.js';
import { checkDimensions } from './shape.js';
import { engine, state } from './state.js';
import { ArrayBase } from './tracer.js';
import { isNumericData, nestFlat } from './tree.js';
import { isScalar, isWeakScalar } from './weak_float.js';

// Deletes the core array of an Array that was garbage-collected undisposed,
// so loops that drop arrays keep the wasm heap flat.
const registry = new FinalizationRegistry((cell) => {
  if (cell.h) {
    try {
      cell.h.delete();
    } catch {
      // The runtime may be gone.
    }
    cell.h = null;
  }
});

/** A concrete array on the devices (jax.Array): a global shape split over a mesh by a sharding. */
export class DArray extends ArrayBase {
  /** Internal: use sl.array, sl.devicePut or jit. `handle` is a core ShardedArray or a Promise of one. */
  constructor(aval, sharding, handle) {
    super();
    this._aval = { dtype: aval.dtype, shape: [...aval.shape], weak: Boolean(aval.weak) };
    this.sharding = sharding;
    this._cell = { h: null };
    this._disposed = false;
    this._runtime = state.runtime; // its blocks live in this runtime's memory
    if (handle instanceof Promise) {
      this._ready = handle.then(
        (h) => this._adopt(h),
        (e) => {
          this._error = e;
          throw e;
        },
      );
      this._ready.catch(() => {}); // reported when the data is asked for
    } else {
      this._adopt(handle);
      this._ready = Promise.resolve(this);
    }
  }

  _adopt(h) {
    this._cell.h = h;
    registry.register(this, this._cell, this);
    return this;
  }

  get _type() {
    return this._aval;
  }

  /** Its type's sharding over Explicit mesh axes (null when unsharded): what jit traces it as. */
  get typeSharding() {
    return this.sharding.typeSharding(this._aval.shape.length);
  }

  /**
   * Resolves to this array once it has been computed (jax's
   * block_until_ready). On the lockstep fallback it also brings the array
   * from the worker that computed it, so addressableShards can read it.
   */
  async blockUntilReady() {
    await this._readable('blockUntilReady');
    return this;
  }

  /** The elements, row-major: a Float32Array (float32), Int32Array (int32, bool as 0/1) or Uint32Array (uint32). */
  async data() {
    const h = await this._readable('data');
    return engine().runtime.get(h, { checkReplicas: false });
  }

  /**
   * The elements now, for an array already computed and on this thread
   * (every array of a blocking engine, init({blocking: true}), as a
   * synchronous front end needs); otherwise a ValueError says to await data().
   */
  dataSync() {
    const h = this._handle('dataSync');
    const { runtime } = engine();
    if (!runtime.readable(h)) throw new ValueError('dataSync: the array is still in the lockstep worker that computed it; use await arr.data()');
    return runtime.get(h, { checkReplicas: false });
  }

  // The core array once computed and readable on this thread.
  async _readable(fn) {
    const h = await this._coreArray(fn);
    await engine().runtime.ready(h);
    return this._handle(fn); // not disposed meanwhile
  }

  /** The elements as nested JS arrays (booleans for bool). */
  async tolist() {
    const flat = Array.from(await this.data(), this.dtype === 'bool' ? (v) => v !== 0 : (v) => v);
    return nestFlat(flat, this._aval.shape);
  }

  /** The single element of a size-1 array, as a JS number (a boolean for a bool array, as JAX's item()). */
  async item() {
    if (this.size !== 1) throw new ShapeError(`item: the array is ${this.aval}; only size-1 arrays convert to a number`);
    const v = (await this.data())[0];
    return this.dtype === 'bool' ? v !== 0 : v;
  }

  /**
   * Each device's block: [{device, index, data}] where index gives [start, stop)
   * per dimension and data is a copy of the block (available once the array
   * is ready: await arr.blockUntilReady() first for a fresh result, and on
   * the lockstep fallback always).
   */
  get addressableShards() {
    const h = this._handle('addressableShards');
    const { runtime } = engine();
    if (!runtime.readable(h)) {
      throw new ValueError('addressableShards: the array is still in the lockstep worker that computed it; await arr.blockUntilReady() first');
    }
    const { mesh, spec } = this.sharding;
    const shards = [];
    for (let d = 0; d < mesh.size; d++) {
      shards.push({ device: d, index: blockIndex(mesh, this._aval.shape, spec.entries, d), data: runtime.block(h, d) });
    }
    return shards;
  }

  /** Frees the device memory now (the array is unusable afterwards). */
  dispose() {
    if (this._disposed) return;
    this._disposed = true;
    registry.unregister(this);
    const del = () => {
      if (this._cell.h) this._cell.h.delete();
      this._cell.h = null;
    };
    if (this._cell.h) del();
    else this._ready.then(del, () => {});
  }

  /** Whether dispose() was called. */
  get isDisposed() {
    return this._disposed;
  }

  /** Array(f32[8,2], sharding=NamedSharding(...)). */
  toString() {
    return `Array(${this.aval}, sharding=${this.sharding})`;
  }

  /** Concrete arrays are read asynchronously: use `await arr.item()` or `await arr.data()`. */
  [Symbol.toPrimitive](hint) {
    if (hint === 'string') return this.toString();
    throw new ValueError(`${this}: arrays live on the devices; read them with \`await arr.item()\` or \`await arr.data()\``);
  }

  _check(fn) {
    if (this._disposed) throw new ValueError(`${fn}: the array ${this.aval} was disposed`);
    if (this._runtime !== state.runtime) throw new DeviceError(`${fn}: the array ${this.aval} belongs to a device runtime that was shut down`);
  }

  /** The core array, for an array that is ready. */
  _handle(fn) {
    this._check(fn);
    if (this._error) throw this._error;
    if (!this._cell.h) throw new ValueError(`${fn}: the array is still being computed; await arr.blockUntilReady() first`);
    return this._cell.h;
  }

  /** The core array, once computed. */
  async _coreArray(fn) {
    this._check(fn);
    await this._ready;
    return this._handle(fn);
  }
}

/** Whether x is a concrete array. */
export function isArray(x) {
  return x instanceof DArray;
}

// The dtype a typed array's elements are, when no dtype is given.
const DTYPE_OF_TYPED = [
  [Int32Array, 'int32'],
  [Uint32Array, 'uint32'],
  [Int16Array, 'int16'],
  [Uint16Array, 'uint16'],
  [Int8Array, 'int8'],
  [Uint8Array, 'uint8'],
];

/** The shape of nested JS array data, checking it is rectangular. */
function nestedShape(x, fn) {
  const shape = [];
  for (let v = x; Array.isArray(v); v = v[0]) shape.push(v.length);
  const check = (v, dim) => {
    if (dim === shape.length) {
      if (typeof v !== 'number' && typeof v !== 'boolean') throw new ValueError(`${fn}: array data must hold numbers, got ${typeof v}`);
      return;
    }
    if (!Array.isArray(v) || v.length !== shape[dim]) {
      throw new ShapeError(`${fn}: the nested array is ragged (dimension ${dim} should have ${shape[dim]} entries)`);
    }
    v.forEach((e) => check(e, dim + 1));
  };
  check(x, 0);
  return shape;
}

/** Host data for a number, nested numbers or a typed array: {data (typed), shape, dtype}. */
export function hostData(x, { dtype, shape } = {}, fn = 'array') {
  if (shape !== undefined) shape = checkDimensions(shape, fn, 'shape');
  if (isScalar(x)) {
    const dt = dtype ?? (typeof x === 'boolean' ? 'bool' : 'float32');
    return { data: laneArray(dt).of(Number(x)), shape: [], dtype: dt };
  }
  if (ArrayBuffer.isView(x)) {
    const dt = dtype ?? DTYPE_OF_TYPED.find(([T]) => x instanceof T)?.[1] ?? 'float32';
    const s = shape ?? [x.length];
    const n = s.reduce((a, b) => a * b, 1);
    if (n !== x.length) throw new ShapeError(`${fn}: ${x.length} elements do not fill shape [${s}]`);
    // Put on the devices (a copy) before anything could change it, so a typed
    // array of the right type is used as it is; others convert in one step
    // (TypedArray.from with a map function holds a list of every element).
    return { data: x instanceof laneArray(dt) ? x : new (laneArray(dt))(x), shape: s, dtype: dt };
  }
  if (isNumericData(x)) {
    const s = nestedShape(x, fn);
    const flat = x.flat(Infinity);
    const dt = dtype ?? (flat.every((v) => typeof v === 'boolean') ? 'bool' : 'float32');
    return { data: laneArray(dt).from(flat, Number), shape: shape ?? s, dtype: dt };
  }
  if (Array.isArray(x) && x.length === 0) return { data: new (laneArray(dtype ?? 'float32'))(0), shape: shape ?? [0], dtype: dtype ?? 'float32' };
  // A set has no order to make an array of (Python's set reaches here as a JS Set); JAX's TypeError.
  if (x instanceof Set) throw new ShapeError(`${fn}: Unexpected input type for array: a set; give a list or a tuple`);
  throw new ValueError(`${fn}: cannot make an array of ${String(x)}; give a number, nested arrays of numbers or a typed array`);
}

/** Puts host data on the devices with `sharding` (default: replicated on the default mesh), weakly typed when `weak`. */
export function putHost({ data, shape, dtype }, sharding, weak = false) {
  const { runtime } = engine();
  const s = sharding ?? new NamedSharding(defaultMesh(), P());
  try {
    const h = runtime.put(s.mesh._handle, data, shape, s.spec.toCore(), dtype);
    return new DArray({ dtype, shape, weak }, s, h);
  } catch (e) {
    throw fromCore(e);
  }
}

/**
 * jnp.array: an array from a number, nested arrays of numbers or a typed
 * array (`shape` gives a typed array's shape), replicated on the default mesh.
 * As JAX's, the array of a number (a Python scalar) is weakly typed unless a
 * dtype is given; `weakType` says otherwise (Python's jnp.array(3) is a weak
 * int32, which JS numbers, read as floats, cannot say).
 */
export function array(x, { dtype, shape, weakType } = {}) {
  if (x instanceof DArray) return x;
  const weak = weakType ?? (dtype === undefined && isWeakScalar(x));
  return putHost(hostData(x, { dtype, shape }), undefined, weak);
}

/** A sharding-checked spec for an array of `shape`: a NamedSharding or a PartitionSpec on `mesh`. */
export function toSharding(s, fn) {
  if (s instanceof NamedSharding) return s;
  // A bare spec is read against jax.set_mesh's mesh, else (JS's convenience) the default one.
  if (s instanceof PartitionSpec) return new NamedSharding(contextMesh() ?? defaultMesh(), s);
  throw new ValueError(`${fn}: expected a NamedSharding (or a PartitionSpec for the context mesh), got ${String(s)}`);
}

/** An out_sharding= argument (a NamedSharding, or a PartitionSpec on the context mesh) as the core's sharding parameter; null when not given. */
export function shardingParam(s, fn) {
  return s === undefined || s === null ? null : toSharding(s, fn).coreSharding();
}

/** Re-lays-out a concrete array with `sharding` (through the host; a future, computed at once in a blocking engine). */
export function reshard(x, sharding) {
  const { runtime, blocking } = engine();
  const move = (h) => {
    const data = runtime.get(h, { checkReplicas: false });
    try {
      return runtime.put(sharding.mesh._handle, data, x.shape, sharding.spec.toCore(), x.dtype);
    } catch (e) {
      throw fromCore(e);
    }
  };
  const handle = blocking ? move(x._handle('devicePut')) : x._readable('devicePut').then(move);
  return new DArray({ dtype: x.dtype, shape: x.shape, weak: x.weakType }, sharding, handle);
}

/**
 * The elements of a concrete array (a DArray or JS data), for an operation
 * whose result's shape depends on them; an array still being computed must
 * be awaited first (the shape is needed now).
 */
export function concreteValues(x, fn) {
  if (!(x instanceof DArray)) return flatValues(x);
  try {
    return Array.from(x.dataSync());
  } catch (e) {
    if (!(e instanceof ValueError)) throw e;
    throw new ValueError(`${fn}: the result's shape depends on the values of an array still being computed; await x.blockUntilReady() first`);
  }
}

/** The numbers of JS data (a number, nested arrays of them or a typed array), flat in row-major order. */
export function flatValues(x) {
  if (ArrayBuffer.isView(x)) return Array.from(x);
  return Array.isArray(x) ? x.flatMap(flatValues) : [x];
}
