// The device runtime from JavaScript (the package's `shardlab/devices`): the
// devices of the wasm module (8 device threads: Web Workers in a browser,
// worker_threads in Node), meshes, sharded arrays and collectives. Every job
// returns a Promise: the calling thread only enqueues work and is called
// back, so a page's main thread never blocks.

import { errorOf } from '../errors.js';
import { startDevices } from './start_devices.js';

export { DeviceRuntime } from './device_runtime.js';
/** The base class of the runtime's errors (ShardLabError); `name` is the category. */
export { ShardLabError as RuntimeError } from '../errors.js';

/**
 * Starts a device runtime: loads the wasm module and its `devices` devices
 * (1, 2, 4 or 8; default 8). `executor`: 'threads' (the default: one
 * persistent thread per device; needs SharedArrayBuffer), 'worker' (where
 * SharedArrayBuffer is missing: one worker steps every device through each
 * equation, the lockstep executor, with bitwise the same results) or 'here'
 * (the lockstep executor on the calling thread, for code already in a
 * worker, since each run blocks its thread). `memoryMB` sets the wasm heap
 * size (default: the size the module was built with); `sources`
 * (moduleSources) is the module handed over, for a worker that may not fetch it.
 */
export function loadDevices({ devices, memoryMB, executor, sources, ...rest } = {}) {
  const unknown = Object.keys(rest);
  if (unknown.length) {
    return Promise.reject(errorOf('ValueError', `loadDevices: unknown option '${unknown[0]}'; the options are devices, memoryMB, executor, sources`));
  }
  return startDevices({ devices, memoryMB, executor, sources });
}
