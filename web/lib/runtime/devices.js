// The device runtime from JavaScript: the 8 device threads of the wasm module
// (Web Workers in a browser, worker_threads in Node), meshes, sharded arrays
// and collectives. Every job returns a Promise: the calling thread only
// enqueues work and is called back, so a page's main thread never blocks.

import { errorOf } from '../errors.js';
import { camelCase } from '../names.js';
import { instantiateModule } from './load_module.js';
import { ResidentArray, startLockstepWorker } from './lockstep_client.js';

/** The base class of the runtime's errors (ShardLabError); `name` is the category. */
export { ShardLabError as RuntimeError } from '../errors.js';

const DTYPES = { float32: Float32Array, int32: Int32Array, uint32: Uint32Array, bool: Int32Array };
// A dtype's typed array over the bits of a host array (a Uint32Array).
const hostView = (dtype, bits) => new DTYPES[dtype](bits.buffer, bits.byteOffset, bits.length);

/**
 * Starts a device runtime: loads the wasm module and starts `devices`
 * persistent device threads (1 to 8; default 8). `memoryMB` sets the wasm
 * heap size (default: the size the module was built with). With
 * `threads: false` (where SharedArrayBuffer is missing) it loads the module
 * without threads instead, and programs run on one worker with the lockstep
 * executor (bitwise the same results).
 * `inThread: true` (with threads: false) steps the devices on this thread
 * instead of a worker of its own: for code already in a worker, since each
 * run blocks its thread. `sources` (load_module.js moduleSources) is the
 * module handed over, for a worker that may not fetch it. `testHooks` loads
 * the test build of the module (Node only), whose jobs can fail on purpose (fault).
 */
export async function loadDevices({ devices = 8, memoryMB, threads = true, inThread = false, sources, testHooks = false } = {}) {
  if (![1, 2, 4, 8].includes(devices)) {
    throw errorOf('ValueError', `loadDevices: devices=${devices} is not supported; use 1, 2, 4 or 8`);
  }
  if (inThread && (threads || typeof window !== 'undefined')) {
    throw errorOf('ValueError', 'loadDevices: inThread runs the devices on the calling thread; it needs threads: false, in a worker or Node, never on a page\'s main thread');
  }
  let runtime = null;
  const overrides = {
    onAbort: (what) => runtime?._die(`the wasm runtime aborted (${what})`),
    print: (s) => console.log(s),
    printErr: (s) => console.error(s),
  };
  if (memoryMB !== undefined) overrides.INITIAL_MEMORY = memoryMB * 1024 * 1024;
  const [Module, worker] = await Promise.all([
    instantiateModule(overrides, { threads, sources, testHooks }),
    threads ? null : inThread ? IN_THREAD : startLockstepWorker({ memoryMB }),
  ]);
  runtime = new DeviceRuntime(Module, devices, worker);
  return runtime;
}

// The lockstep executor on the calling thread, in the runtime's own module.
const IN_THREAD = 'in-thread';

const SPAN_KINDS = ['equation', 'collective', 'wait']; // cpp/runtime/timeline.h's SpanKind, in order

// The core's packed timeline (cpp/js/async_runtime.h's take_timeline) as span objects.
function unpackTimeline({ packed, names, dropped }) {
  const spans = [];
  for (let i = 0; i < packed.length; i += 7) {
    const [device, kind, depth, index, name, begin, end] = packed.subarray(i, i + 7);
    spans.push({ device, kind: SPAN_KINDS[kind], depth, index, name: names[name], begin, end });
  }
  return { spans, dropped };
}

