// The engine: the one device runtime of this JS realm (a page, a worker or a
// Node process) and the stack of traces being built.

import { loadDevices } from '../runtime/devices.js';
import { ValueError } from './errors.js';

/** The engine's state (internal). */
export const state = {
  runtime: null, // the DeviceRuntime
  Module: null, // its Emscripten module
  starting: null, // the pending init, if any
  traces: [], // the traces being built, innermost last
  defaultMesh: null,
};

/**
 * Starts ShardLab: loads the wasm module and its device workers. `devices` is
 * 1, 2, 4 or 8 (default 8); `memoryMB` sets the wasm heap. Idempotent: later
 * calls with the same options return the running engine's description.
 */
export async function init({ devices = 8, memoryMB } = {}) {
  if (state.runtime && !state.runtime.deadReason) {
    if (devices !== state.runtime.devices) {
      throw new ValueError(
        `init: ShardLab already runs with ${state.runtime.devices} devices; devices=${devices} needs a fresh page or process`,
      );
    }
    return describe();
  }
  if (!state.starting) {
    state.starting = loadDevices({ devices, memoryMB })
      .then((rt) => {
        state.runtime = rt;
        state.Module = rt.Module;
        state.defaultMesh = null;
      })
      .finally(() => {
        state.starting = null;
      });
  }
  await state.starting;
  return describe();
}

function describe() {
  return { devices: state.runtime.devices, threads: true, executor: 'threaded' };
}

/** The running engine; throws a clear error before init(). */
export function engine() {
  if (!state.runtime) throw new ValueError('shardlab: call `await sl.init()` before using arrays, meshes or jit');
  if (state.runtime.deadReason) {
    throw new ValueError(`shardlab: the device runtime is gone (${state.runtime.deadReason}); call \`await sl.init()\` again`);
  }
  return state;
}

/** Number of devices of the running engine (jax.device_count()). */
export function deviceCount() {
  return engine().runtime.devices;
}

/** Memory of the wasm heap: {inUse: bytes malloc'd, heapSize: bytes reserved}. */
export function memoryStats() {
  const { Module } = engine();
  return { inUse: Module.heapBytesInUse(), heapSize: Module.HEAPU8.length };
}

/** The innermost trace being built, or null outside tracing. */
export function currentTrace() {
  return state.traces.length ? state.traces[state.traces.length - 1] : null;
}

/** Runs f with `trace` as the innermost trace. */
export function withTrace(trace, f) {
  state.traces.push(trace);
  try {
    return f();
  } finally {
    state.traces.pop();
  }
}
