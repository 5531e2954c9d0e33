// Type declarations of the shardlab package: written by hand, but for the
// functions of arrays that the API manifest's lines declare (functions.d.ts,
// generated at build by scripts/gen_types.mjs), which np, nn and lax join
// in. tests/types/usage.ts is type-checked against them with `tsc --noEmit`.

import type { LaxFunctions, NnFunctions, NpFunctions } from './functions.js';

/**
 * Element types. Each element is held in a 4-byte lane: a float16 or
 * bfloat16 array's data is a Float32Array of values of its format, an int8
 * or int16 array's an Int32Array, a uint8 or uint16 array's a Uint32Array,
 * a bool array's an Int32Array of 0 and 1.
 */
export type DType = 'float32' | 'float16' | 'bfloat16' | 'int32' | 'int16' | 'int8' | 'uint32' | 'uint16' | 'uint8' | 'bool';
/** One PartitionSpec entry: not split, one mesh axis, or several axes. */
export type SpecEntry = null | string | string[];
/** Anything usable as an array: an Array, a traced value, a number, nested numbers or a typed array. */
export type ArrayLike = ShardArray | Tracer | number | boolean | NestedNumbers | Float32Array | Int32Array | Uint32Array | Int16Array | Uint16Array | Int8Array | Uint8Array;
/** Nested JS arrays of numbers (array data). */
export type NestedNumbers = number[] | NestedNumbers[];
/** A tree of values: leaves, JS arrays and plain objects of trees. */
export type Tree<T> = T | Tree<T>[] | { [key: string]: Tree<T> } | null | undefined;

/** Starts ShardLab (wasm + device workers); idempotent. */
export function init(options?: InitOptions): Promise<RuntimeInfo>;
/** Options of init(). */
export interface InitOptions extends DeviceOptions {
  /**
   * What runs the programs: 'threads' (a thread per device; needs SharedArrayBuffer), 'lockstep' (one thread steps every
   * device through each equation: bitwise the same results; on the calling thread when blocking, else on a worker of its
   * own) or 'auto' (the default: 'threads' where SharedArrayBuffer exists, else 'lockstep').
   */
  executor?: 'threads' | 'lockstep' | 'auto';
  /** Every operation and jit call completes before it returns (Node or a worker; never a page's main thread): arrays can be read with dataSync. */
  blocking?: boolean;
}
/**
 * What runs a device runtime's programs (loadDevices): 'threads' (a thread per device; needs SharedArrayBuffer), 'worker' (one worker steps
 * every device through each equation: the lockstep executor, bitwise the same results) or 'here' (the lockstep executor
 * on the calling thread: a worker or Node, never a page's main thread).
 */
export type Executor = 'threads' | 'worker' | 'here';
/** Options of loadDevices() (and init()). */
export interface DeviceOptions {
  devices?: 1 | 2 | 4 | 8;
  memoryMB?: number;
  /** The module without threads, already fetched (moduleSources()): nothing is fetched, for a worker allowed no connections. */
  sources?: ModuleSources;
}
/** The module without threads: its script's text and its compiled wasm (both can be posted to a worker). */
export interface ModuleSources {
  script: string;
  wasm: WebAssembly.Module;
}
/** Fetches and compiles the module without threads, to hand to a worker (browsers). */
export function moduleSources(): Promise<ModuleSources>;
/** Stops the device runtime and frees its memory; a later init() starts a fresh one (Node scripts exit without it). */
export function shutdown(): void;
/** Cancels every call running or queued on the devices: each rejects with a CancelledError; the runtime stays usable. */
export function cancel(): void;
/** How the engine runs. */
export interface RuntimeInfo {
  devices: number;
  /** false where SharedArrayBuffer is missing: one worker steps the devices (lockstep executor). */
  threads: boolean;
  executor: 'threaded' | 'lockstep';
}
/** How the engine runs (after init). */
export function runtimeInfo(): RuntimeInfo;
/** Number of devices (jax.device_count()). */
export function deviceCount(): number;
/** Wasm heap usage in bytes. */
export function memoryStats(): { inUse: number; heapSize: number };

/** jax.sharding.PartitionSpec. */
export class PartitionSpec {
  readonly entries: readonly SpecEntry[];
  readonly length: number;
  toString(): string;
  axes(): string[];
}
/** P('data'), P(null, 'model'), P(['data', 'model']). */
export function P(...entries: SpecEntry[]): PartitionSpec;

/** A mesh of named axes over the devices. */
export class Mesh {
  readonly axisNames: readonly string[];
  readonly axisSizes: readonly number[];
  readonly axisTypes: readonly string[];
  readonly size: number;
  /** {axis: size}. */
  readonly shape: Record<string, number>;
  axisSize(name: string): number;
  coord(device: number, name: string): number;
  toString(): string;
}
/** jax.make_mesh. */
export function makeMesh(shape: number[], axisNames: string[], options?: { axisTypes?: string[] }): Mesh;
/** jax.set_mesh: the context mesh a bare PartitionSpec is read against (null: none); restore() puts back the one before. Outside a trace only. */
export function setMesh(mesh: Mesh | null): { readonly mesh: Mesh | null; restore(): void };
/** jax.sharding.AbstractMesh: a mesh's axes without its devices. */
export class AbstractMesh {
  readonly axisNames: readonly string[];
  readonly axisSizes: readonly number[];
  readonly axisTypes: readonly string[];
  /** No mesh is set. */
  readonly empty: boolean;
  toString(): string;
}
/** jax.sharding.get_abstract_mesh: the context mesh's axes (empty when setMesh set none). */
export function getAbstractMesh(): AbstractMesh;
/** jax.reshard: x's arrays laid out as outShardings (NamedShardings, or PartitionSpecs on setMesh's mesh; Explicit axes only) says; in a trace a `reshard` equation typing them so. */
export function reshard<T>(x: T, outShardings: Tree<NamedSharding | PartitionSpec>): T;

/** jax.sharding.NamedSharding. */
export class NamedSharding {
  constructor(mesh: Mesh, spec: PartitionSpec);
  readonly mesh: Mesh;
  readonly spec: PartitionSpec;
  readonly isFullyReplicated: boolean;
  toString(): string;
}

/** Methods shared by arrays and traced values (each returns the same kind). */
interface ArrayMethods<Self> {
  readonly shape: number[];
  readonly ndim: number;
  readonly dtype: DType;
  /** JAX's weak_type: a Python-like number's value, or computed from weak values only. */
  readonly weakType: boolean;
  readonly size: number;
  readonly aval: string;
  readonly T: Self;
  add(y: ArrayLike): Self;
  sub(y: ArrayLike): Self;
  mul(y: ArrayLike): Self;
  div(y: ArrayLike): Self;
  pow(y: ArrayLike): Self;
  neg(): Self;
  matmul(y: ArrayLike): Self;
  dot(y: ArrayLike): Self;
  square(): Self;
  sqrt(): Self;
  exp(): Self;
  log(): Self;
  tanh(): Self;
  abs(): Self;
  relu(): Self;
  sum(axis?: ReduceOptions): Self;
  mean(axis?: ReduceOptions): Self;
  max(axis?: ReduceOptions): Self;
  min(axis?: ReduceOptions): Self;
  reshape(shape: number[]): Self;
  transpose(axes?: number[]): Self;
  astype(dtype: DType): Self;
  expandDims(axis: number | number[]): Self;
  squeeze(axis?: number | number[]): Self;
  eq(y: ArrayLike): Self;
  ne(y: ArrayLike): Self;
  lt(y: ArrayLike): Self;
  le(y: ArrayLike): Self;
  gt(y: ArrayLike): Self;
  ge(y: ArrayLike): Self;
  /** JAX's x.at[index]: entries are integers, sl.slice(...), null (a new axis), '...' or integer/boolean arrays. */
  at(...index: IndexEntry[]): IndexRef<Self>;
}