/** A running device runtime (one wasm module instance and its device threads). */
export class DeviceRuntime {
  /** `lockstepWorker`: null (threaded), a LockstepClient, or IN_THREAD. */
  constructor(Module, devices, lockstepWorker = null) {
    this.Module = Module;
    this._pending = new Map(); // job id -> finish(error): settles the job's Promise
    this._nextId = 1;
    this._dead = null;
    this._inFlight = 0;
    // Jobs submitted to the device pool and not yet completed, at most: the
    // pool's queue less one place for a blocking call (runProgramSync, which
    // submits directly). Later jobs wait here in order, as JAX's async
    // dispatch queues any number of calls.
    this._maxInFlight = Module.maxPendingJobs - 1;
    this._waiting = [];
    this._idleWaiters = []; // resolved once no job is in flight or waiting (whenIdle)
    /** Whether a timeline is being recorded (startTimeline until takeTimeline). */
    this.timelineArmed = false;
    this.devices = devices;
    /** Whether the devices are threads ('threaded') or stepped by one worker ('lockstep'). */
    this.executor = lockstepWorker ? 'lockstep' : 'threaded';
    this._worker = lockstepWorker;
    this._inThread = lockstepWorker === IN_THREAD;
    if (this._inThread) this._worker = { run: async (program, inputs) => this._interpret(program, inputs), terminate() {} };
    if (lockstepWorker) {
      this._worker.onDeath = (why) => this._die(why);
      this._core = null;
      return;
    }
    // A trap on a device kills its worker; Emscripten's default handler would
    // rethrow on this thread (and crash Node). Reject the pending jobs instead.
    // A job's end comes as a message from the worker of the device that ended
    // it (cpp/js/async_runtime.cc); the rest are Emscripten's.
    const workers = [...Module.PThread.unusedWorkers, ...Module.PThread.runningWorkers];
    // In Node the device threads do not keep the process alive by
    // themselves: one worker is ref'd while a job is in flight, so a script
    // exits once its work is done (browsers have no such notion).
    this._keepAlive = typeof workers[0]?.unref === 'function' ? workers[0] : null;
    for (const w of workers) w.unref?.();
    for (const w of workers) {
      w.onerror = (e) => this._die(`a device worker crashed (${e?.message ?? e})`);
      const emscripten = w.onmessage;
      w.onmessage = (e) => (e.data?.shardlabJobDone ? this._settle(...e.data.shardlabJobDone) : emscripten(e));
    }
    this._core = new Module.AsyncRuntime(devices);
  }

  /**
   * Runs a traced program (a core Program) on core arrays laid out on `mesh`;
   * resolves to its output arrays. Threaded: one job on the device threads.
   * Lockstep on a worker: the worker steps every device through the program
   * and keeps its outputs (ResidentArrays, laid out here when read: see
   * ready); in-thread: the same here, outputs laid out at once. `reps` runs
   * it that many times (benchmarks time many collectives in one job); the
   * outputs are the last run's.
   */
  async runProgram(mesh, program, inputs, { reps = 1 } = {}) {
    if (!Number.isSafeInteger(reps) || reps < 1) {
      throw errorOf('ValueError', `runProgram: reps=${reps} must be an integer >= 1`);
    }
    if (this._worker) {
      const specs = program.outSpecs();
      const ins = inputs.map((h) =>
        h instanceof ResidentArray ? h : { dtype: h.dtype(), shape: h.shape(), data: this.get(h, { checkReplicas: false }) },
      );
      let outs = await this._worker.run(program, ins);
      for (let r = 1; r < reps; r++) {
        for (const o of outs) o.delete?.();
        outs = await this._worker.run(program, ins);
      }
      return outs.map((o, i) => {
        if (o instanceof ResidentArray) {
          o.layout = { mesh, spec: specs[i] ?? [] };
          return o;
        }
        return this.put(mesh, hostView(o.dtype, o.data), o.shape, specs[i] ?? [], o.dtype);
      });
    }
    const run = await this._job((id, ins) => this.Module.submitProgram(this._core, id, mesh, program, ins, reps), inputs);
    const outs = Array.from({ length: run.size() }, (_, i) => run.output(i));
    run.delete();
    return outs;
  }

  /**
   * runProgram for a caller that may block (Node, or a worker; never a
   * page's main thread): runs the program and returns its output arrays
   * once computed. Threaded, this thread waits for the job (Atomics.wait);
   * in-thread lockstep, it computes them itself. The lockstep worker cannot
   * be waited for.
   */
  runProgramSync(mesh, program, inputs) {
    if (this._inThread) {
      const ins = inputs.map((h) => ({ dtype: h.dtype(), shape: h.shape(), data: this.get(h, { checkReplicas: false }) }));
      const specs = program.outSpecs();
      return this._interpret(program, ins).map((o, i) =>
        this.put(mesh, hostView(o.dtype, o.data), o.shape, specs[i] ?? [], o.dtype),
      );
    }
    if (this._worker) throw errorOf('ValueError', 'runProgramSync: the lockstep worker cannot be waited for; load the devices with inThread: true');
    if (this._dead) throw errorOf('DeviceError', `the device runtime is gone: ${this._dead}`);
    const run = this._call(() => this.Module.submitProgram(this._core, this._nextId++, mesh, program, inputs, 1));
    try {
      const heap = new Int32Array(this.Module.HEAPU8.buffer);
      const at = run.statePtr() >> 2;
      // The job's completion message also reaches this thread later; an id nobody waits for is ignored there.
      while (Atomics.load(heap, at) === 0) Atomics.wait(heap, at, 0, 1000);
      if (Atomics.load(heap, at) !== 1) throw errorOf(run.errorKind(), run.errorMessage());
      return Array.from({ length: run.size() }, (_, i) => run.output(i));
    } finally {
      run.delete();
    }
  }

