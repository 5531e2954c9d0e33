// jax.profiler's start_trace / stop_trace, kept in memory: between the two,
// every device records what it did (each equation and collective it ran,
// and each wait at a barrier for the rest of its group) on one clock, and
// stopTrace returns that timeline instead of writing a trace directory.
// Recording is off otherwise; each recording site then costs one check.

import { ValueError } from '../errors.js';
import { engine } from './state.js';

let recording = false;

/**
 * Starts recording a timeline of what the devices run from now on (after
 * the calls in flight end). Resolves once recording; in a blocking engine
 * (init({blocking: true})) it returns at once, undefined.
 */
export function startTrace() {
  const { runtime, blocking } = engine();
  if (recording) throw new ValueError('profiler.startTrace: a trace is already being recorded; call profiler.stopTrace() first');
  recording = true;
  if (blocking) return runtime.startTimelineSync();
  return runtime.startTimeline().catch((e) => {
    recording = false;
    throw e;
  });
}

/**
 * Stops recording (after the calls in flight end) and returns the timeline:
 * {executor ('threaded' | 'lockstep'), devices, spans}, each span
 * {device, kind ('equation' | 'collective' | 'wait'), depth (0: a top-level
 * equation such as a shard_map's whole body; 1: an equation of the body;
 * deeper: inside a loop), index (its position in its program), name,
 * begin, end (ms from the first span's begin)}, by device then begin, and
 * `dropped`: the spans past the 16384 a device keeps (a long loop's later iterations).
 * A Promise of it, or the timeline itself in a blocking engine.
 */
export function stopTrace() {
  const { runtime, blocking } = engine();
  if (!recording) throw new ValueError('profiler.stopTrace: no trace is being recorded; call profiler.startTrace() first');
  recording = false;
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