/** One entry of an index (x.at(...)): an integer, a slice, null (np.newaxis), '...', or an integer or boolean array. */
export type IndexEntry = number | Slice | null | '...' | ArrayLike;
/** Python's slice start:stop:step (null parts take numpy's defaults). */
export class Slice {
  readonly start: number | null;
  readonly stop: number | null;
  readonly step: number | null;
}
/** sl.slice(stop), sl.slice(start, stop) or sl.slice(start, stop, step). */
export function slice(stop: number | null): Slice;
export function slice(start: number | null, stop: number | null, step?: number | null): Slice;
/** How out-of-bounds indices behave: gathers clamp by default ('promise_in_bounds'), updates drop ('fill' / 'drop'). */
export type IndexMode = 'promise_in_bounds' | 'clip' | 'fill' | 'drop';
/** Options of an indexed read or update. */
export interface IndexOptions {
  mode?: IndexMode;
  uniqueIndices?: boolean;
  indicesAreSorted?: boolean;
}
/** x.at(...index): reads x at the index or returns an updated copy (duplicates all apply, in order). */
export interface IndexRef<Self> {
  get(options?: IndexOptions & { fillValue?: number }): Self;
  set(values: ArrayLike, options?: IndexOptions): Self;
  add(values: ArrayLike, options?: IndexOptions): Self;
  subtract(values: ArrayLike, options?: IndexOptions): Self;
  multiply(values: ArrayLike, options?: IndexOptions): Self;
  min(values: ArrayLike, options?: IndexOptions): Self;
  max(values: ArrayLike, options?: IndexOptions): Self;
}
/** sl.at(x, ...index): x.at(...index) for any array operand. */
export function at<T extends ArrayLike>(x: T, ...index: IndexEntry[]): IndexRef<any>;

/** Reduction axes: an axis, a list, or {axis, keepdims}. */
export type ReduceOptions = number | number[] | null | { axis?: number | number[] | null; keepdims?: boolean; initial?: number; where?: ArrayLike };
/** The options of np.quantile, nanquantile, percentile and nanpercentile (a number or a list: the axis alone); out and overwriteInput are refused, as JAX refuses them. */
export type QuantileOptions = number | number[] | null | {
  axis?: number | number[] | null;
  method?: 'linear' | 'lower' | 'higher' | 'midpoint' | 'nearest' | 'inverted_cdf';
  keepdims?: boolean;
  /** One weight per element (or per element of the reduced axes), with method 'inverted_cdf' only. */
  weights?: ArrayLike | null;
  out?: null;
  overwriteInput?: false;
};
/** The options of np.median and nanmedian (a number or a list: the axis alone). */
export type MedianOptions = number | number[] | null | { axis?: number | number[] | null; keepdims?: boolean; out?: null; overwriteInput?: false };

/** A concrete array on the devices (jax.Array); exported as `Array`. */
export interface ShardArray extends ArrayMethods<ShardArray> {
  readonly sharding: NamedSharding;
  /** Each device's block, copied (once the array is ready; on the lockstep fallback, once blockUntilReady() or data() brought it from its worker). */
  readonly addressableShards: { device: number; index: [number, number][]; data: Float32Array | Int32Array | Uint32Array }[];
  readonly isDisposed: boolean;
  /** Resolves once computed (jax's block_until_ready); on the lockstep fallback it also brings the array from its worker. */
  blockUntilReady(): Promise<ShardArray>;
  data(): Promise<Float32Array | Int32Array | Uint32Array>;
  /** The elements now, for an array already computed on this thread (always, in a blocking engine: init({blocking: true})). */
  dataSync(): Float32Array | Int32Array | Uint32Array;
  tolist(): Promise<any>;
  item(): Promise<number>;
  dispose(): void;
}
export const Array: { prototype: ShardArray };
/** A concrete array (the type of sl.Array instances). */
export type Array = ShardArray;

/** A traced value (abstract while tracing). */
export interface Tracer extends ArrayMethods<Tracer> {
  readonly vma: string[];
  toString(): string;
}
export const Tracer: { prototype: Tracer };

/** jnp.array. */
export function array(x: ArrayLike, options?: { dtype?: DType; shape?: number[]; weakType?: boolean }): ShardArray;
/** jax.device_put (a tree; inside a trace, a sharding constraint). */
export function devicePut<T>(x: T, sharding?: Tree<NamedSharding | PartitionSpec | null>): any;
/** A text picture of the blocks per device. */
export function visualizeSharding(arr: ShardArray, options?: VisualizeOptions): string;
export function visualizeSharding(shape: number[], sharding: NamedSharding, options?: VisualizeOptions): string;
/** jax.debug.visualize_sharding's sizes: `scale` the cells' (1), their least and most widths (9, 80). */
export interface VisualizeOptions {
  scale?: number;
  minWidth?: number;
  maxWidth?: number;
}

/** An abstract argument for makeJaxpr. */
export class ShapeDtypeStruct {
  constructor(shape: number[], dtype?: DType);
  readonly shape: number[];
  readonly dtype: DType;
}

/** A number typed weak float32, as a Python float: JS cannot tell 2.0 from 2, so the number 2 is a weak int32. */
export class WeakFloat {
  constructor(value: number);
  readonly value: number;
}
/** The number `value` typed weak float32 (Python's jax sends every integral float as one). */
export function weakFloat(value: number): WeakFloat;

/** A traced program. */
export class Jaxpr {
  /** How many of the JSON's invars, the last ones, are constants (JAX's constvars). */
  readonly numConsts: number;
  /** The constants' values, or null when they were not kept (a traced program observed by observeTraces). */
  readonly consts: Array[] | null;
  toString(): string;
  toJSON(): JaxprJSON;
  /** Where the nested programs printed on several lines have their equations: lines [first, last) of toString(). */
  printedBodies(): { first: number; last: number; equations: number }[];
  /** The program that runs: partitioned where its values are sharded over Explicit axes (one shard_map with the collectives inserted), then lowered. */
  compiledText(): string;
  /** That program as a plain object (its collectives with their traffic). */
  compiledJSON(): JaxprJSON;
}
/** The JSON form of a program. */
export interface JaxprJSON {
  invars: { name: string; aval: AvalJSON }[];
  eqns: EqnJSON[];
  outvars: AtomJSON[];
}
/** One equation of a program's JSON form. */
export interface EqnJSON {
  primitive: string;
  /** Set on a collective (an equation whose devices exchange data). */
  collective?: true;
  /** A collective's traffic inside a shard_map body, on the threaded runtime, per call. */
  traffic?: {
    /** How the data moves, and the exchange's path (staged or read in place). */
    algorithm: string;
    /** The bytes of its operands on one device. */
    operand_bytes: number;
    /** The bytes each device sends (read by its peers, or written by it for them), by position in its group. */
    sent: number[];
  };
  params: Record<string, any>;
  inputs: AtomJSON[];
  outputs: { name: string; aval: AvalJSON }[];
}
export interface AvalJSON {
  dtype: DType;
  shape: number[];
  vma: string[];
  str: string;
}
export type AtomJSON = { name: string; aval: AvalJSON } | { literal: number | string; aval: AvalJSON };

type AnyFn = (...args: any[]) => any;