  /** Whether `array`'s data can be read on this thread now (see ready). */
  readable(array) {
    return !(array instanceof ResidentArray) || array.local !== null;
  }

  /**
   * Resolves once `array`'s data can be read on this thread (get, block): at
   * once, except for an output still in the lockstep worker, which is
   * brought here (once) and laid out on its mesh.
   */
  async ready(array) {
    if (this.readable(array)) return;
    // Concurrent reads share one transfer.
    array.bringing ??= this._worker.read(array._id(this._worker)).then((bits) => {
      if (array.isDeleted()) return; // deleted meanwhile
      const { mesh, spec } = array.layout;
      array.local = this.put(mesh, hostView(array.dtype(), bits), array.shape(), spec, array.dtype());
    });
    await array.bringing;
  }

  /** Why the runtime died, or null while it is usable. */
  get deadReason() {
    return this._dead;
  }

  /** A mesh of the given axis sizes and names, e.g. mesh([2, 4], ['data', 'model']). Call .delete() when done. */
  mesh(shape, names) {
    return this._call(() => new this.Module.DeviceMesh(shape, names));
  }

  /**
   * Puts a host array (Float32Array or Int32Array, row-major, of the given
   * global shape) on the devices of `mesh`, split by `spec` (an array of
   * null | axis | [axes] per dimension). `dtype` defaults to the array's
   * ('bool' stores 0/1 in an Int32Array). Returns a ShardedArray handle; call .delete() when done.
   */
  put(mesh, data, shape, spec, dtype = data instanceof Int32Array ? 'int32' : data instanceof Uint32Array ? 'uint32' : 'float32') {
    if (!(data instanceof Int32Array || data instanceof Float32Array || data instanceof Uint32Array)) {
      throw errorOf('ValueError', 'put: data must be a Float32Array, an Int32Array or a Uint32Array');
    }
    const expected = shape.reduce((a, b) => a * b, 1);
    if (data.length !== expected) {
      throw errorOf('ShapeError', `put: data has ${data.length} elements but shape [${shape}] needs ${expected}`);
    }
    return this._withHeap(data.byteLength, (ptr) => {
      new DTYPES[dtype](this.Module.HEAPU8.buffer, ptr, data.length).set(data);
      return this.Module.ShardedArray.put(mesh, dtype, shape, spec, ptr);
    });
  }

  /** Assembles a sharded array into a new typed array; checkReplicas (default true) verifies replicated blocks agree. */
  get(array, { checkReplicas = true } = {}) {
    array = this._local(array, 'get');
    const dtype = this._call(() => array.dtype());
    const n = array.shape().reduce((a, b) => a * b, 1);
    return this._withHeap(n * 4, (ptr) => {
      array.get(ptr, checkReplicas);
      return new DTYPES[dtype](this.Module.HEAPU8.buffer, ptr, n).slice();
    });
  }

  /** Device d's block of `array`, as a copy. */
  block(array, device) {
    array = this._local(array, 'block');
    return this._call(() => {
      const Type = DTYPES[array.dtype()];
      return new Type(this.Module.HEAPU8.buffer, array.blockPtr(device), array.blockElements()).slice();
    });
  }

  /**
   * Runs one jax.lax function on every device's block of `array`, `reps`
   * times, as the body of a shard_map would; resolves to an array laid out
   * by `outSpec`. `desc` is {op, axisName, checkVma, ...} with op one of
   * jax.lax's names (psum, pmean, pmax, pmin, all_gather, psum_scatter,
   * ppermute, all_to_all, axis_index, pcast) and its other keys jax.lax's
   * keyword arguments in camelCase (axis, scatterDimension, tiled, perm,
   * splitAxis, concatAxis, to). It is a program like any other: a shard_map
   * whose body is that one function, run on the program path.
   */
  async collective(mesh, array, desc, outSpec, { reps = 1 } = {}) {
    const { op, checkVma = true, ...options } = desc;
    // The options under the names of the function's arguments in the core's registry (an unknown one is the core's error).
    this._laxFunctions ??= this._call(() => this.Module.laxFunctions());
    const schema = this._laxFunctions.find((f) => f.name === op);
    const nameOf = (key) => schema?.args.find((a) => camelCase(a.name) === key)?.name ?? key;
    const args = Object.fromEntries(Object.entries(options).map(([k, v]) => [nameOf(k), v]));
    const { dtype, shape, spec } = this._describe(array);
    const program = this._call(() => this.Module.collectiveProgram(mesh, dtype, shape, spec, op, args, outSpec, checkVma));
    try {
      const [out] = await this.runProgram(mesh, program, [array], { reps });
      return out;
    } finally {
      program.delete();
    }
  }

