// The page side of the lockstep worker: programs (each once, as its JSON
// form) and input arrays go to one worker that runs the module without
// threads; the page only posts messages and awaits replies, so its main
// thread never blocks.

import { errorOf } from '../api/errors.js';
import { isNode } from './load_module.js';

/** Starts the lockstep worker; resolves once its module is loaded. */
export async function startLockstepWorker({ memoryMB } = {}) {
  let worker;
  if (isNode) {
    const { Worker } = await import('node:worker_threads');
    worker = new Worker(new URL('./lockstep_worker.js', import.meta.url), { workerData: { memoryMB } });
  } else {
    // Written out in full so bundlers (Vite) see and bundle the worker.
    worker = new Worker(new URL('./lockstep_worker.js', import.meta.url), { type: 'module' });
    worker.postMessage({ init: { memoryMB } });
  }
  const client = new LockstepClient(worker);
  await client.call({ ping: true });
  return client;
}

/** Calls into the lockstep worker: one Promise per request. */
class LockstepClient {
  constructor(worker) {
    this._worker = worker;
    this._pending = new Map();
    this._next = 1;
    // Each program goes to the worker once, under an id; it is released there
    // when the program's handle is garbage-collected here.
    this._programIds = new WeakMap();
    this._sent = new Set();
    this._nextProgram = 1;
    this._released = new FinalizationRegistry((id) => {
      this._sent.delete(id);
      this._worker.postMessage({ release: id });
    });
    this.onDeath = null;
    const onMessage = (msg) => {
      const p = this._pending.get(msg.id);
      if (!p) return;
      this._pending.delete(msg.id);
      if (msg.error) p.reject(errorOf(msg.error.name, msg.error.message));
      else p.resolve(msg.outputs);
    };
    const onError = (e) => this._fail(`the lockstep worker crashed (${e?.message ?? e})`);
    if (isNode) {
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.unref();
    } else {
      worker.onmessage = (e) => onMessage(e.data);
      worker.onerror = onError;
    }
  }

  /** Runs `program` (a core Program handle) on host arrays ({dtype, shape, data}, transferred); resolves with the outputs. */
  async run(program, inputs) {
    let id = this._programIds.get(program);
    if (!id) {
      id = this._nextProgram++;
      this._programIds.set(program, id);
      this._released.register(program, id);
    }
    const msg = { programId: id, inputs };
    if (!this._sent.has(id)) {
      msg.json = program.toJSON();
      this._sent.add(id);
    }
    try {
      return await this.call(msg, inputs.map((i) => i.data.buffer));
    } catch (e) {
      if (msg.json) this._sent.delete(id); // not kept there: send it again next time
      throw e;
    }
  }

  /** Sends a request (transferring `transfer`); resolves with its outputs. */
  call(msg, transfer = []) {
    const id = this._next++;
    return new Promise((resolve, reject) => {
      this._pending.set(id, { resolve, reject });
      if (isNode && this._pending.size === 1) this._worker.ref();
      this._worker.postMessage({ ...msg, id }, transfer);
    }).finally(() => {
      if (isNode && this._pending.size === 0) this._worker.unref();
    });
  }

  _fail(why) {
    const error = errorOf('DeviceError', `the device runtime is gone: ${why}`);
    for (const p of this._pending.values()) p.reject(error);
    this._pending.clear();
    this.onDeath?.(why);
  }

  /** Stops the worker. */
  terminate() {
    this._worker.terminate();
  }
}
