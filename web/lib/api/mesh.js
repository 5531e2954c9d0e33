// Meshes, PartitionSpecs and NamedShardings, as jax.sharding has them.

import { ShardingError, ValueError } from '../errors.js';
import { deviceCoord, entryAxes } from '../layout.js';
import { currentTrace, engine } from './core/state.js';

/** jax.sharding.PartitionSpec: per dimension null (not split), an axis name, or a list of axis names. */
export class PartitionSpec {
  /** Internal: from P's checked entries, and the unreduced and reduced axes (sorted). */
  constructor(entries, { unreduced = [], reduced = [] } = {}) {
    this.entries = entries;
    /** Mesh axes the value is unreduced over (JAX 301: each device holds a partial sum). */
    this.unreduced = Object.freeze([...unreduced].sort());
    /** Mesh axes the value is reduced over (replicated; its cotangent unreduced). */
    this.reduced = Object.freeze([...reduced].sort());
    Object.freeze(this.entries);
    Object.freeze(this);
  }

  /** Number of entries. */
  get length() {
    return this.entries.length;
  }

  /** P('data', null) prints as P('data', None), like JAX; P(null, {unreduced: ['X']}) as P(None, unreduced={'X'}). */
  toString() {
    const e = this.entries.map((x) => (x === null ? 'None' : Array.isArray(x) ? `(${x.map((a) => `'${a}'`).join(', ')}${x.length === 1 ? ',' : ''})` : `'${x}'`));
    const set = (axes) => `{${axes.map((a) => `'${a}'`).join(', ')}}`;
    if (this.unreduced.length) e.push(`unreduced=${set(this.unreduced)}`);
    if (this.reduced.length) e.push(`reduced=${set(this.reduced)}`);
    return `P(${e.join(', ')}${e.length === 1 && Array.isArray(this.entries[0]) ? ',' : ''})`;
  }

  /** The mesh axes the spec's entries mention (not its unreduced and reduced ones). */
  axes() {
    return this.entries.flatMap(entryAxes);
  }

  /**
   * The spec for a value of rank `rank` as JAX compares specs: padded with
   * None to the rank, a one-name list the same as the name.
   */
  normalized(rank) {
    const e = this.entries.map((x) => (Array.isArray(x) && x.length === 1 ? x[0] : x));
    while (e.length < rank) e.push(null);
    return new PartitionSpec(e, this);
  }

  /** The spec as the core takes it: per dimension null, a name or a list. */
  toCore() {
    return this.entries.map((e) => (Array.isArray(e) ? [...e] : e));
  }
}

/**
 * P(...entries): a PartitionSpec, e.g. P('data'), P(null, 'model'),
 * P(['data', 'model']); a last argument {unreduced, reduced} (lists of mesh
 * axes) gives JAX's P(..., unreduced={'X'}, reduced={'Y'}).
 */
export function P(...entries) {
  const last = entries.at(-1);
  const states = last !== null && typeof last === 'object' && !Array.isArray(last) ? entries.pop() : {};
  for (const key of Object.keys(states))
    if (key !== 'unreduced' && key !== 'reduced') throw new ValueError(`P: unknown option ${key}; the options are unreduced and reduced (lists of mesh axes)`);
  const axesOf = (key) => {
    const axes = states[key] ?? [];
    if (!Array.isArray(axes) || !axes.every((a) => typeof a === 'string'))
      throw new ValueError(`P: ${key} must be a list of mesh axis names, got ${String(axes)}`);
    return axes;
  };
  return new PartitionSpec(
    entries.map((e, i) => {
      if (e === null || e === undefined) return null;
      if (typeof e === 'string') return e;
      if (Array.isArray(e) && e.every((a) => typeof a === 'string')) return e.length === 0 ? null : [...e];
      throw new ValueError(`P: entry ${i} (${String(e)}) must be null, an axis name or a list of axis names`);
    }),
    { unreduced: axesOf('unreduced'), reduced: axesOf('reduced') },
  );
}

/** Whether x is a PartitionSpec. */
export function isSpec(x) {
  return x instanceof PartitionSpec;
}

const meshes = new Map();

