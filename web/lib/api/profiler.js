// jax.profiler's start_trace / stop_trace, kept in memory: between the two,
// every device records what it did (each equation and collective it ran,
// and each wait at a barrier for the rest of its group) on one clock, and
// stopTrace returns that timeline instead of writing a trace directory.
// Recording is off otherwise; each recording site then costs one check.

import { ValueError } from '../errors.js';
import { engine } from './core/state.js';

/** Whether a trace is being recorded (between startTrace and stopTrace). */
export function tracing() {
  return engine().runtime.timelineArmed;
}

/**
 * Starts recording a timeline of what the devices run from now on (after
 * the calls in flight end). Resolves once recording; in a blocking engine
 * (init({blocking: true})) it returns at once, undefined.
 */
export function startTrace() {
  const { runtime, blocking } = engine();
  if (runtime.timelineArmed) throw new ValueError('profiler.startTrace: a trace is already being recorded; call profiler.stopTrace() first');
  return blocking ? runtime.startTimelineSync() : runtime.startTimeline();
}

/**
 * Stops recording (after the calls in flight end) and returns the timeline:
 * {executor ('threaded' | 'lockstep'), devices, spans}, each span
 * {device, kind ('equation' | 'collective' | 'wait'), depth (how many of the
 * device's spans hold it: 0 a top-level equation such as a shard_map's
 * whole body, 1 an equation of the body, more inside a loop or a
 * collective), index (its position in its lowered program), name,
 * begin, end (ms from the first span's begin)}, by device then begin, and
 * `dropped`: the spans not recorded past the cap a device keeps (a long loop's later iterations).
 * A Promise of it, or the timeline itself in a blocking engine.
 */
export function stopTrace() {
  const { runtime, blocking } = engine();
  if (!runtime.timelineArmed) throw new ValueError('profiler.stopTrace: no trace is being recorded; call profiler.startTrace() first');
  const timeline = ({ spans, dropped }) => {
    const t0 = spans.reduce((m, s) => Math.min(m, s.begin), Infinity);
    const at = (s) => ({ ...s, begin: s.begin - t0, end: s.end - t0 });
    return {
      executor: runtime.executor,
      devices: runtime.devices,
      spans: spans.map(at).sort((a, b) => a.device - b.device || a.begin - b.begin || a.depth - b.depth),
      dropped,
    };
  };
  return blocking ? timeline(runtime.takeTimelineSync()) : runtime.takeTimeline().then(timeline);
}

/**
 * Each span's own time in a timeline's `spans` (as stopTrace orders them):
 * its length less that of the spans it directly holds (a collective less
 * its waits, a loop less its equations, a body less all of them), so that
 * summing own times counts each moment of a device once. An array parallel
 * to `spans`, in ms.
 */
export function ownTimes(spans) {
  const own = spans.map((s) => s.end - s.begin);
  const open = []; // open[depth]: the index of the device's latest span at that depth
  spans.forEach((s, i) => {
    if (i > 0 && spans[i - 1].device !== s.device) open.length = 0;
    const parent = s.depth > 0 ? open[s.depth - 1] : undefined;
    if (parent !== undefined) own[parent] -= s.end - s.begin;
    open[s.depth] = i;
    open.length = s.depth + 1;
  });
  return own;
}
