// The host side of debug_callback equations (jax.debug.print and
// jax.debug.callback): each traced call's function, by the number its
// equation names, called with the values each run recorded once the run has
// ended (cpp/runtime/debug_log.h), every device's first call in device
// order, then every second one.

import { putHost } from './array.js';

const callbacks = new Map();
let nextId = 1; // 0 is no function's: a deserialized program's calls name it
let recorded = false; // whether a program here may hold a debug_callback (a run's records then need taking)

/** Registers fn(values, device) for a debug_callback equation; returns the number the equation names. */
export function registerCallback(fn) {
  const id = nextId++;
  callbacks.set(id, fn);
  recorded = true;
  return id;
}

/**
 * Notes that a program made elsewhere (deserialized: the judge's) may hold
 * debug_callback equations: their records are taken after each run, and
 * dropped, as no function here answers their numbers.
 */
export function noteForeignCallbacks() {
  recorded = true;
}

/** Whether runs may have recorded debug calls to take. */
export const mayRecord = () => recorded;

/** Calls each record's function (DeviceRuntime.takeDebugRecords'; a number none here registered is dropped) with its values as concrete arrays. */
export function deliver({ records, dropped }) {
  for (const r of records) {
    const fn = callbacks.get(r.callback);
    if (!fn) continue;
    fn(
      r.values.map((v) => putHost({ data: v.data, shape: v.shape, dtype: v.dtype })),
      r.device,
    );
  }
  if (dropped > 0) console.warn(`jax.debug: ${dropped} debug calls were dropped: their values filled the log (64 MiB) before the run ended`);
}