/** A mesh of named axes over the devices (jax.sharding.Mesh). */
export class Mesh {
  constructor(shape, axisNames, axisTypes, handle) {
    this.axisNames = Object.freeze([...axisNames]);
    this.axisSizes = Object.freeze([...shape]);
    this.axisTypes = Object.freeze([...axisTypes]);
    this.size = shape.reduce((a, b) => a * b, 1);
    /** A key equal for meshes of the same shape and names. */
    this.key = `${this.axisSizes.join('x')}:${this.axisNames.join(',')}`;
    this._handle = handle;
    Object.freeze(this);
  }

  /** {axis name: size}, like jax's mesh.shape. */
  get shape() {
    return Object.fromEntries(this.axisNames.map((n, i) => [n, this.axisSizes[i]]));
  }

  /** The size of axis `name`; a ValueError names the valid axes. */
  axisSize(name) {
    const i = this.axisNames.indexOf(name);
    if (i < 0) throw new ValueError(`mesh: unknown axis '${name}'; the mesh has axes ${this.axisNames.map((a) => `'${a}'`).join(', ')}`);
    return this.axisSizes[i];
  }

  /** Device d's coordinate along axis `name` (devices are laid out row-major). */
  coord(d, name) {
    return deviceCoord(this, d, name);
  }

  /** Mesh('data': 8) like JAX. */
  toString() {
    return `Mesh(${this.axisNames.map((n, i) => `'${n}': ${this.axisSizes[i]}`).join(', ')})`;
  }
}

/**
 * jax.make_mesh(shape, names, axis_types=...): a mesh over the first
 * prod(shape) devices, laid out row-major. `axisTypes` are JAX's: 'Auto'
 * (the default here: shardMap splits plain inputs itself) or 'Explicit'
 * (shardMap checks that its inputs are already sharded as its inSpecs say,
 * as JAX 0.11's does).
 */
export function makeMesh(shape, axisNames, { axisTypes } = {}) {
  const { runtime } = engine();
  if (!Array.isArray(shape) || !shape.every((s) => Number.isInteger(s) && s >= 1)) {
    throw new ValueError(`makeMesh: shape must be a list of positive integers, got ${JSON.stringify(shape)}`);
  }
  if (!Array.isArray(axisNames) || axisNames.length !== shape.length || !axisNames.every((n) => typeof n === 'string')) {
    throw new ValueError(`makeMesh: give one axis name per dimension of shape [${shape}], got ${JSON.stringify(axisNames)}`);
  }
  const size = shape.reduce((a, b) => a * b, 1);
  if (size > runtime.devices) {
    throw new ShardingError(`makeMesh: a mesh of shape [${shape}] needs ${size} devices but ShardLab runs ${runtime.devices}`);
  }
  const types = axisTypes ?? shape.map(() => 'Auto');
  if (types.length !== shape.length) throw new ValueError(`makeMesh: axisTypes needs ${shape.length} entries, got ${types.length}`);
  const key = `${shape.join('x')}:${axisNames.join(',')}:${types.join(',')}`;
  // One mesh per runtime and key (a fresh runtime after shutdown() needs its own handles).
  const cached = meshes.get(key);
  if (cached?.runtime === runtime) return cached.mesh;
  const mesh = new Mesh(shape, axisNames, types, runtime.mesh(shape, axisNames));
  meshes.set(key, { mesh, runtime });
  return mesh;
}

/**
 * jax.set_mesh(mesh): makes `mesh` the context mesh (null: none), against
 * which a bare PartitionSpec is read (devicePut(x, P(...)), shardMap without
 * `mesh`); returns a handle whose restore() puts back the mesh set before
 * (what JAX's `with jax.set_mesh(mesh):` does on exit). Outside a trace only, as JAX's.
 */
export function setMesh(mesh) {
  if (mesh !== null && !(mesh instanceof Mesh)) throw new ValueError(`Expected mesh of type \`jax.sharding.Mesh\`. Got ${mesh?.constructor?.name ?? typeof mesh}`);
  if (currentTrace()) throw new ValueError('`set_mesh` can only be used outside of `jax.jit`.');
  const st = engine();
  const before = st.contextMesh;
  st.contextMesh = mesh;
  return {
    mesh,
    restore: () => {
      st.contextMesh = before;
    },
  };
}

/** The mesh jax.set_mesh set, or null. */
export const contextMesh = () => engine().contextMesh;