/** The limits deserialize() checks a text against. */
export interface ExportLimits {
  maxTextBytes: number;
  maxTreeNodes: number;
  maxTreeDepth: number;
  maxConstBytes: number;
  maxEquations: number;
  maxValueBytes: number;
  maxTotalBytes: number;
  maxWork: number;
}
/** A function traced at fixed shapes (jax.export.Exported). */
export class Exported {
  readonly inAvals: { dtype: DType; shape: number[] }[];
  readonly outAvals: { dtype: DType; shape: number[] }[];
  /** The program. */
  jaxpr(): Jaxpr;
  /** The structured form of the program the devices run (lowered); a profiler timeline's spans index its equations. */
  loweredJSON(): object;
  /** The equations the devices run per call: the lowered program's (a scan unrolled), nested bodies included. */
  readonly numEquations: number;
  /** Runs it on arguments of the exported shapes. */
  call(...args: any[]): Promise<any>;
  /** The versioned JSON text deserialize() reads. */
  serialize(): Promise<string>;
  /** Frees the program. */
  dispose(): void;
}
/** jax.export: export(f)(...args) and deserialize(text), checked by the core. */
declare const exportNs: {
  export(f: AnyFn): (...args: any[]) => Exported;
  deserialize(text: string, options?: { limits?: Partial<ExportLimits> }): Exported;
  readonly FORMAT: 'shardlab.exported';
  readonly VERSION: 1;
  readonly DEFAULT_LIMITS: Readonly<ExportLimits>;
  readonly Exported: typeof Exported;
};
export { exportNs as export };
/** jax.checkpoint_policies by JAX's names: what a checkpoint's forward pass keeps for the backward one. */
export const checkpointPolicies: Readonly<{
  nothing_saveable: 'nothing_saveable';
  everything_saveable: 'everything_saveable';
  dots_saveable: 'dots_saveable';
  checkpoint_dots: 'dots_saveable';
  dots_with_no_batch_dims_saveable: 'dots_with_no_batch_dims_saveable';
  checkpoint_dots_with_no_batch_dims: 'dots_with_no_batch_dims_saveable';
}>;
/** jax.checkpoint (jax.remat): f, whose derivatives recompute what the policy does not save (one `checkpoint` equation inside a trace; f itself outside). */
export function checkpoint<F extends AnyFn>(
  f: F,
  options?: { preventCse?: boolean; policy?: string | null; staticArgnums?: number | number[] },
): F;
/** jax.remat: checkpoint. */
export function remat<F extends AnyFn>(
  f: F,
  options?: { preventCse?: boolean; policy?: string | null; staticArgnums?: number | number[] },
): F;
/** jax.linear_transpose(f, ...primals): the transpose of f, linear in its float arguments (primals give their shapes and dtypes). */
export function linearTranspose(f: AnyFn, ...primals: any[]): (cotangents: any) => any[];
/** jax.jit: returns an async function (inside other traces, one `jit` equation, run inline). */
export function jit<F extends AnyFn>(
  f: F,
  options?: {
    staticArgnums?: number | number[];
    /** Where the arguments go: one sharding (or spec) for all, or a tree prefix of the argument list. */
    inShardings?: any;
    /** Where the outputs go: one sharding for all, or a tree prefix of the output. */
    outShardings?: any;
    /** The name the printed jit equation gives the function (f.name by default). */
    name?: string;
  },
): ((...args: Parameters<F>) => Promise<any>) & {
  /** jax.jit's call: the output tree at once, its arrays futures (computed in a blocking engine). */
  dispatch(...args: Parameters<F>): any;
  /** jax.jit(f).lower(...args): the program traced for these arguments' types. */
  lower(...args: Parameters<F>): Lowered;
};
/** jax.jit(f).lower(...args): JAX's Lowered stage. */
export class Lowered {
  /** The program's text: its jaxpr, shardings in its types. */
  asText(): string;
  /** The Compiled stage. */
  compile(): Compiled;
}
/** jax.jit(f).lower(...args).compile(): JAX's Compiled stage. */
export class Compiled {
  /** The per-device program that runs: one shard_map with the inserted collectives where values are sharded over Explicit axes. */
  asText(): string;
}
/** jax.make_jaxpr. */
export function makeJaxpr(f: AnyFn): (...args: any[]) => Jaxpr;
/** Calls `observer` with each program a jit call or makeJaxpr traces from now on (Python's too); null stops. */
/** jax.numpy_dtype_promotion: 'standard' (JAX's lattice) or 'strict' (no implicit promotion between dtypes) for the operations traced from now on; returns the previous mode. */
export function numpyDtypePromotion(mode: 'standard' | 'strict'): 'standard' | 'strict';
export function observeTraces(observer: ((traced: { kind: 'jit' | 'make_jaxpr'; jaxpr: Jaxpr }) => void) | null): void;
/** jax.grad. */
export function grad(f: AnyFn, options?: { argnums?: number | number[]; hasAux?: boolean }): (...args: any[]) => any;
/** jax.value_and_grad: [value, grads]. */
export function valueAndGrad(f: AnyFn, options?: { argnums?: number | number[]; hasAux?: boolean }): (...args: any[]) => [any, any];
/** jax.vjp: [out, vjpFn]. */
export function vjp(f: AnyFn, ...primals: any[]): [any, (cotangents: any) => any[]];
/** jax.jvp: [out, tangentOut]. */
export function jvp(f: AnyFn, primals: any[], tangents: any[]): [any, any];
/** A mapped axis of jax.vmap: an axis (negative from the end), or null (not mapped). */
type MapAxis = number | null;
/** jax.vmap: f mapped over an axis of its arguments (inAxes: one for all, or one tree prefix per argument); collectives in f may name axisName. */
export function vmap(
  f: AnyFn,
  options?: {
    inAxes?: Tree<MapAxis> | Tree<MapAxis>[];
    outAxes?: Tree<MapAxis> | ((out: any) => Tree<MapAxis>);
    axisSize?: number | null;
    axisName?: string | null;
  },
): (...args: any[]) => any;
/** jax.jacfwd: the Jacobian by forward mode (out.shape + in.shape per output leaf and argnum; [jac, aux] with hasAux). */
export function jacfwd(f: AnyFn, options?: { argnums?: number | number[]; hasAux?: boolean }): (...args: any[]) => any;
/** jax.jacrev: the Jacobian by reverse mode. */
export function jacrev(f: AnyFn, options?: { argnums?: number | number[]; hasAux?: boolean }): (...args: any[]) => any;
/** jax.hessian: jacfwd(jacrev(f)). */
export function hessian(f: AnyFn, options?: { argnums?: number | number[]; hasAux?: boolean }): (...args: any[]) => any;
/** A jax.custom_jvp function: call it like f; set its rule with defjvp or defjvps. */
export interface CustomJvpFunction {
  (...args: any[]): any;
  /** jvp(...nondiffArgs, primals, tangents) => [primalOut, tangentOut]; returns jvp. */
  defjvp<R extends AnyFn>(jvp: R, options?: { name?: string; symbolicZeros?: false }): R;
  /** One rule per argument, rule(tangent, primalOut, ...primals) (null: no contribution). */
  defjvps(...rules: (AnyFn | null)[]): AnyFn;
  fun: AnyFn;
}
/** jax.custom_jvp: f with a JVP rule of one's own (name: how printed programs call it, default f.name). */
export function customJvp(f: AnyFn, options?: { nondiffArgnums?: number | number[]; name?: string }): CustomJvpFunction;
/** A jax.custom_vjp function: call it like f; set its rules with defvjp. */
export interface CustomVjpFunction {
  (...args: any[]): any;
  /** fwd(...args) => [out, residuals]; bwd(...nondiffArgs, residuals, outCotangent) => one cotangent per other argument (null: zero). */
  defvjp(fwd: AnyFn, bwd: AnyFn, options?: { fwdName?: string; bwdName?: string; symbolicZeros?: false }): void;
  fun: AnyFn;
}
/** jax.custom_vjp: f with a VJP of one's own. */
export function customVjp(f: AnyFn, options?: { nondiffArgnums?: number | number[]; name?: string }): CustomVjpFunction;
/** jax.shard_map. */
export function shardMap<F extends AnyFn>(
  f: F,
  options: {
    /** Default: setMesh's mesh. */
    mesh?: Mesh;
    inSpecs: Tree<PartitionSpec>;
    outSpecs: Tree<PartitionSpec> | ((out: any) => Tree<PartitionSpec>);
    checkVma?: boolean;
    /** The function's name in errors (f.name by default). */
    name?: string;
    /**
     * For a front end that flattens trees itself: per input (`in`) and per output (`out`, filled in by the time the
     * body returns) the key paths its errors print ('[0]', "['w']"): of the spec it falls under and of the value.
     */
    paths?: { in: { spec: string; value: string }[]; out: { spec: string; value: string }[] };
  },
): (...args: any[]) => any;

