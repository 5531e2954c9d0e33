// The engine: the one device runtime of this JS realm (a page, a worker or a
// Node process) and the stack of traces being built.

import { startDevices } from '../../engine/start_devices.js';
import { isNode } from '../../engine/load_module.js';
import { ValueError } from '../../errors.js';

/** The engine's state (internal). */
export const state = {
  runtime: null, // the DeviceRuntime
  starting: null, // the pending init, if any
  traces: [], // the traces being built, innermost last
  defaultMesh: null,
  contextMesh: null, // jax.set_mesh's mesh (mesh.js), where a bare PartitionSpec is read
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
 * Starts ShardLab: loads the wasm module and its devices. `devices` is 1, 2,
 * 4 or 8 (default 8); `memoryMB` sets the wasm heap. `executor` says what
 * runs the programs: 'threads' (one device thread each; needs
 * SharedArrayBuffer, which a page has when it is cross-origin isolated),
 * 'lockstep' (one thread steps every device through each equation: bitwise
 * the same results, no parallel speed-up) or 'auto' (the default: 'threads'
 * where SharedArrayBuffer exists, else, with a console warning, 'lockstep').
 * `blocking: true` (Node, or a worker) makes every operation and jit call
 * complete before it returns, so arrays can be read at once (dataSync), as a
 * synchronous front end needs (the Python `jax` package); never on a page's
 * main thread, which may not wait. Where the lockstep executor runs follows
 * from it: on the calling thread when blocking (it waits for its runs
 * anyway), else on a worker of its own (the caller's thread stays free, and
 * cancel() can stop a run that never ends). `sources` (moduleSources(),
 * posted to a worker) is the module without threads handed over, so the
 * worker needs no connection to load it. Every combination of the options
 * is valid. Idempotent: later calls with the same options return the
 * engine's description.
 */
export function init(options) {
  return initWith(options, startDevices);
}

const EXECUTORS = ['auto', 'threads', 'lockstep'];

/** init, its runtime started by `start(options)` (startDevices; web/lib/testing.js starts the test build). */
export async function initWith({ devices = 8, memoryMB, executor = 'auto', sources, blocking = false, ...rest } = {}, start) {
  const unknown = Object.keys(rest);
  if (unknown.length) throw new ValueError(`init: unknown option '${unknown[0]}'; the options are devices, memoryMB, executor, sources, blocking`);
  if (!EXECUTORS.includes(executor)) {
    throw new ValueError(`init: executor=${JSON.stringify(executor)} is not one of ${EXECUTORS.map((e) => `'${e}'`).join(', ')}`);
  }
  if (blocking && typeof window !== 'undefined') {
    throw new ValueError("init: blocking: true waits on this thread, which a page's main thread may not do; use it in a worker or Node");
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
    let chosen = executor;
    if (executor === 'auto') {
      chosen = canUseThreads() ? 'threads' : 'lockstep';
      if (chosen !== 'threads') {
        console.warn(`shardlab: SharedArrayBuffer is not available, so the ${devices} devices run on ${blocking ? 'this thread' : 'one worker'} with the lockstep executor (same results, no parallel speed-up); ${HEADERS_HINT}`);
      }
    }
    // The device runtime's executors (startDevices): the lockstep one here when blocking, else on its worker.
    const where = chosen === 'threads' ? 'threads' : blocking ? 'here' : 'worker';
    state.starting = start({ devices, memoryMB, executor: where, sources })
      .then((rt) => {
        state.runtime = rt;
        state.defaultMesh = null;
        state.contextMesh = null;
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
  state.defaultMesh = null;
  state.contextMesh = null;
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

/** Memory of the wasm heap: {inUse: bytes malloc'd, heapSize: bytes reserved} (DeviceRuntime.memoryStats). */
export function memoryStats() {
  return engine().runtime.memoryStats();
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
