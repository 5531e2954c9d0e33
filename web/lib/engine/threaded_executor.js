// The threaded executor: each program runs as one job on the wasm module's
// persistent device threads (Web Workers in a browser, worker_threads in
// Node; cpp/js/async_runtime.cc). Submitting only enqueues the job; the
// device that ends it posts its completion straight to this thread, so a
// page's main thread never waits.

import { errorOf } from '../errors.js';

/** Programs as jobs on the device threads (the executor interface: see DeviceRuntime). */
export class ThreadedExecutor {
  /** Starts the core's job runtime on `runtime`'s module and watches its device workers. */
  constructor(runtime) {
    const { Module, devices } = runtime;
    /** The name runtimeInfo() and the timeline give this executor. */
    this.kind = 'threaded';
    /** Its name among init()'s and runProgram()'s executors. */
    this.name = 'threads';
    this._runtime = runtime;
    this._Module = Module;
    this._pending = new Map(); // job id -> finish(error): settles the job's Promise
    this._nextId = 1;
    this._inFlight = 0;
    // Jobs submitted to the device pool and not yet completed, at most: the
    // pool's queue less one place for a blocking call (runSync, which
    // submits directly). Later jobs wait here in order, as JAX's async
    // dispatch queues any number of calls.
    this._maxInFlight = Module.maxPendingJobs - 1;
    this._waiting = [];
    this._idleWaiters = []; // resolved once no job is in flight or waiting (whenIdle)
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
      w.onerror = (e) => runtime._die(`a device worker crashed (${e?.message ?? e})`);
      const emscripten = w.onmessage;
      w.onmessage = (e) => (e.data?.shardlabJobDone ? this._settle(...e.data.shardlabJobDone) : emscripten(e));
    }
    /** The core's job runtime (AsyncRuntime), which jobs are submitted to. */
    this.core = new Module.AsyncRuntime(devices);
  }

  /** Runs `program` as one job on the device threads; resolves to its output arrays. */
  async run(mesh, program, inputs) {
    const run = await this.submit((id, ins) => this._Module.submitProgram(this.core, id, mesh, program, ins), inputs);
    const outs = Array.from({ length: run.size() }, (_, i) => run.output(i));
    run.delete();
    return outs;
  }

  /** Runs `program` and waits for it on this thread (Atomics.wait: never a page's main thread). */
  runSync(mesh, program, inputs) {
    const runtime = this._runtime;
    const run = runtime._call(() => this._Module.submitProgram(this.core, this._nextId++, mesh, program, inputs));
    try {
      const heap = new Int32Array(this._Module.HEAPU8.buffer);
      const at = run.statePtr() >> 2;
      // The job's completion message also reaches this thread later; an id nobody waits for is ignored there.
      while (Atomics.load(heap, at) === 0) Atomics.wait(heap, at, 0, 1000);
      if (Atomics.load(heap, at) !== 1) throw errorOf(run.errorKind(), run.errorMessage());
      return Array.from({ length: run.size() }, (_, i) => run.output(i));
    } finally {
      run.delete();
    }
  }

  /**
   * Runs `submit(id, handles)` (a call into the core that submits job `id`
   * and returns its result handle) as a job: now, or once fewer than
   * _maxInFlight jobs are in flight (then on clones of `handles`, the core
   * arrays the job reads, so the caller may delete its own meanwhile).
   * Resolves to the handle once the job has completed.
   */
  submit(submit, handles = []) {
    if (this._runtime.deadReason) return Promise.reject(errorOf('DeviceError', `the device runtime is gone: ${this._runtime.deadReason}`));
    if (this._inFlight < this._maxInFlight && this._waiting.length === 0) return this._submit(submit, handles);
    const held = handles.map((h) => h.clone());
    return new Promise((resolve, reject) => this._waiting.push({ submit, held, resolve, reject }));
  }

  /** Cancels every job running or queued: each rejects with `error`; the devices stop at their next loop iteration (DevicePool::cancel). */
  cancel(error) {
    this._rejectWaiting(error);
    this._runtime._call(() => this.core.cancel());
  }

  /** Arms the core's timeline in a tick that finds no job in flight, so none submitted meanwhile runs during it. */
  async startTimeline() {
    while (!this._idle()) await this.whenIdle();
    this.startTimelineSync();
  }

  /** Takes the core's timeline (packed) once the jobs submitted before have completed. */
  async takeTimeline() {
    while (!this._idle()) await this.whenIdle();
    return this.takeTimelineSync();
  }

  /** startTimeline for a caller whose jobs have all completed. */
  startTimelineSync() {
    this._runtime._call(() => this._Module.armTimeline());
  }

  /** takeTimeline for a caller whose jobs have all completed. */
  takeTimelineSync() {
    return this._runtime._call(() => this._Module.takeTimeline());
  }

  /** The core's debug records: any time (the log is the devices' to share). */
  async takeDebugRecords() {
    return this.takeDebugRecordsSync();
  }

  /** See takeDebugRecords. */
  takeDebugRecordsSync() {
    return this._runtime._call(() => this._Module.takeDebugRecords());
  }

  /** Resolves once no job is in flight or waiting (at once if none is). */
  whenIdle() {
    if (this._idle()) return Promise.resolve();
    return new Promise((resolve) => this._idleWaiters.push(resolve));
  }

  /** Ends every job with `error` and stops the device threads. */
  die(error) {
    for (const finish of this._pending.values()) finish(error);
    this._pending.clear();
    for (const resolve of this._idleWaiters.splice(0)) resolve();
    this._rejectWaiting(error);
    // Not PThread.terminateAllThreads(): it frees each thread's memory
    // before its worker has stopped, and a device still running then reads
    // freed memory and logs a "memory access out of bounds" in the page.
    const { PThread } = this._Module;
    if (PThread) for (const w of [...PThread.runningWorkers, ...PThread.unusedWorkers]) w.terminate();
  }

  _idle() {
    return Boolean(this._runtime.deadReason) || (this._inFlight === 0 && this._waiting.length === 0);
  }

  _rejectWaiting(error) {
    for (const { held, reject } of this._waiting.splice(0)) {
      reject(error);
      try {
        for (const h of held) h.delete();
      } catch {
        // The module may be torn down already.
      }
    }
  }

  // Submits waiting jobs while there is room in the pool.
  _startWaiting() {
    while (this._waiting.length && this._inFlight < this._maxInFlight && !this._runtime.deadReason) {
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
      result = this._runtime._call(() => submit(id, handles));
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

  // A job's completion message: `ok`, or the error's kind and its message's address in the heap (freed here).
  _settle(id, ok, kind, msgPtr) {
    const finish = this._pending.get(id);
    this._pending.delete(id);
    if (finish && --this._inFlight === 0) this._keepAlive?.unref();
    if (ok) {
      finish?.(null);
    } else {
      const message = this._Module.UTF8ToString(msgPtr);
      this._Module._free(msgPtr);
      finish?.(errorOf(kind, message));
    }
    this._startWaiting();
    if (this._idle()) for (const resolve of this._idleWaiters.splice(0)) resolve();
  }
}