/** Base of every ShardLab error. */
export class ShardLabError extends Error {}
export class ValueError extends ShardLabError {}
/** A collective's axis name that no enclosing shard_map binds (JAX's NameError). */
export class AxisNameError extends ValueError {}
/** A Python int (a JS number given as one) outside the int32 range where JAX converts it to an array (JAX's OverflowError). */
export class OverflowError extends ShardLabError {}
/** A traced value used after its trace ended (JAX's UnexpectedTracerError). */
export class UnexpectedTracerError extends ValueError {}
export class ShapeError extends ShardLabError {}
export class ShardingError extends ShardLabError {}
export class VmaError extends ShardingError {}
/** Types whose shardings do not combine (JAX's ShardingTypeError): out_sharding= or reshard settles the result. */
export class ShardingTypeError extends ShardingError {}
export class ConcretizationError extends ShardLabError {}
/** A traced boolean mask used as an index (its true count is unknown while tracing). */
export class NonConcreteBooleanIndexError extends ConcretizationError {}
/** An index that does not fit the array (too many indices, two ellipses). */
export class IndexError extends ShardLabError {}
export class DeviceError extends ShardLabError {}
export class ResourceError extends ShardLabError {}
/** A call stopped by cancel() before it finished. */
export class CancelledError extends ShardLabError {}
/** An option JAX has that ShardLab does not implement (JAX's NotImplementedError). */
export class NotImplementedError extends ShardLabError {}

