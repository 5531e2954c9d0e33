// A running device runtime: one wasm module instance, the arrays it holds on
// this thread (meshes, sharded arrays put and read here) and the executor
// that runs programs on its devices; a program may ask for this thread's
// lockstep executor instead (runProgram's `executor: 'here'`). Every executor
// has one interface:
//
//   kind                          'threaded' | 'lockstep' (runtimeInfo, the timeline)
//   name                          'threads' | 'worker' | 'here' (init's and runProgram's)
//   run(mesh, program, inputs)    -> Promise of the outputs (core arrays, or
//                                    ResidentArrays the lockstep worker keeps)
//   runSync(mesh, program, inputs) -> the outputs, where this thread may wait
//   ready(array)                  (the lockstep worker's only) brings a ResidentArray here
//   cancel(error)                 ends every running and queued run with `error`
//   startTimeline(), takeTimeline() (packed), and their Sync forms
//   takeDebugRecords()            -> the debug calls run so far (cpp/js/async_runtime.h), and its Sync form
//   whenIdle()                    resolves once nothing runs or waits
//   die(error)                    ends everything; the runtime is gone
//
// ThreadedExecutor (threaded_executor.js: jobs on the device threads),
// LockstepWorkerExecutor (lockstep_client.js: one worker steps every device)
// and InThreadExecutor (in_thread_executor.js: this thread steps them).

import { errorOf } from '../errors.js';
import { camelCase } from '../names.js';
import { CoreTraces } from './core_traces.js';
import { InThreadExecutor } from './in_thread_executor.js';
import { laneArray } from '../dtypes.js';
import { hostView } from './host_arrays.js';
import { ResidentArray } from './lockstep_client.js';

const SPAN_KINDS = ['equation', 'collective', 'wait']; // cpp/runtime/timeline.h's SpanKind, in order

// The core's debug records (take_debug_records) with each value's data as its dtype's typed array.
function unpackDebug({ records, dropped }) {
  for (const r of records) for (const v of r.values) v.data = hostView(v.dtype, v.bits);
  return { records, dropped };
}

// The core's packed timeline (cpp/js/async_runtime.h's take_timeline) as span objects.
function unpackTimeline({ packed, names, dropped }) {
  const spans = [];
  for (let i = 0; i < packed.length; i += 7) {
    const [device, kind, depth, index, name, begin, end] = packed.subarray(i, i + 7);
    spans.push({ device, kind: SPAN_KINDS[kind], depth, index, name: names[name], begin, end });
  }
  return { spans, dropped };
}

/** A running device runtime (one wasm module instance, its devices and the executor that runs programs on them). */
export class DeviceRuntime {
  /** `makeExecutor(runtime)` makes the executor that runs this runtime's programs. */
  constructor(Module, devices, makeExecutor) {
    this.Module = Module;
    this.devices = devices;
    this._dead = null;
    /** Whether a timeline is being recorded (startTimeline until takeTimeline). */
    this.timelineArmed = false;
    /** The core's program builders (the tracer's way to the module's classes). */
    this.traces = new CoreTraces(Module);
    this._executor = makeExecutor(this);
    /** Whether the devices are threads ('threaded') or stepped by one thread ('lockstep'). */
    this.executor = this._executor.kind;
  }

  /**
   * Runs a traced program (a core Program) on core arrays laid out on
   * `mesh`; resolves to its output arrays (core arrays, or ResidentArrays
   * the lockstep worker keeps until they are read: see ready). `executor`
   * is the runtime's own (the default) or 'here': the lockstep executor on
   * this thread, bitwise the same results, for a program too small to be
   * worth a round trip to the device threads. Runs on the two may overlap:
   * each reads only its inputs, which are computed before it is submitted.
   */
  runProgram(mesh, program, inputs, { executor } = {}) {
    if (this._dead) return Promise.reject(errorOf('DeviceError', `the device runtime is gone: ${this._dead}`));
    try {
      return this._executorNamed(executor).run(mesh, program, inputs);
    } catch (e) {
      return Promise.reject(e);
    }
  }

  /**
   * runProgram for a caller that may block (Node, or a worker; never a
   * page's main thread): returns the program's output arrays once computed.
   * The lockstep worker cannot be waited for.
   */
  runProgramSync(mesh, program, inputs, { executor } = {}) {
    if (this._dead) throw errorOf('DeviceError', `the device runtime is gone: ${this._dead}`);
    return this._executorNamed(executor).runSync(mesh, program, inputs);
  }

  // The executor runProgram's `executor` names: the runtime's own, or this thread's (made on first use).
  _executorNamed(name = this._executor.name) {
    if (name === this._executor.name) return this._executor;
    if (name !== 'here') {
      throw errorOf('ValueError', `runProgram: executor=${JSON.stringify(name)}: this runtime runs programs on '${this._executor.name}', or on 'here' (this thread)`);
    }
    if (this._executor.name === 'worker') {
      throw errorOf('ValueError', "runProgram: executor 'here' needs the arrays on this thread; this runtime's are in the lockstep worker");
    }
    if (typeof window !== 'undefined') {
      throw errorOf('ValueError', "runProgram: executor 'here' steps the devices on the calling thread, which a page's main thread may not block");
    }
    this._here ??= new InThreadExecutor(this);
    return this._here;
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
    if (!this.readable(array)) await this._executor.ready(array);
  }

