// Error categories of the API. Every error ShardLab raises is a ShardLabError
// whose class (and `name`) says what kind of mistake it is; messages name the
// operation, the shapes or axes involved and what would be valid.

/** Base class of every error ShardLab raises. */
export class ShardLabError extends Error {
  // Each class spells its name out: a minifier renames classes, so
  // new.target.name would give the page's learner 'd' instead of 'ShapeError'.
  static errorName = 'ShardLabError';
  constructor(message) {
    super(message);
    this.name = new.target.errorName;
  }
}
/** A bad argument value (an unknown axis, a bad option, a wrong tree). */
export class ValueError extends ShardLabError {
  static errorName = 'ValueError';
}
/** A collective's axis name that no enclosing shard_map binds (JAX's NameError "Found an unbound axis name"). */
export class AxisNameError extends ValueError {
  static errorName = 'AxisNameError';
}
/** A traced value used after its trace ended, or in a trace that cannot see it (JAX's UnexpectedTracerError). */
export class UnexpectedTracerError extends ValueError {
  static errorName = 'UnexpectedTracerError';
}
/** Dtypes JAX's promotion cannot join (jax_numpy_dtype_promotion='strict'): JAX's TypePromotionError. */
export class TypePromotionError extends ValueError {
  static errorName = 'TypePromotionError';
}
/** A Python int (a JS number given as one) outside the int32 range where JAX converts it to an array: JAX's OverflowError without x64. */
export class OverflowError extends ShardLabError {
  static errorName = 'OverflowError';
}
/** Shapes or dtypes that do not fit the operation. */
export class ShapeError extends ShardLabError {
  static errorName = 'ShapeError';
}
/** A PartitionSpec or mesh that does not fit the array or the program. */
export class ShardingError extends ShardLabError {
  static errorName = 'ShardingError';
}
/** A shard_map output whose varying mesh axes its out_specs omit (check_vma). */
export class VmaError extends ShardingError {
  static errorName = 'VmaError';
}
/** Types whose shardings do not combine (JAX's ShardingTypeError): an ambiguous result that out_sharding= or jax.reshard settles. */
export class ShardingTypeError extends ShardingError {
  static errorName = 'ShardingTypeError';
}
/** A traced value used where a concrete number is needed (Number(t), t > 0, ...). */
export class ConcretizationError extends ShardLabError {
  static errorName = 'ConcretizationError';
}
/** A boolean mask index that is traced: its number of true entries (the result's shape) is unknown (JAX's NonConcreteBooleanIndexError). */
export class NonConcreteBooleanIndexError extends ConcretizationError {
  static errorName = 'NonConcreteBooleanIndexError';
}
/** An index that does not fit the array: too many indices, two ellipses. */
export class IndexError extends ShardLabError {
  static errorName = 'IndexError';
}
/** A device failed while running a program, or the runtime is gone. */
export class DeviceError extends ShardLabError {
  static errorName = 'DeviceError';
}
/** Out of memory or of queue slots. */
export class ResourceError extends ShardLabError {
  static errorName = 'ResourceError';
}
/** A call stopped by cancel() (a caller's time limit) before it finished. */
export class CancelledError extends ShardLabError {
  static errorName = 'CancelledError';
}

/** What JAX has not and ShardLab has not either: an option of a function it does not implement (JAX's NotImplementedError). */
export class NotImplementedError extends ShardLabError {
  static errorName = 'NotImplementedError';
}

const BY_NAME = {
  ValueError,
  AxisNameError,
  UnexpectedTracerError,
  TypePromotionError,
  OverflowError,
  ShapeError,
  ShardingError,
  VmaError,
  ShardingTypeError,
  DeviceError,
  ResourceError,
  ConcretizationError,
  NonConcreteBooleanIndexError,
  IndexError,
  CancelledError,
  NotImplementedError,
};

/** The ShardLab error of category `name` (a core error's name) with `message`. */
export function errorOf(name, message) {
  const Cls = BY_NAME[name] ?? ShardLabError;
  return new Cls(message);
}

/** Rethrows an error from the wasm core as its category class; other errors pass unchanged. */
export function fromCore(e) {
  if (e instanceof ShardLabError) return e;
  if (e instanceof Error && e.name in BY_NAME && e.constructor === Error) return errorOf(e.name, e.message);
  return e;
}