type V = any;
type Reduce = (x: V, axis?: ReduceOptions) => V;
/** numpy functions (traced, or eager on arrays). */
export const np: NpFunctions & {
  /** NaN -> nan (0), +inf -> posinf, -inf -> neginf (the largest finite float32s by default). */
  nanToNum: (x: V, options?: { nan?: number; posinf?: number | null; neginf?: number | null }) => V;
  /** where(cond, x, y) selects; where(cond) is nonzero(cond). */
  where: ((cond: V, x: V, y: V) => V) & ((cond: V) => V[]);
  sum: Reduce; mean: Reduce; max: Reduce; min: Reduce;
  var: (x: V, axis?: number | number[] | null | { axis?: number | number[] | null; keepdims?: boolean; ddof?: number; where?: V }) => V;
  /** The index of the first extreme element over one axis (the flattened array by default), int32. */
  argmax: (x: V, axis?: number | null | { axis?: number | null; keepdims?: boolean }) => V;
  argmin: (x: V, axis?: number | null | { axis?: number | null; keepdims?: boolean }) => V;
  /** The running sum along one axis (the flattened array by default). */
  cumsum: (x: V, axis?: number | null | { axis?: number | null }) => V;
  cumprod: (x: V, axis?: number | null | { axis?: number | null }) => V;
  /** Product over axes; {initial} multiplies a value in. */
  prod: Reduce;
  /** jnp.sort along `axis` (-1; flattened when null), NaNs last. */
  sort: (x: V, options?: { axis?: number | null; stable?: boolean; descending?: boolean }) => V;
  /** jnp.argsort: the int32 positions that sort x (stable). */
  argsort: (x: V, options?: { axis?: number | null; stable?: boolean; descending?: boolean }) => V;
  /** jnp.einsum(subscripts, ...operands): e.g. 'ij,jk->ik', 'bij,bjk->bik', 'ii', '...ij,jk'. */
  einsum: (subscripts: string, ...operands: V[]) => V;
  /** np.dot; `outSharding` types the result where the operands' shardings leave it ambiguous (JAX's out_sharding=). */
  dot: (a: V, b: V, options?: { outSharding?: NamedSharding | PartitionSpec | null }) => V;
  /** jnp.nonzero: one int32 array per dimension; a traced array needs size. */
  nonzero: (a: V, options?: { size?: number | null; fillValue?: number }) => V[];
  /** jnp.linalg. */
  linalg: {
    /** Vector norms (ord null/2, 1, Infinity, -Infinity, 0, p) and matrix norms (null/'fro', 'nuc', 1, -1, 2, -2, Infinity, -Infinity). */
    norm: (x: V, options?: { ord?: number | 'fro' | 'nuc' | null; axis?: number | number[] | null; keepdims?: boolean }) => V;
    /** The vector norm over `axis` (all elements when null). */
    vectorNorm: (x: V, options?: { axis?: number | number[] | null; keepdims?: boolean; ord?: number }) => V;
    /** The matrix norm over the last two axes ('fro' by default). */
    matrixNorm: (x: V, options?: { keepdims?: boolean; ord?: number | 'fro' }) => V;
    /** The diagonals of the matrices over the last two axes. */
    diagonal: (x: V, options?: { offset?: number }) => V;
    /** The sums of those diagonals. */
    trace: (x: V, options?: { offset?: number; dtype?: DType | null }) => V;
    /** The outer product of two vectors (1-d only). */
    outer: (x1: V, x2: V) => V;
    /** The product of a chain of matrices (the ends may be vectors), in the order of fewest multiply-adds. */
    multiDot: (arrays: V[]) => V;
    /** L lower triangular with L L^T = a (L^T when upper); NaNs where a is not positive-definite. */
    cholesky: (a: V, options?: { upper?: boolean; symmetrizeInput?: boolean }) => V;
    /** [q, r] with a = q r ('reduced' or 'complete'); r alone with mode 'r'. */
    qr: (a: V, mode?: 'reduced' | 'complete' | 'r') => V | [V, V];
    /** [u, s, vh] with a = u diag(s) vh, s descending; s alone when computeUv is false. */
    svd: (a: V, fullMatrices?: boolean, computeUv?: boolean, hermitian?: boolean) => V | [V, V, V];
    /** The singular values, descending. */
    svdvals: (x: V) => V;
    /** [eigenvalues ascending, eigenvectors as columns] of a symmetric matrix. */
    eigh: (a: V, UPLO?: 'L' | 'U' | null, options?: { symmetrizeInput?: boolean }) => [V, V];
    /** The eigenvalues of a symmetric matrix, ascending. */
    eigvalsh: (a: V, UPLO?: 'L' | 'U', options?: { symmetrizeInput?: boolean }) => V;
    /** x with a x = b (b a vector when 1-d, else matrices; batch dimensions broadcast), by LU. */
    solve: (a: V, b: V) => V;
    /** The inverse, by LU. */
    inv: (a: V) => V;
    /** The determinant. */
    det: (a: V) => V;
    /** [sign, log|det|]. */
    slogdet: (a: V, options?: { method?: 'lu' | null }) => [V, V];
    /** a multiplied by itself n times (of its inverse when n < 0). */
    matrixPower: (a: V, n: number) => V;
    /** The pseudo-inverse, from the SVD. */
    pinv: (a: V, rtol?: number | null, options?: { hermitian?: boolean }) => V;
    /** The number of singular values above the tolerance. */
    matrixRank: (M: V, rtol?: number | null, options?: { hermitian?: boolean; tol?: number | null }) => V;
  };
  /** jnp.take: out-of-bounds indices give fillValue (NaN for floats) by default. */
  take: (a: V, indices: V, options?: { axis?: number | null; mode?: IndexMode; fillValue?: number }) => V;
  /** jnp.take_along_axis. */
  takeAlongAxis: (arr: V, indices: V, axis: number | null, options?: { mode?: IndexMode; fillValue?: number }) => V;
  /** jnp.flip along an axis, several, or all (null). */
  flip: (x: V, axis?: number | number[] | null) => V;
  reshape: (x: V, shape: number[], order?: 'C' | 'F') => V;
  transpose: (x: V, axes?: number[]) => V;
  expandDims: (x: V, axis: number | number[]) => V;
  squeeze: (x: V, axis?: number | number[]) => V;
  concatenate: (xs: V[], axis?: number) => V;
  stack: (xs: V[], axis?: number) => V;
  astype: (x: V, dtype: DType) => V;
  full: (shape: number[], value: number, dtype?: DType) => V;
  /** jnp.full_like: x's shape and dtype (or those given), weakly typed as x when no dtype is given. */
  fullLike: (x: V, fillValue: number | V, dtype?: DType | null, shape?: number[] | null) => V;
  zerosLike: (x: V, dtype?: DType | null, shape?: number[] | null) => V;
  onesLike: (x: V, dtype?: DType | null, shape?: number[] | null) => V;
  /** jnp.round: to `decimals` places (0), halves to even. */
  round: (x: V, decimals?: number) => V;
  /** jnp.isclose: |a - b| <= atol + rtol * |b| elementwise (bool); allclose: all of them. */
  isclose: (a: V, b: V, rtol?: number, atol?: number, equalNan?: boolean) => V;
  allclose: (a: V, b: V, rtol?: number, atol?: number, equalNan?: boolean) => V;
  zeros: (shape: number[], dtype?: DType) => V;
  ones: (shape: number[], dtype?: DType) => V;
  /** jnp.empty: zeros, as JAX's. */
  empty: (shape: number[], dtype?: DType) => V;
  arange: (start: number, stop?: number | null, step?: number | null, dtype?: DType) => V;
  eye: (n: number, m?: number | null, k?: number, dtype?: DType) => V;
  broadcastTo: (x: V, shape: number[]) => V;
  pad: (
    x: V,
    padWidth: number | [number, number] | [number, number][],
    options?: {
      mode?: 'constant' | 'edge' | 'wrap' | 'reflect' | 'symmetric' | 'linear_ramp' | 'maximum' | 'minimum' | 'mean' | 'empty';
      constantValues?: number | [number, number] | [number, number][];
      statLength?: number | [number, number] | [number, number][];
      endValues?: number | [number, number] | [number, number][];
      reflectType?: 'even' | 'odd';
    },
  ) => V;
  clip: (x: V, lo?: number | null, hi?: number | null) => V;
  /** Variance and standard deviation: the squared deviations summed, divided by n - ddof. */
  std: (x: V, axis?: number | number[] | null | { axis?: number | number[] | null; keepdims?: boolean; ddof?: number; where?: V }) => V;
  countNonzero: Reduce;
  tri: (n: number, m?: number | null, k?: number, dtype?: DType) => V;
  tril: (m: V, k?: number) => V;
  triu: (m: V, k?: number) => V;
  identity: (n: number, dtype?: DType) => V;
  linspace: Linspace;
  /** jnp.tensordot: the sum over `axes` of a paired with axes of b (N: a's last N with b's first N). */
  tensordot: (a: V, b: V, axes?: number | [number | number[], number | number[]]) => V;
  /** jnp.vecdot: the dot product of the vectors along `axis` (-1), other axes broadcast. */
  vecdot: (x1: V, x2: V, options?: { axis?: number }) => V;
  /** jnp.atleast_1d: one array with at least 1 dimension, or a list of them. */
  atleast1d: (...arys: V[]) => V | V[];
  /** jnp.atleast_2d: one array with at least 2 dimensions, or a list of them. */
  atleast2d: (...arys: V[]) => V | V[];
  /** jnp.atleast_3d: one array with at least 3 dimensions, or a list of them. */
  atleast3d: (...arys: V[]) => V | V[];
  /** jnp.ravel: the elements in a vector, row-major ('C') or column-major ('F'). */
  ravel: (a: V, order?: 'C' | 'F') => V;
  /** jnp.column_stack: 1-d arrays as columns, joined along axis 1. */
  columnStack: (tup: V[]) => V;
  /** jnp.dstack: arrays made at least 3-d, joined along axis 2. */
  dstack: (tup: V[]) => V;
  /** jnp.rot90: rotated k times by 90 degrees in the plane of `axes` ([0, 1]). */
  rot90: (m: V, k?: number, axes?: [number, number]) => V;
  /** jnp.permute_dims: the axes in the order `axes`. */
  permuteDims: (a: V, axes: number[]) => V;
  /** jnp.unstack: the slices along `axis` (0). */
  unstack: (x: V, axis?: number) => V[];
  /** jnp.concat: joined along `axis` (0). */
  concat: (arrays: V[], options?: { axis?: number }) => V;
  /** jnp.append: values after arr along `axis` (both flattened when null). */
  append: (arr: V, values: V, axis?: number | null) => V;
  /** jnp.diff: the n-th difference along `axis` (-1), after prepend and append. */
  diff: (a: V, n?: number, axis?: number, options?: { prepend?: V | number | null; append?: V | number | null }) => V;
  /** jnp.ediff1d: the differences of the flattened array, with to_begin and to_end around them. */
  ediff1d: (ary: V, toEnd?: V | number | null, toBegin?: V | number | null) => V;
  /** jnp.meshgrid: coordinate arrays of 1-d vectors (options last: sparse, indexing 'xy' or 'ij'). */
  meshgrid: (...xi: (V | { sparse?: boolean; indexing?: 'xy' | 'ij'; copy?: boolean })[]) => V[];
  /** jnp.cumulative_sum: the running sums along `axis` (a leading 0 with includeInitial). */
  cumulativeSum: (x: V, options?: { axis?: number | null; dtype?: DType | null; includeInitial?: boolean }) => V;
  /** jnp.cumulative_prod: the running products along `axis` (a leading 1 with includeInitial). */
  cumulativeProd: (x: V, options?: { axis?: number | null; dtype?: DType | null; includeInitial?: boolean }) => V;
  /** jnp.array_equal: whether the shapes and every element agree (NaNs equal with equalNan). */
  arrayEqual: (a1: V, a2: V, options?: { equalNan?: boolean }) => V;
  /** jnp.result_type: the dtype JAX's promotion gives dtype names, numbers (weak) and arrays. */
  resultType: (...args: (V | DType | number | boolean)[]) => DType;
  /** jnp.nansum: the sum of the elements that are not NaN. */
  nansum: (a: V, options?: ReduceOptions) => V;
  /** jnp.nanprod: the product of the elements that are not NaN. */
  nanprod: (a: V, options?: ReduceOptions) => V;
  /** jnp.nanmax: the largest element that is not NaN (NaN when all are). */
  nanmax: (a: V, options?: ReduceOptions) => V;
  /** jnp.nanmin: the smallest element that is not NaN (NaN when all are). */
  nanmin: (a: V, options?: ReduceOptions) => V;
  /** jnp.nanmean: the mean of the elements that are not NaN. */
  nanmean: (a: V, options?: ReduceOptions) => V;
  /** jnp.nanvar: the variance of the elements that are not NaN (over their count - ddof). */
  nanvar: (a: V, options?: ReduceOptions & { ddof?: number }) => V;
  /** jnp.nanstd: the square root of nanvar. */
  nanstd: (a: V, options?: ReduceOptions & { ddof?: number }) => V;
  /** jnp.nanargmax: the index of the largest element that is not NaN (-1 when all are). */
  nanargmax: (a: V, options?: { axis?: number | null; keepdims?: boolean }) => V;
  /** jnp.nanargmin: the index of the smallest element that is not NaN (-1 when all are). */
  nanargmin: (a: V, options?: { axis?: number | null; keepdims?: boolean }) => V;
  /** jnp.nancumsum: the running sum, NaN counted as 0. */
  nancumsum: (a: V, options?: { axis?: number | null }) => V;
  /** jnp.nancumprod: the running product, NaN counted as 1. */
  nancumprod: (a: V, options?: { axis?: number | null }) => V;
  /** jnp.ptp: max - min over `axis`. */
  ptp: (a: V, options?: { axis?: number | number[] | null; keepdims?: boolean }) => V;
  /** jnp.average: the (weighted) mean over `axis`; with returned, [average, sum of the weights]. */
  average: (a: V, options?: { axis?: number | number[] | null; weights?: V | null; returned?: boolean; keepdims?: boolean }) => V | [V, V];
  /** jnp.quantile: the q-th quantiles (q in [0, 1], a scalar or 1-d) along `axis`, by `method` (linear); NaN for a slice holding a NaN. */
  quantile: (a: V, q: V | number, options?: QuantileOptions) => V;
  /** jnp.nanquantile: the q-th quantiles of the elements that are not NaN (NaN where all are). */
  nanquantile: (a: V, q: V | number, options?: QuantileOptions) => V;
  /** jnp.percentile: quantile at q / 100 (q in [0, 100]). */
  percentile: (a: V, q: V | number, options?: QuantileOptions) => V;
  /** jnp.nanpercentile: nanquantile at q / 100. */
  nanpercentile: (a: V, q: V | number, options?: QuantileOptions) => V;
  /** jnp.median: quantile 0.5 by 'midpoint' (the mean of the two middle elements of an even count). */
  median: (a: V, options?: MedianOptions) => V;
  /** jnp.nanmedian: the median of the elements that are not NaN (NaN where all are). */
  nanmedian: (a: V, options?: MedianOptions) => V;
  /** jnp.polyval: the polynomial p (highest power first) at x, by Horner's rule. */
  polyval: (p: V, x: V | number) => V;
  /** jnp.polyadd: the sum of two polynomials. */
  polyadd: (a1: V, a2: V) => V;
  /** jnp.polysub: the difference of two polynomials. */
  polysub: (a1: V, a2: V) => V;
  /** jnp.polyder: the m-th derivative's coefficients. */
  polyder: (p: V, m?: number) => V;
  /** jnp.polyint: the m-th antiderivative's coefficients, integration constants k. */
  polyint: (p: V, m?: number, k?: V | number | null) => V;
  /** jnp.logspace: base ** linspace(start, stop, num). */
  logspace: (start: V | number, stop: V | number, num?: number, options?: { endpoint?: boolean; base?: V | number; dtype?: DType | null; axis?: number }) => V;
  /** jnp.geomspace: numbers evenly spaced on a log scale from start to stop. */
  geomspace: (start: V | number, stop: V | number, num?: number, options?: { endpoint?: boolean; dtype?: DType | null; axis?: number }) => V;
  /** jnp.rollaxis: `axis` moved to sit before `start`. */
  rollaxis: (a: V, axis: number, start?: number) => V;
  /** jnp.trapezoid: the integral of y by the trapezoidal rule, over x or spacing dx. */
  trapezoid: (y: V, x?: V | null, options?: { dx?: number; axis?: number }) => V;
  /** jnp.vander: the Vandermonde matrix of a vector. */
  vander: (x: V, N?: number | null, increasing?: boolean) => V;
  /** jnp.tril_indices: [rows, columns] of the lower triangle of an n x m matrix. */
  trilIndices: (n: number, k?: number, m?: number | null) => [ShardArray, ShardArray];
  /** jnp.triu_indices: [rows, columns] of the upper triangle. */
  triuIndices: (n: number, k?: number, m?: number | null) => [ShardArray, ShardArray];
  /** jnp.tril_indices_from: tril_indices of a 2-d array's shape. */
  trilIndicesFrom: (arr: V, k?: number) => [ShardArray, ShardArray];
  /** jnp.triu_indices_from: triu_indices of a 2-d array's shape. */
  triuIndicesFrom: (arr: V, k?: number) => [ShardArray, ShardArray];
  /** jnp.diag_indices: ndim copies of [0, ..., n - 1]. */
  diagIndices: (n: number, ndim?: number) => ShardArray[];
  /** jnp.indices: each axis's index at every position of a grid (stacked), or broadcastable arrays when sparse. */
  indices: (dimensions: number | number[], dtype?: DType | null, sparse?: boolean) => ShardArray | ShardArray[];
  /** jnp.fill_diagonal: a copy with the main diagonal set (inplace must be false). */
  fillDiagonal: (a: V, val: V | number, options?: { wrap?: boolean; inplace?: boolean }) => V;
  /** jnp.argwhere: one row of indices per nonzero element. */
  argwhere: (a: V, options?: { size?: number | null; fillValue?: number | null }) => V;
  /** jnp.flatnonzero: the positions of the nonzero elements in the flattened array. */
  flatnonzero: (a: V, options?: { size?: number | null; fillValue?: number | null }) => V;
  /** jnp.searchsorted: where each value would go in the sorted a. */
  searchsorted: (a: V, v: V | number, options?: { side?: 'left' | 'right'; sorter?: V | null; method?: string }) => V;
  /** jnp.digitize: the bin each value falls in. */
  digitize: (x: V, bins: V, right?: boolean) => V;
  /** jnp.select: per element, the choice of the first condition that holds, else default. */
  select: (condlist: V[], choicelist: V[], fallback?: V | number) => V;
  /** jnp.unique: the sorted distinct elements (or rows along axis), with the returns asked for. */
  unique: (
    ar: V,
    options?: { returnIndex?: boolean; returnInverse?: boolean; returnCounts?: boolean; axis?: number | null; equalNan?: boolean; size?: number | null; fillValue?: V | number | null; sorted?: boolean },
  ) => V | V[];
  /** jnp.interp: the piecewise linear function through (xp, fp) at x. */
  interp: (x: V | number, xp: V, fp: V, options?: { left?: V | number | 'extrapolate' | null; right?: V | number | 'extrapolate' | null; period?: V | number | null }) => V;
  /** jnp.isin: whether each element occurs among testElements. */
  isin: (element: V, testElements: V, options?: { assumeUnique?: boolean; invert?: boolean }) => V;
  /** jnp.bincount: how often each value 0..length-1 occurs (or the sum of its weights). */
  bincount: (x: V, weights?: V | null, minlength?: number, options?: { length?: number | null }) => V;
  /** jnp.array_equiv: whether the arrays broadcast together and agree everywhere. */
  arrayEquiv: (a1: V, a2: V) => V;
  diagonal: (a: V, offset?: number, axis1?: number, axis2?: number) => V;
  trace: (a: V, offset?: number, axis1?: number, axis2?: number) => V;
  swapaxes: (a: V, axis1: number, axis2: number) => V;
  moveaxis: (a: V, source: number | number[], destination: number | number[]) => V;
  hstack: (arrays: V[]) => V;
  vstack: (arrays: V[]) => V;
  roll: (a: V, shift: number | number[], axis?: number | number[] | null) => V;
  split: (a: V, sections: number | number[], axis?: number) => V[];
  arraySplit: (a: V, sections: number | number[], axis?: number) => V[];
  tile: (a: V, reps: number | number[]) => V;
  repeat: (a: V, repeats: number | number[] | V, axis?: number | null, totalRepeatLength?: number | null) => V;
  diag: (v: V, k?: number) => V;
  any: Reduce; all: Reduce;
};
/** jax.nn functions. */
export const nn: NnFunctions & {
  softmax: (x: V, options?: { axis?: number }) => V;
  logSoftmax: (x: V, options?: { axis?: number }) => V;
  elu: (x: V, alpha?: number) => V;
  leakyRelu: (x: V, negativeSlope?: number) => V;
  oneHot: (x: V, numClasses: number, options?: { dtype?: DType }) => V;
  logsumexp: (a: V, options?: { axis?: number | number[] | null; keepdims?: boolean }) => V;
  standardize: (x: V, options?: { axis?: number | number[]; mean?: V | number | null; variance?: V | number | null; epsilon?: number }) => V;
};
type Axes = string | string[];
/** jax.lax collectives (trees in and out) and primitives. */
export const lax: LaxFunctions & {
  psum: <T>(x: T, axisName: Axes) => T;
  pmean: <T>(x: T, axisName: Axes) => T;
  pmax: <T>(x: T, axisName: Axes) => T;
  pmin: <T>(x: T, axisName: Axes) => T;
  allGather: <T>(x: T, axisName: Axes, options?: { axis?: number; tiled?: boolean; to?: 'varying' | 'invarying' }) => T;
  psumScatter: <T>(x: T, axisName: Axes, options?: { scatterDimension?: number; tiled?: boolean }) => T;
  ppermute: <T>(x: T, axisName: Axes, perm: [number, number][]) => T;
  allToAll: <T>(x: T, axisName: Axes, splitAxis: number, concatAxis: number, options?: { tiled?: boolean }) => T;
  axisIndex: (axisName: Axes) => Tracer;
  /** jax.lax.axis_size: the number of devices along the axes of the enclosing shard_map (a number, known while tracing). */
  axisSize: (axisName: Axes) => number;
  pcast: <T>(x: T, axisName: Axes, options: { to: 'varying' }) => T;
  pvary: <T>(x: T, axisName: Axes) => T;
  /** jax.lax.stop_gradient: the same values (a tree), with derivative zero. */
  stopGradient: <T>(x: T) => T;
  /** jax.lax.with_sharding_constraint: x's arrays laid out as shardings (NamedShardings, or PartitionSpecs / null on setMesh's mesh) says; in a trace an identity shardMap. */
  withShardingConstraint: <T>(x: T, shardings: Tree<NamedSharding | PartitionSpec | null>) => T;
  dotGeneral: (x: V, y: V, dims: [[number[], number[]], [number[], number[]]], options?: { outSharding?: NamedSharding | PartitionSpec | null }) => V;
  slice: (x: V, start: number[], limit: number[], strides?: number[]) => V;
  dynamicSlice: (x: V, starts: V[], sizes: number[]) => V;
  /** jax.lax.slice_in_dim: elements [start, limit) of `axis` (negative from the end; null for the ends). */
  sliceInDim: (x: V, start?: number | null, limit?: number | null, stride?: number, axis?: number) => V;
  /** jax.lax.index_in_dim: element `index` of `axis`, the axis kept with keepdims (true). */
  indexInDim: (x: V, index: number, axis?: number, keepdims?: boolean) => V;
  /** jax.lax.dynamic_slice_in_dim: `size` elements of `axis` from `start` (traced or not, clamped). */
  dynamicSliceInDim: (x: V, start: V | number, size: number, axis?: number) => V;
  /** jax.lax.dynamic_index_in_dim: element `index` (traced or not, clamped) of `axis`. */
  dynamicIndexInDim: (x: V, index: V | number, axis?: number, keepdims?: boolean) => V;
  /** jax.lax.dynamic_update_slice_in_dim: update written into x from `start` of `axis`. */
  dynamicUpdateSliceInDim: (x: V, update: V, start: V | number, axis: number) => V;
  /** jax.lax.dynamic_update_index_in_dim: update (with or without `axis`) written at `index` of `axis`. */
  dynamicUpdateIndexInDim: (x: V, update: V | number, index: V | number, axis: number) => V;
  /** jax.lax.reshape: the elements in `newSizes`, read in the order `dimensions` when given. */
  reshape: (x: V, newSizes: number[], dimensions?: number[] | null) => V;
  /** jax.lax.broadcast: x repeated along new leading dimensions of `sizes`. */
  broadcast: (x: V, sizes: number[]) => V;
  /** jax.lax.concatenate: the operands (of one dtype: lax does not promote) joined along `dimension`. */
  concatenate: (operands: V[], dimension: number) => V;
  /** jax.lax.stack: the arrays joined along a new `axis` (0). */
  stack: (arrays: V[], axis?: number) => V;
  /** jax.lax.tile: x repeated reps[i] times along axis i. */
  tile: (x: V, reps: number[]) => V;
  /** jax.lax.top_k: the k largest elements along the last axis and their positions. */
  topK: (operand: V, k: number) => [V, V];
  /** jax.lax.sort: one array sorted along `dimension`, or a list of arrays permuted together by their first numKeys (a list back); NaN last. */
  sort: LaxSort;
  /** jax.lax.sort_key_val: keys sorted along `dimension`, values permuted with them: [keys, values]. */
  sortKeyVal: (keys: V, values: V, options?: { dimension?: number; isStable?: boolean }) => [V, V];
  /** jax.lax.linalg: the decompositions and the triangular solve. */
  linalg: {
    /** L lower triangular with L L^T = x (NaNs when x is not positive-definite). */
    cholesky: (x: V, options?: { symmetrizeInput?: boolean }) => V;
    /** [v, w]: x = v diag(w) v^T, w ascending. */
    eigh: (x: V, options?: { lower?: boolean; symmetrizeInput?: boolean; sortEigenvalues?: boolean }) => [V, V];
    /** [lu, pivots, permutation] of a square x (partial pivoting). */
    lu: (x: V) => [V, V, V];
    /** [q, r] with x = q r. */
    qr: (x: V, options?: { pivoting?: false; fullMatrices?: boolean }) => [V, V];
    /** [u, s, vh] with x = u diag(s) vh; s alone when computeUv is false. */
    svd: (x: V, options?: { fullMatrices?: boolean; computeUv?: boolean }) => V | [V, V, V];
    /** X with op(A) X = B (leftSide) or X op(A) = B. */
    triangularSolve: (a: V, b: V, options?: { leftSide?: boolean; lower?: boolean; transposeA?: boolean; conjugateA?: boolean; unitDiagonal?: boolean }) => V;
  };
  dynamicUpdateSlice: (x: V, update: V, starts: V[]) => V;
  pad: (x: V, value: number, config: [number, number, number][]) => V;
  selectN: (which: V, ...cases: V[]) => V;
  /** jax.lax.cond(pred, trueFun, falseFun, ...operands): both branches traced, the same output types. */
  cond: (pred: V, trueFun: AnyFn, falseFun: AnyFn, ...operands: any[]) => any;
  /** jax.lax.switch(index, branches, ...operands): the index clamped to the branches. */
  switch: (index: V, branches: AnyFn[], ...operands: any[]) => any;
  /** jax.lax.scan(f, init, xs, {length, reverse}): f(carry, x) => [carry, y]; returns [carry, ys]. */
  scan: (f: (carry: any, x: any) => [any, any], init: any, xs?: any, options?: { length?: number | null; reverse?: boolean }) => [any, any];
  /** jax.lax.fori_loop: a scan for integer bounds, a while_loop for traced ones. */
  foriLoop: (lower: number | V, upper: number | V, body: (i: Tracer, x: any) => any, init: any) => any;
  /** jax.lax.while_loop(condFun, bodyFun, initVal): forward-mode differentiable; cancel() stops one that never ends. */
  whileLoop: (condFun: (val: any) => V | boolean, bodyFun: (val: any) => any, initVal: any) => any;
  /** jax.lax.associative_scan(fn, elems, {reverse, axis}): every prefix combination of the associative fn along the axis, in O(log n) rounds. */
  associativeScan: (fn: (a: any, b: any) => any, elems: any, options?: { reverse?: boolean; axis?: number }) => any;
  broadcastInDim: (x: V, shape: number[], dims: number[]) => V;
  convertElementType: (x: V, dtype: DType) => V;
  iota: (dtype: DType, size: number) => V;
  round: (x: V, roundingMethod?: 0 | 1) => V;
  reduceSum: (x: V, axes: number[]) => V;
  reduceMax: (x: V, axes: number[]) => V;
  reduceMin: (x: V, axes: number[]) => V;
  argmax: (x: V, axis: number, indexDtype?: 'int32') => V;
  argmin: (x: V, axis: number, indexDtype?: 'int32') => V;
  cumsum: (x: V, options?: { axis?: number; reverse?: boolean }) => V;
  cumprod: (x: V, options?: { axis?: number; reverse?: boolean }) => V;
  bitcastConvertType: (x: V, newDtype: Exclude<DType, 'bool'>) => V;
  /** jax.lax.rev(x, dimensions). */
  rev: (x: V, dimensions: number[]) => V;
};