  /**
   * Test aid (the test build only: loadDevices({testHooks: true})): a job in
   * which device `device` fails between two psums; mode 'throw' (an error),
   * 'trap' or 'abort' (both kill its worker).
   */
  fault(mesh, device, { mode = 'throw' } = {}) {
    if (!this.Module.submitFault) {
      return Promise.reject(errorOf('ValueError', 'fault: needs the test build of the module (loadDevices({ testHooks: true }))'));
    }
    return this._job((id) => {
      this.Module.submitFault(this._core, id, mesh, device, mode);
      return undefined;
    });
  }

  /**
   * Cancels every job running or queued (state.js cancel): each rejects with
   * a CancelledError; later jobs run as usual. Threaded, the devices stop at
   * their next loop iteration (DevicePool::cancel); the lockstep worker is
   * terminated and a fresh one started. In-thread lockstep runs block their
   * thread until done, so there is nothing to cancel between them.
   */
  cancel() {
    if (this._dead) return;
    const error = errorOf('CancelledError', 'the call was cancelled before it finished');
    for (const { held, reject } of this._waiting.splice(0)) {
      reject(error);
      for (const h of held) h.delete();
    }
    if (this._inThread) return;
    if (this._worker) {
      this._worker.restart(error);
      // A fresh worker records nothing: armed again, it records the runs that follow.
      if (this.timelineArmed) this._worker.call({ timeline: 'arm' }).catch(() => {});
    } else {
      this._call(() => this._core.cancel());
    }
  }

  /**
   * Starts recording what each device does in the jobs submitted from now on
   * (cpp/runtime/timeline.h); resolves when recording. The core's timeline
   * may only be armed between jobs: threaded, it is armed in the same tick
   * that finds no job in flight, so none submitted meanwhile can run during
   * it; the lockstep worker handles messages in order, after the runs posted
   * before. See takeTimeline.
   */
  async startTimeline() {
    this.timelineArmed = true;
    if (this._worker && !this._inThread) return void (await this._worker.call({ timeline: 'arm' }));
    while (!this._idle()) await this.whenIdle();
    this.startTimelineSync();
  }

  /**
   * Stops recording after the jobs submitted before (as startTimeline);
   * resolves to {spans, dropped}: [{device, kind ('equation' | 'collective'
   * | 'wait'), depth, index, name, begin, end}], times in ms on the clock of
   * the thread that ran them, and how many spans were dropped past the cap.
   */
  async takeTimeline() {
    this.timelineArmed = false;
    if (this._worker && !this._inThread) return unpackTimeline(await this._worker.call({ timeline: 'take' }));
    while (!this._idle()) await this.whenIdle();
    return this.takeTimelineSync();
  }

  /** startTimeline for a caller whose jobs have all completed (a blocking engine, where each does before it returns). */
  startTimelineSync() {
    this.timelineArmed = true;
    this._call(() => this.Module.armTimeline());
  }

  /** takeTimeline for a caller whose jobs have all completed, as startTimelineSync. */
  takeTimelineSync() {
    this.timelineArmed = false;
    return unpackTimeline(this._call(() => this.Module.takeTimeline()));
  }

  /** Resolves once no job is in flight or waiting (at once if none is). */
  whenIdle() {
    if (this._idle()) return Promise.resolve();
    return new Promise((resolve) => this._idleWaiters.push(resolve));
  }

  _idle() {
    return this._dead || (this._inFlight === 0 && this._waiting.length === 0);
  }

  /** Stops the device threads (lets Node exit); the runtime is unusable afterwards. */
  terminate() {
    if (!this._dead) this._die('the runtime was terminated');
  }

  // Runs submit(id, handles) as a job: now, or once fewer than _maxInFlight
  // jobs are in flight (then on clones of `handles`, the core arrays the job
  // reads, so the caller may delete its own meanwhile).
  _job(submit, handles = []) {
    if (this._dead) return Promise.reject(errorOf('DeviceError', `the device runtime is gone: ${this._dead}`));
    if (this._inFlight < this._maxInFlight && this._waiting.length === 0) return this._submit(submit, handles);
    const held = handles.map((h) => h.clone());
    return new Promise((resolve, reject) => this._waiting.push({ submit, held, resolve, reject }));
  }

