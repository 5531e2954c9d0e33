// shardlab: JAX-style sharded programs on 8 Web Worker devices. The API
// follows JAX's names in camelCase; see README.md for a tour.
import './api/core/methods.js';

export { init, shutdown, cancel, deviceCount, memoryStats, runtimeInfo } from './api/core/state.js';
export { makeMesh, Mesh, P, PartitionSpec, NamedSharding, setMesh, getAbstractMesh, AbstractMesh } from './api/mesh.js';
export { array, DArray as Array } from './api/core/array.js';
export { jit, makeJaxpr, observeTraces, Jaxpr, Lowered, Compiled, grad, valueAndGrad, vjp, jvp, shardMap, devicePut } from './api/transforms.js';
export { checkpoint, checkpoint as remat, checkpointPolicies } from './api/checkpoint.js';
export { linearTranspose } from './api/linear_transpose.js';
export { reshard } from './api/resharding.js';
export { numpyDtypePromotion } from './api/core/operands.js';
export { vmap } from './api/vmap.js';
export { jacfwd, jacrev, hessian } from './api/jacobians.js';
export { customJvp, customVjp } from './api/custom.js';
export { ShapeDtypeStruct } from './api/core/run.js';
export { weakFloat, WeakFloat } from './api/core/weak_float.js';
export { Tracer } from './api/core/tracer.js';
export { visualizeSharding } from './api/visualize.js';
export { at, slice, Slice, IndexRef } from './api/indexing.js';
export {
  ShardLabError,
  ValueError,
  AxisNameError,
  UnexpectedTracerError,
  OverflowError,
  ShapeError,
  ShardingError,
  VmaError,
  ShardingTypeError,
  ConcretizationError,
  NonConcreteBooleanIndexError,
  IndexError,
  DeviceError,
  ResourceError,
  CancelledError,
  NotImplementedError,
} from './errors.js';
export * as np from './api/numpy/index.js';
export * as lax from './api/lax/index.js';
export * as nn from './api/nn.js';
export * as random from './api/random.js';
export * as profiler from './api/profiler.js';
export * as debug from './api/debug.js';
export * as export from './api/export.js';
// Every public function once: its JAX name and how Python's jax binds it.
export * as manifest from './api/manifest.js';
// The device runtime underneath (meshes, sharded arrays and single collectives).
export { loadDevices, DeviceRuntime, RuntimeError } from './engine/devices.js';
export { moduleSources } from './engine/load_module.js';