/** jax.sharding.AbstractMesh: a mesh's axes (names, sizes, types) without its devices. */
export class AbstractMesh {
  constructor(axisSizes, axisNames, axisTypes) {
    this.axisSizes = Object.freeze([...axisSizes]);
    this.axisNames = Object.freeze([...axisNames]);
    this.axisTypes = Object.freeze([...axisTypes]);
    Object.freeze(this);
  }

  /** Whether it has no axes (no mesh is set). */
  get empty() {
    return this.axisNames.length === 0;
  }

  /** AbstractMesh('X': 4, 'Y': 2, axis_types=(Explicit, Explicit), device_kind=cpu, num_cores=None) as JAX 0.11 writes it. */
  toString() {
    const axes = this.empty ? '()' : this.axisNames.map((n, i) => `'${n}': ${this.axisSizes[i]}`).join(', ');
    const types = `(${this.axisTypes.join(', ')}${this.axisTypes.length === 1 ? ',' : ''})`;
    return `AbstractMesh(${axes}, axis_types=${types}${this.empty ? '' : ', device_kind=cpu, num_cores=None'})`;
  }
}

/** jax.sharding.get_abstract_mesh(): the context mesh's axes (an empty AbstractMesh when jax.set_mesh set none). */
export function getAbstractMesh() {
  const m = contextMesh();
  return m ? new AbstractMesh(m.axisSizes, m.axisNames, m.axisTypes) : new AbstractMesh([], [], []);
}

/** The default mesh: one axis over every device (where no mesh is named). */
export function defaultMesh() {
  const st = engine();
  if (!st.defaultMesh) st.defaultMesh = makeMesh([st.runtime.devices], ['devices']);
  return st.defaultMesh;
}

/** jax.sharding.NamedSharding(mesh, spec). */
export class NamedSharding {
  constructor(mesh, spec) {
    if (!(mesh instanceof Mesh)) throw new ValueError('NamedSharding: the first argument must be a Mesh (from makeMesh)');
    if (!(spec instanceof PartitionSpec)) throw new ValueError('NamedSharding: the second argument must be a PartitionSpec (from P)');
    for (const a of [...spec.axes(), ...spec.unreduced, ...spec.reduced]) mesh.axisSize(a);
    this.mesh = mesh;
    this.spec = spec;
    Object.freeze(this);
  }

  /** NamedSharding(mesh=Mesh('data': 8), spec=P('data')). */
  toString() {
    return `NamedSharding(mesh=${this.mesh}, spec=${this.spec})`;
  }

  /** Whether the array is whole on every device. */
  get isFullyReplicated() {
    return this.spec.axes().length === 0;
  }

  /**
   * This sharding in the core's form, {mesh: [[name, size, axis type], ...],
   * dims, unreduced, reduced}: per dimension (of `rank`, else of the spec)
   * the Explicit axes splitting it, as a type holds them (JAX's sharding in
   * types); an out_sharding= or reshard destination as the core takes it.
   */
  coreSharding(rank = this.spec.length) {
    const { axisNames, axisSizes, axisTypes } = this.mesh;
    const explicit = new Set(axisNames.filter((_, i) => axisTypes[i] === 'Explicit'));
    const dims = Array.from({ length: rank }, (_, d) => entryAxes(this.spec.entries[d] ?? null).filter((a) => explicit.has(a)));
    const states = (axes) => axes.filter((a) => explicit.has(a));
    return { mesh: axisNames.map((n, i) => [n, axisSizes[i], axisTypes[i]]), dims, unreduced: states(this.spec.unreduced), reduced: states(this.spec.reduced) };
  }

  /** The type's sharding of an array of rank `rank` laid out so (coreSharding), or null when it names no Explicit axis. */
  typeSharding(rank) {
    const s = this.coreSharding(rank);
    return s.dims.every((d) => d.length === 0) && !s.unreduced.length && !s.reduced.length ? null : s;
  }
}

/** The spec a type's sharding (typeSharding's form) writes for rank `rank`: P('X', None), one-axis entries as names. */
export function typeSpec(sharding, rank) {
  const dims = sharding?.dims ?? [];
  const entries = Array.from({ length: rank }, (_, d) => (!dims[d]?.length ? null : dims[d].length === 1 ? dims[d][0] : [...dims[d]]));
  return new PartitionSpec(entries, { unreduced: sharding?.unreduced ?? [], reduced: sharding?.reduced ?? [] });
}
