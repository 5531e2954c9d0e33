// The engine: the one device runtime of this JS realm (a page, a worker or a
// Node process) and the stack of traces being built.

import { loadDevices } from '../runtime/devices.js';
import { isNode } from '../runtime/load_module.js';
import { ValueError } from '../errors.js';

/** The engine's state (internal). */
export const state = {
  runtime: null, // the DeviceRuntime
  Module: null, // its Emscripten module
  starting: null, // the pending init, if any
  traces: [], // the traces being built, innermost last
  defaultMesh: null,
  blocking: false, // operations return computed arrays (init({blocking}))
};

const HEADERS_HINT =
  'serve the page with the headers Cross-Origin-Opener-Policy: same-origin and ' +
  'Cross-Origin-Embedder-Policy: require-corp to get 8 device threads';

/** Whether this realm can run the threaded module (SharedArrayBuffer, cross-origin isolated). */
export function canUseThreads() {
  return typeof SharedArrayBuffer !== 'undefined' && (isNode || globalThis.crossOriginIsolated === true);
}

/**
 * Starts ShardLab: loads the wasm module and its device workers. `devices` is
 * 1, 2, 4 or 8 (default 8); `memoryMB` sets the wasm heap. Where
 * SharedArrayBuffer is missing (a page that is not cross-origin isolated) it
 * falls back, with a console warning, to the module without threads: the
 * devices are stepped by one worker with the lockstep executor (bitwise the
 * same results). `threads: false` asks for that fallback explicitly;
 * with `inThread: true` its devices are stepped on the calling thread (for
 * code already in a worker, never a page's main thread), and `sources`
 * (moduleSources(), posted to the worker) is the module handed over, so the
 * worker needs no connection to load it. `testHooks` loads the test build
 * of the module (Node): the same plus fault injection (runtime.fault).
 * `blocking: true` (Node, or a worker) makes every operation and jit call
 * complete before it returns, so arrays can be read at once (dataSync), as
 * a synchronous front end needs (the Python `jax` package); the page's main
 * thread never blocks.
 * Idempotent: later calls with the same options return the engine's description.
 */
export async function init({ devices = 8, memoryMB, threads, inThread = false, sources, testHooks = false, blocking = false } = {}) {
  if (blocking && typeof window !== 'undefined') {
    throw new ValueError("init: blocking: true waits on this thread, which a page's main thread may not do; use it in a worker or Node");
  }
  if (blocking && threads === false && !inThread) {
    throw new ValueError('init: blocking: true cannot wait for the lockstep worker; with threads: false, pass inThread: true');
  }
  if (state.runtime && !state.runtime.deadReason) {
    if (devices !== state.runtime.devices) {
      throw new ValueError(
        `init: ShardLab already runs with ${state.runtime.devices} devices; devices=${devices} needs a fresh page or process`,
      );
    }
    return describe();
  }
  if (!state.starting) {
    const useThreads = threads ?? canUseThreads();
    if (!useThreads && threads === undefined) {
      console.warn(`shardlab: SharedArrayBuffer is not available, so the ${devices} devices run on one worker with the lockstep executor (same results, no parallel speed-up); ${HEADERS_HINT}`);
    }
    state.starting = loadDevices({ devices, memoryMB, threads: useThreads, inThread, sources, testHooks })
      .then((rt) => {
        state.runtime = rt;
        state.Module = rt.Module;
        state.defaultMesh = null;
        state.blocking = blocking;
      })
      .finally(() => {
        state.starting = null;
      });
  }
  await state.starting;
  return describe();
}

function describe() {
  const { devices, executor } = state.runtime;
  return { devices, threads: executor === 'threaded', executor };
}

/**
 * Stops the device runtime (its threads or worker) and frees its memory:
 * every array and compiled function made so far becomes unusable. A later
 * init() starts a fresh one. Node scripts exit without it once their work is
 * done; call it to end earlier or to release the memory in a long-lived page.
 */
export function shutdown() {
  state.runtime?.terminate();
  state.runtime = null;
  state.Module = null;
  state.defaultMesh = null;
}

/**
 * Cancels every call still running or queued on the devices (a while_loop
 * that never ends, a caller's time limit): their promises reject with a
 * CancelledError, and the runtime stays usable for the calls that follow.
 * Device threads stop at their next loop iteration; the lockstep worker,
 * which cannot be interrupted, is replaced by a fresh one (the arrays it held
 * are lost: reading one rejects with a DeviceError).
 */
export function cancel() {
  state.runtime?.cancel();
}

/** How the engine runs: {devices, threads, executor: 'threaded' | 'lockstep'}. */
export function runtimeInfo() {
  engine();
  return describe();
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

/**
 * Memory of the wasm heap: {inUse: bytes malloc'd, heapSize: bytes reserved}.
 * heapSize is the memory's current size, read in the core: this thread's
 * HEAPU8 view is renewed only when Emscripten's JS next touches the heap
 * after a device thread grew the memory.
 */
export function memoryStats() {
  const { Module } = engine();
  return { inUse: Module.heapBytesInUse(), heapSize: Module.heapBytes() };
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
