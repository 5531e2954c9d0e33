// The page side of the lockstep worker: programs (each once, as its JSON
// form) and input arrays go to one worker that runs the module without
// threads; the page only posts messages and awaits replies, so its main
// thread never blocks. A program's outputs stay in the worker (resident
// arrays) until they are read here, so a chain of calls (a training loop's
// parameters) sends each array's data across once, not twice per call.

import { errorOf } from '../errors.js';
import { hostView } from './host_arrays.js';
import { isNode } from './load_module.js';

/** Starts the lockstep worker; resolves once its module is loaded. */
export async function startLockstepWorker({ memoryMB } = {}) {
  let spawn;
  if (isNode) {
    const { Worker } = await import('node:worker_threads');
    spawn = () => new Worker(new URL('./lockstep_worker.js', import.meta.url), { workerData: { memoryMB } });
  } else {
    spawn = () => {
      // Written out in full so bundlers (Vite) see and bundle the worker.
      const worker = new Worker(new URL('./lockstep_worker.js', import.meta.url), { type: 'module' });
      worker.postMessage({ init: { memoryMB } });
      return worker;
    };
  }
  const client = new LockstepClient(spawn);
  await client.call({ ping: true });
  return client;
}

/** Calls into the lockstep worker: one Promise per request. */
class LockstepClient {
  /** `spawn()` starts a worker (again after restart). */
  constructor(spawn) {
    this._spawn = spawn;
    this._pending = new Map();
    this._next = 1;
    // Each program goes to the worker once, under an id; it is released there
    // when the program's handle is garbage-collected here.
    this._programIds = new WeakMap();
    this._sent = new Set();
    this._nextProgram = 1;
    this._nextArray = 1;
    /** Bytes of array data sent to the worker and brought back from it. */
    this.traffic = { toWorker: 0, fromWorker: 0 };
    this._released = new FinalizationRegistry((id) => {
      this._sent.delete(id);
      this._worker.postMessage({ release: id });
    });
    this.onDeath = null;
    this.generation = 0; // bumped by restart: resident arrays of an older worker are gone
    this._start();
  }