/** A typed PRNG key array (jax.random.key): key data of shape [...shape, 2], dtype key<fry>. */
export class KeyArray {
  readonly data: ShardArray | Tracer;
  readonly shape: number[];
  readonly ndim: number;
  readonly dtype: 'key<fry>';
  /** Whether each key equals `other`'s (by their data). */
  equal(other: KeyArray): ShardArray | Tracer;
}
type Key = V | KeyArray;
/** jax.lax.sort: one array gives one array back, a list of arrays a list. */
type LaxSort = {
  (operand: V, options?: { dimension?: number; isStable?: boolean; numKeys?: 1 }): V;
  (operand: V[], options?: { dimension?: number; isStable?: boolean; numKeys?: number }): V[];
};
/** np.linspace: the points, or [points, step] with retstep. */
type Linspace = {
  (start: number | V, stop: number | V, num?: number, options?: { endpoint?: boolean; retstep?: false; dtype?: DType; axis?: number }): V;
  (start: number | V, stop: number | V, num: number, options: { endpoint?: boolean; retstep: true; dtype?: DType; axis?: number }): [V, V];
};
type ShapeArg = number | number[];
/** jax.random: threefry2x32, bit for bit as JAX (partitionable). */
export const random: {
  PRNGKey: (seed: number | V) => V;
  key: (seed: number | V) => KeyArray;
  keyData: (keys: Key) => V;
  wrapKeyData: (data: V, options?: { impl?: 'threefry2x32' | null; dtype?: 'key<fry>' | null }) => KeyArray;
  split: <K extends Key>(key: K, num?: ShapeArg) => K;
  foldIn: <K extends Key>(key: K, data: number | V) => K;
  bits: (key: Key, shape?: ShapeArg, dtype?: 'uint32') => V;
  uniform: (key: Key, shape?: ShapeArg, dtype?: 'float32', minval?: number | V, maxval?: number | V) => V;
  normal: (key: Key, shape?: ShapeArg, dtype?: 'float32') => V;
  bernoulli: (key: Key, p?: number | V, shape?: ShapeArg | null) => V;
  randint: (key: Key, shape: ShapeArg, minval: number | V, maxval: number | V, dtype?: 'int32' | 'uint32') => V;
  permutation: (key: Key, x: number | V, axis?: number, independent?: boolean) => V;
  categorical: (key: Key, logits: V, axis?: number, shape?: ShapeArg | null) => V;
  truncatedNormal: (key: Key, lower: number | V, upper: number | V, shape?: ShapeArg | null, dtype?: 'float32') => V;
  /** Samples of density exp(-x): -log1p(-u), as JAX draws them. */
  exponential: (key: Key, shape?: ShapeArg, dtype?: 'float32') => V;
  /** Samples of density exp(-(x + exp(-x))): JAX's mode "low", -log(-log(u)). */
  gumbel: (key: Key, shape?: ShapeArg, dtype?: 'float32', mode?: 'low' | null) => V;
  /** A sample of a's slices along axis (of range(a) for an integer a), with or without replacement, uniform or weighted by p: JAX's draws. */
  choice: (key: Key, a: number | V, shape?: number[], replace?: boolean, p?: V | null, axis?: number, mode?: 'low' | null) => V;
  /** Gamma(a) samples (density x^(a-1) e^-x / Gamma(a)), Marsaglia and Tsang's rejection as JAX draws it; differentiable in a. */
  gamma: (key: Key, a: number | V, shape?: ShapeArg | null, dtype?: 'float32') => V;
  /** The logs of Gamma(a) samples, computed in log space (accurate for small a). */
  loggamma: (key: Key, a: number | V, shape?: ShapeArg | null, dtype?: 'float32') => V;
  /** Haar-random n x m matrices with orthonormal columns (rows when n < m), one per index of shape. */
  orthogonal: (key: Key, n: number, shape?: ShapeArg, dtype?: 'float32', m?: number | null) => V;
  KeyArray: typeof KeyArray;
};

