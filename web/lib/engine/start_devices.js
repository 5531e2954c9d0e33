// Starting a device runtime: the module loaded with or without threads, and
// the executor that runs its programs (executor: 'threads', 'worker' or 'here').

import { errorOf } from '../errors.js';
import { DeviceRuntime } from './device_runtime.js';
import { InThreadExecutor } from './in_thread_executor.js';
import { instantiateModule } from './load_module.js';
import { LockstepWorkerExecutor, startLockstepWorker } from './lockstep_client.js';
import { ThreadedExecutor } from './threaded_executor.js';

/** The executors a runtime can run its programs on, by the name `executor` takes. */
export const EXECUTORS = ['threads', 'worker', 'here'];

/**
 * Starts a runtime of `devices` devices (1, 2, 4 or 8) whose programs run
 * on `executor`: 'threads' (one device thread each; needs
 * SharedArrayBuffer), 'worker' (one worker of its own steps every device
 * through each equation: the lockstep executor, bitwise the same results)
 * or 'here' (the lockstep executor on this thread: a worker or Node only,
 * since each run blocks its thread). `memoryMB` sets the wasm heap size;
 * `sources` (moduleSources) is the module without threads handed over, for
 * a worker that may not fetch it. `testBuild` loads the test build of the
 * module (web/lib/testing.js; with threads), whose test hooks run jobs that
 * fail on purpose or run a program many times.
 */
export async function startDevices({ devices = 8, memoryMB, executor = 'threads', sources } = {}, { testBuild = false } = {}) {
  if (![1, 2, 4, 8].includes(devices)) {
    throw errorOf('ValueError', `loadDevices: devices=${devices} is not supported; use 1, 2, 4 or 8`);
  }
  if (!EXECUTORS.includes(executor)) {
    throw errorOf('ValueError', `loadDevices: executor=${JSON.stringify(executor)} is not one of ${EXECUTORS.map((e) => `'${e}'`).join(', ')}`);
  }
  if (executor === 'here' && typeof window !== 'undefined') {
    throw errorOf('ValueError', "loadDevices: executor 'here' steps the devices on the calling thread, which a page's main thread may not block; use 'worker'");
  }
  let runtime = null;
  const overrides = {
    onAbort: (what) => runtime?._die(`the wasm runtime aborted (${what})`),
    print: (s) => console.log(s),
    printErr: (s) => console.error(s),
  };
  if (memoryMB !== undefined) overrides.INITIAL_MEMORY = memoryMB * 1024 * 1024;
  const threads = executor === 'threads';
  const [Module, client] = await Promise.all([
    instantiateModule(overrides, { threads, sources, testBuild }),
    executor === 'worker' ? startLockstepWorker({ memoryMB }) : null,
  ]);
  const makeExecutor = {
    threads: (rt) => new ThreadedExecutor(rt),
    worker: (rt) => new LockstepWorkerExecutor(rt, client),
    here: (rt) => new InThreadExecutor(rt),
  }[executor];
  runtime = new DeviceRuntime(Module, devices, makeExecutor);
  return runtime;
}
