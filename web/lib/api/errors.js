// Error categories of the API. Every error ShardLab raises is a ShardLabError
// whose class (and `name`) says what kind of mistake it is; messages name the
// operation, the shapes or axes involved and what would be valid.

/** Base class of every error ShardLab raises. */
export class ShardLabError extends Error {
  constructor(message) {
    super(message);
    this.name = new.target.name;
  }
}
/** A bad argument value (an unknown axis, a bad option, a wrong tree). */
export class ValueError extends ShardLabError {}
/** Shapes or dtypes that do not fit the operation. */
export class ShapeError extends ShardLabError {}
/** A PartitionSpec or mesh that does not fit the array or the program. */
export class ShardingError extends ShardLabError {}
/** A shard_map output whose varying mesh axes its out_specs omit (check_vma). */
export class VmaError extends ShardingError {}
/** A traced value used where a concrete number is needed (Number(t), t > 0, ...). */
export class ConcretizationError extends ShardLabError {}
/** A device failed while running a program, or the runtime is gone. */
export class DeviceError extends ShardLabError {}
/** Out of memory or of queue slots. */
export class ResourceError extends ShardLabError {}

const BY_NAME = { ValueError, ShapeError, ShardingError, VmaError, DeviceError, ResourceError, ConcretizationError };

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
