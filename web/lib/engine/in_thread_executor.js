// The lockstep executor on the calling thread: one thread steps every device
// through each equation (exec/lockstep_shard_map.h), in this thread's own module
// without threads. For code already in a worker (the checker's sandbox, the
// playground), since each run blocks its thread until done.

import { hostView } from './host_arrays.js';

/** Programs stepped here, on host arrays (the executor interface: see DeviceRuntime). */
export class InThreadExecutor {
  constructor(runtime) {
    /** The name runtimeInfo() and the timeline give this executor. */
    this.kind = 'lockstep';
    /** Its name among init()'s and runProgram()'s executors. */
    this.name = 'here';
    this._runtime = runtime;
  }

  /** run is runSync: the devices are stepped on this thread. */
  async run(mesh, program, inputs) {
    return this.runSync(mesh, program, inputs);
  }

  /** Steps every device through `program` here; returns its outputs laid out on `mesh`. */
  runSync(mesh, program, inputs) {
    const runtime = this._runtime;
    const specs = program.outSpecs();
    const outs = runtime._call(() => runtime.Module.interpretProgram(program, inputs.map((h) => runtime.hostArray(h))));
    return outs.map((o, i) => runtime.put(mesh, hostView(o.dtype, o.data), o.shape, specs[i] ?? [], o.dtype));
  }

  /** Nothing to cancel: a run blocks this thread until it is done, so none is running between calls. */
  cancel() {}

  /** Arms the module's timeline (no run is under way between calls). */
  async startTimeline() {
    this.startTimelineSync();
  }

  /** The module's timeline (packed). */
  async takeTimeline() {
    return this.takeTimelineSync();
  }

  /** See startTimeline. */
  startTimelineSync() {
    this._runtime._call(() => this._runtime.Module.armTimeline());
  }

  /** See takeTimeline. */
  takeTimelineSync() {
    return this._runtime._call(() => this._runtime.Module.takeTimeline());
  }

  /** The module's debug records. */
  async takeDebugRecords() {
    return this.takeDebugRecordsSync();
  }

  /** See takeDebugRecords. */
  takeDebugRecordsSync() {
    return this._runtime._call(() => this._runtime.Module.takeDebugRecords());
  }

  /** At once: every run has ended when its call returned. */
  whenIdle() {
    return Promise.resolve();
  }

  /** Nothing runs apart from this thread. */
  die() {}
}