  // Submits waiting jobs while there is room in the pool.
  _startWaiting() {
    while (this._waiting.length && this._inFlight < this._maxInFlight && !this._dead) {
      const { submit, held, resolve, reject } = this._waiting.shift();
      this._submit(submit, held).then(resolve, reject);
      for (const h of held) h.delete(); // a submitted job holds its own references
    }
  }

  // Submits now. A job's end arrives as a message task (see the constructor),
  // never while this call is still running, so it is registered after.
  _submit(submit, handles) {
    const id = this._nextId++;
    let result;
    try {
      result = this._call(() => submit(id, handles));
    } catch (e) {
      return Promise.reject(e);
    }
    if (this._inFlight++ === 0) this._keepAlive?.ref();
    return new Promise((resolve, reject) => {
      this._pending.set(id, (error) => {
        if (!error) return resolve(result);
        result?.delete?.();
        reject(error);
      });
    });
  }

  _settle(id, ok, kind, msgPtr) {
    const finish = this._pending.get(id);
    this._pending.delete(id);
    if (finish && --this._inFlight === 0) this._keepAlive?.unref();
    if (ok) {
      finish?.(null);
    } else {
      const message = this.Module.UTF8ToString(msgPtr);
      this.Module._free(msgPtr);
      finish?.(errorOf(kind, message));
    }
    this._startWaiting();
    if (this._idle()) for (const resolve of this._idleWaiters.splice(0)) resolve();
  }

  _die(reason) {
    if (this._dead) return;
    this._dead = reason;
    const error = errorOf('DeviceError', `the device runtime is gone: ${reason}; call loadDevices() for a fresh one`);
    for (const finish of this._pending.values()) finish(error);
    this._pending.clear();
    for (const resolve of this._idleWaiters.splice(0)) resolve();
    for (const { held, reject } of this._waiting.splice(0)) {
      reject(error);
      try {
        for (const h of held) h.delete();
      } catch {
        // The module may be torn down already.
      }
    }
    try {
      this._worker?.terminate();
      // Not PThread.terminateAllThreads(): it frees each thread's memory
      // before its worker has stopped, and a device still running then reads
      // freed memory and logs a "memory access out of bounds" in the page.
      const { PThread } = this.Module;
      if (PThread) for (const w of [...PThread.runningWorkers, ...PThread.unusedWorkers]) w.terminate();
    } catch {
      // The module may be half torn down already.
    }
  }

  // Runs a call into wasm; C++ errors arrive as JS Errors named by category.
  _call(f) {
    if (this._dead) throw errorOf('DeviceError', `the device runtime is gone: ${this._dead}`);
    try {
      return f();
    } catch (e) {
      if (e instanceof WebAssembly.RuntimeError) {
        this._die(`a wasm trap on the calling thread (${e.message})`);
        throw errorOf('DeviceError', `the device runtime is gone: ${this._dead}`);
      }
      if (e instanceof Error && e.constructor === Error && e.name.endsWith('Error')) {
        throw errorOf(e.name, e.message);
      }
      throw e;
    }
  }

  // Runs `program` with the lockstep executor on this thread (host arrays in and out).
  _interpret(program, inputs) {
    return this._call(() => this.Module.interpretProgram(program, inputs));
  }

  // The dtype, shape and spec of a core array or a ResidentArray.
  _describe(array) {
    if (array instanceof ResidentArray) return { dtype: array.dtype(), shape: array.shape(), spec: array.layout?.spec ?? [] };
    return this._call(() => ({ dtype: array.dtype(), shape: array.shape(), spec: array.specEntries() }));
  }

  // The core array of `array` on this thread (a ResidentArray's local copy).
  _local(array, fn) {
    if (!(array instanceof ResidentArray)) return array;
    if (!this.readable(array)) throw errorOf('ValueError', `${fn}: the array is still in the lockstep worker; await runtime.ready(array) first`);
    return array.local;
  }

  _withHeap(bytes, f) {
    const n = Math.max(bytes, 4);
    let ptr = this.Module._malloc(n);
    // Freed large blocks stay in their spans for reuse (runtime/large_blocks.h);
    // memory this needs may be there.
    if (!ptr && this.Module.releaseFreeSpans()) ptr = this.Module._malloc(n);
    if (!ptr) throw errorOf('ResourceError', `cannot allocate ${bytes} bytes of wasm memory`);
    try {
      return this._call(() => f(ptr));
    } finally {
      this.Module._free(ptr);
    }
  }
}
