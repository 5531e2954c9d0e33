// The shardlab package. For now it exposes the device runtime (meshes,
// sharded arrays, collectives on the 8 device workers); the JAX-shaped API
// (jit, shardMap, grad, np, lax, ...) is built on it next.
export { loadDevices, DeviceRuntime, RuntimeError } from './runtime/devices.js';