  _start() {
    const worker = (this._worker = this._spawn());
    const onMessage = (msg) => {
      const p = this._pending.get(msg.id);
      if (!p) return;
      this._pending.delete(msg.id);
      if (msg.error) p.reject(errorOf(msg.error.name, msg.error.message));
      else p.resolve(msg.result);
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

  /**
   * Runs `program` (a core Program handle) on `inputs`: host arrays
   * ({dtype, shape, data}, transferred) or ResidentArrays of this worker;
   * resolves with its outputs as ResidentArrays.
   */
  async run(program, inputs) {
    let id = this._programIds.get(program);
    if (!id) {
      id = this._nextProgram++;
      this._programIds.set(program, id);
      this._released.register(program, id);
    }
    const transfer = [];
    const wire = inputs.map((x) => {
      if (x instanceof ResidentArray) return { ref: x._id(this) };
      transfer.push(x.data.buffer);
      this.traffic.toWorker += x.data.byteLength;
      return x;
    });
    const msg = { programId: id, inputs: wire, outIds: Array.from(program.outSpecs(), () => this._nextArray++) };
    if (!this._sent.has(id)) {
      msg.json = program.toJSON();
      this._sent.add(id);
    }
    let avals;
    try {
      avals = await this.call(msg, transfer);
    } catch (e) {
      if (msg.json) this._sent.delete(id); // not kept there: send it again next time
      throw e;
    }
    return avals.map((a, i) => new ResidentArray(this, msg.outIds[i], a.dtype, a.shape));
  }

  /** A copy of resident array `id`'s data (it stays in the worker). */
  async read(id) {
    const data = await this.call({ read: id });
    this.traffic.fromWorker += data.byteLength;
    return data;
  }

  // Lets the worker drop resident array `id`.
  _release(id) {
    this._worker.postMessage({ releaseArray: id });
  }

  /** Sends a request (transferring `transfer`); resolves with its result. */
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

  /**
   * Terminates the worker (whatever it is running) and starts a fresh one:
   * pending requests reject with `error`; the programs are sent again when
   * next run, and the arrays the old worker held are lost.
   */
  restart(error) {
    this._worker.terminate();
    for (const p of this._pending.values()) p.reject(error);
    this._pending.clear();
    this._sent.clear();
    this.generation++;
    this._start();
  }

  /** Stops the worker; requests still pending reject with `error`. */
  terminate(error = errorOf('DeviceError', 'the lockstep worker was stopped')) {
    this._worker.terminate();
    for (const p of this._pending.values()) p.reject(error);
    this._pending.clear();
  }
}

/**
 * An array that lives in the lockstep worker (a program's output): its
 * dtype and shape, the layout its reads get here ({mesh, spec}, set by the
 * runtime), and once read, `local`, its copy on this thread (a core
 * ShardedArray). Deleting it releases both, like a core array's delete().
 */
export class ResidentArray {
  constructor(client, id, dtype, shape) {
    this._client = client;
    this._generation = client.generation;
    this._resident = id;
    this._dtype = dtype;
    this._shape = shape;
    this.layout = null;
    this.local = null;
    this.bringing = null; // the read bringing `local` here, once started
  }

  /** The dtype's name, as a core array's dtype(). */
  dtype() {
    return this._dtype;
  }

  /** The global shape (a copy), as a core array's shape(). */
  shape() {
    return [...this._shape];
  }

  // Its id in `client`'s worker (an array is only ever used with its own).
  _id(client) {
    if (this._resident === null) throw errorOf('ValueError', 'run: the array was deleted');
    if (client !== this._client) throw errorOf('DeviceError', 'run: the array belongs to another lockstep worker');
    if (this._generation !== client.generation) {
      throw errorOf('DeviceError', 'the array was lost: the lockstep worker holding it was restarted when a call was cancelled');
    }
    return this._resident;
  }

  /** Whether delete() was called. */
  isDeleted() {
    return this._resident === null;
  }

  /** Releases the worker's copy and this thread's, if any. */
  delete() {
    if (this._resident !== null && this._generation === this._client.generation) this._client._release(this._resident);
    this._resident = null;
    this.local?.delete();
    this.local = null;
  }
}

/**
 * The lockstep worker as an executor (the interface: see DeviceRuntime):
 * programs run in the worker, their outputs stay there as ResidentArrays,
 * laid out on their mesh here when read (ready).
 */
export class LockstepWorkerExecutor {
  constructor(runtime, client) {
    /** The name runtimeInfo() and the timeline give this executor. */
    this.kind = 'lockstep';
    /** Its name among init()'s and runProgram()'s executors. */
    this.name = 'worker';
    this._runtime = runtime;
    this._client = client;
    client.onDeath = (why) => runtime._die(why);
  }

  /** Bytes of array data sent to the worker and brought back from it. */
  get traffic() {
    return this._client.traffic;
  }

  /** Runs `program` in the worker; resolves to its outputs, left there (ResidentArrays). */
  async run(mesh, program, inputs) {
    const specs = program.outSpecs();
    const outs = await this._client.run(program, inputs.map((h) => (h instanceof ResidentArray ? h : this._runtime.hostArray(h))));
    outs.forEach((o, i) => (o.layout = { mesh, spec: specs[i] ?? [] }));
    return outs;
  }

  runSync() {
    throw errorOf('ValueError', "runProgramSync: the lockstep worker cannot be waited for; start the devices with executor: 'here' to step them on this thread");
  }

  /** Brings a resident array's data here (once) and lays it out on its mesh. */
  async ready(array) {
    if (array.local !== null) return;
    // Concurrent reads share one transfer.
    array.bringing ??= this._client.read(array._id(this._client)).then((bits) => {
      if (array.isDeleted()) return; // deleted meanwhile
      const { mesh, spec } = array.layout;
      array.local = this._runtime.put(mesh, hostView(array.dtype(), bits), array.shape(), spec, array.dtype());
    });
    await array.bringing;
  }

  /** Terminates the worker, whatever it runs, and starts a fresh one: its calls reject with `error`. */
  cancel(error) {
    this._client.restart(error);
    // A fresh worker records nothing: armed again, it records the runs that follow.
    if (this._runtime.timelineArmed) this._client.call({ timeline: 'arm' }).catch(() => {});
  }

  /** Arms the worker's timeline after the runs posted before (it handles messages in order). */
  async startTimeline() {
    await this._client.call({ timeline: 'arm' });
  }

  /** The worker's timeline (packed), after the runs posted before. */
  takeTimeline() {
    return this._client.call({ timeline: 'take' });
  }

  startTimelineSync() {
    throw errorOf('ValueError', 'startTimelineSync: the lockstep worker cannot be waited for');
  }

  takeTimelineSync() {
    throw errorOf('ValueError', 'takeTimelineSync: the lockstep worker cannot be waited for');
  }

  /** The worker's debug records, after the runs posted before. */
  takeDebugRecords() {
    return this._client.call({ debug: 'take' });
  }

  takeDebugRecordsSync() {
    throw errorOf('ValueError', 'takeDebugRecordsSync: the lockstep worker cannot be waited for');
  }

  /** At once: runs are the worker's, in the order posted. */
  whenIdle() {
    return Promise.resolve();
  }

  /** Stops the worker: its pending runs reject with `error`. */
  die(error) {
    this._client.terminate(error);
  }
}