  /**
   * Memory of the wasm heap: {inUse: bytes malloc'd, heapSize: bytes reserved}.
   * heapSize is the memory's current size, read in the core: this thread's
   * HEAPU8 view is renewed only when Emscripten's JS next touches the heap
   * after a device thread grew the memory.
   */
  memoryStats() {
    return { inUse: this.Module.heapBytesInUse(), heapSize: this.Module.heapBytes() };
  }

  /** The device memory in bytes: the core's limit on what one device holds. */
  deviceMemoryBytes() {
    return this.Module.deviceMemoryBytes();
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
      new (laneArray(dtype))(this.Module.HEAPU8.buffer, ptr, data.length).set(data);
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
      return new (laneArray(dtype))(this.Module.HEAPU8.buffer, ptr, n).slice();
    });
  }

  /** Device d's block of `array`, as a copy. */
  block(array, device) {
    array = this._local(array, 'block');
    return this._call(() => {
      const Type = laneArray(array.dtype());
      return new Type(this.Module.HEAPU8.buffer, array.blockPtr(device), array.blockElements()).slice();
    });
  }

  /** A core array as a host array {dtype, shape, data: its global value} (what the lockstep executors take). */
  hostArray(array) {
    return { dtype: array.dtype(), shape: array.shape(), data: this.get(array, { checkReplicas: false }) };
  }

  /**
   * Runs one jax.lax function on every device's block of `array`, as the
   * body of a shard_map would; resolves to an array laid out by `outSpec`.
   * `desc` is {op, axisName, checkVma, ...} with op the jax.lax name of
   * one of the core registry's parallel functions (laxFunctions(): psum,
   * ppermute, pcast, ...) and its other keys that function's arguments in
   * camelCase (perm, tiled, to, ...), as the registry names them. It is a
   * program like any other: a shard_map whose body is that one function.
   */
  async collective(mesh, array, desc, outSpec) {
    const program = this.collectiveProgram(mesh, array, desc, outSpec);
    try {
      const [out] = await this.runProgram(mesh, program, [array]);
      return out;
    } finally {
      program.delete();
    }
  }

  /** The program collective() runs (a core Program: call .delete() when done). */
  collectiveProgram(mesh, array, desc, outSpec) {
    const { op, checkVma = true, ...options } = desc;
    // The options under the names of the function's arguments in the core's registry (an unknown one is the core's error).
    this._laxFunctions ??= this._call(() => this.traces.laxFunctions());
    const schema = this._laxFunctions.find((f) => f.name === op);
    const nameOf = (key) => schema?.args.find((a) => camelCase(a.name) === key)?.name ?? key;
    const args = Object.fromEntries(Object.entries(options).map(([k, v]) => [nameOf(k), v]));
    const { dtype, shape, spec } = this._describe(array);
    return this._call(() => this.Module.collectiveProgram(mesh, dtype, shape, spec, op, args, outSpec, checkVma));
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
    this._executor.cancel(errorOf('CancelledError', 'the call was cancelled before it finished'));
  }

  /**
   * Starts recording what each device does in the jobs submitted from now on
   * (cpp/runtime/timeline.h); resolves when recording. The core's timeline
   * may only be armed between jobs: each executor arms it where no job
   * submitted before can be running (see theirs). See takeTimeline.
   */
  async startTimeline() {
    this.timelineArmed = true;
    await this._executor.startTimeline();
  }

  /**
   * Stops recording after the jobs submitted before (as startTimeline);
   * resolves to {spans, dropped}: [{device, kind ('equation' | 'collective'
   * | 'wait'), depth, index, name, begin, end}], times in ms on the clock of
   * the thread that ran them, and how many spans were dropped past the cap.
   */
  async takeTimeline() {
    this.timelineArmed = false;
    return unpackTimeline(await this._executor.takeTimeline());
  }

  /** startTimeline for a caller whose jobs have all completed (a blocking engine, where each does before it returns). */
  startTimelineSync() {
    this.timelineArmed = true;
    this._executor.startTimelineSync();
  }

  /** takeTimeline for a caller whose jobs have all completed, as startTimelineSync. */
  takeTimelineSync() {
    this.timelineArmed = false;
    return unpackTimeline(this._executor.takeTimelineSync());
  }

  /**
   * The debug calls (jax.debug.print, jax.debug.callback) the programs run so
   * far have made, taken: {records: [{callback, device (-1: outside a
   * shard_map body), values: [{dtype, shape, data}]}], dropped}, every
   * device's first call in device order, then every second one, ...; calls
   * past the core's cap are counted in `dropped`. Where the lockstep worker
   * runs the programs, after the runs posted before.
   */
  async takeDebugRecords() {
    return unpackDebug(await this._executor.takeDebugRecords());
  }

  /** takeDebugRecords for a caller on whose thread the runs end (not the lockstep worker's). */
  takeDebugRecordsSync() {
    return unpackDebug(this._executor.takeDebugRecordsSync());
  }

  /** Resolves once no job is in flight or waiting (at once if none is). */
  whenIdle() {
    return this._executor.whenIdle();
  }

  /** Stops the device threads (lets Node exit); the runtime is unusable afterwards. */
  terminate() {
    if (!this._dead) this._die('the runtime was terminated');
  }

  // Ends the runtime: every job rejects, the executor stops its threads or worker.
  _die(reason) {
    if (this._dead) return;
    this._dead = reason;
    try {
      this._executor.die(errorOf('DeviceError', `the device runtime is gone: ${reason}; call loadDevices() for a fresh one`));
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