/** One span of a device's time in a recorded timeline (times in ms from the first span). */
export interface TimelineSpan {
  device: number;
  kind: 'equation' | 'collective' | 'wait';
  /** How many of the device's spans hold it: 0 a top-level equation (a shard_map's whole body), 1 an equation of the body, more inside a loop or a collective. */
  depth: number;
  /** The equation's position in its program (-1 for a wait). */
  index: number;
  /** The primitive, or (a wait) what it waited in. */
  name: string;
  begin: number;
  end: number;
}
/** What each device did between profiler.startTrace() and profiler.stopTrace(). */
export interface Timeline {
  executor: 'threaded' | 'lockstep';
  devices: number;
  spans: TimelineSpan[];
  /** Spans not recorded: past the cap a device keeps. */
  dropped: number;
}
/** jax.profiler's start_trace / stop_trace, in memory: stopTrace returns the timeline (Promises; in a blocking engine, undefined and the timeline at once). */
export const profiler: {
  startTrace: () => Promise<void> | undefined;
  /** Whether a trace is being recorded. */
  tracing: () => boolean;
  stopTrace: () => Promise<Timeline> | Timeline;
  /** Each span's own time (ms): its length less that of the spans it directly holds. */
  ownTimes: (spans: TimelineSpan[]) => number[];
};

/**
 * jax.debug: values from inside jit, shardMap, vmap and grad. Inside a trace a
 * call runs each time the program runs, after the run, once per device in a
 * shardMap body (device order) and once per example under vmap; outside one, at once.
 */
export const debug: {
  /** fn with the arguments' values as concrete arrays (trees as given); whether it was traced (fn kept for the program's runs). */
  callback: (fn: (...values: any[]) => void, ...args: any[]) => boolean;
  /** fmt with `{}` (in turn) or `{n}` filled by the arguments' values, printed with console.log. */
  print: (fmt: string, ...args: any[]) => void;
};

/** The device runtime underneath. */
export function loadDevices(options?: DeviceOptions & { executor?: Executor }): Promise<DeviceRuntime>;
export class DeviceRuntime {
  readonly devices: number;
  readonly executor: 'threaded' | 'lockstep';
  readonly deadReason: string | null;
  terminate(): void;
}
export { ShardLabError as RuntimeError };
