// The host side of debug_callback equations (jax.debug.print and
// jax.debug.callback): each traced call's function, by the number its
// equation names, called with the values each run recorded once the run has
// ended (cpp/runtime/debug_log.h), every device's first call in device
// order, then every second one.

import { putHost } from './array.js';
import { formatText, parseFormat } from './debug_text.js';

// id -> {fn(values as arrays, device)} or {pieces, write(text)} (a print; write null: a foreign program's).
const callbacks = new Map();
let nextId = 1; // 0 is no function's: a deserialized program's jax.debug.callback calls name it
let recorded = false; // whether a program here may hold a debug_callback (a run's records then need taking)
const foreignPrints = new Map(); // a deserialized program's print format -> its id here
const MAX_FOREIGN_PRINTS = 10000; // formats kept at most (a judge serves many checks): past them, prints are dropped
let foreignOutput = null; // where a deserialized program's prints go: (text, device) => void, or nowhere

function register(entry) {
  const id = nextId++;
  callbacks.set(id, entry);
  recorded = true;
  return id;
}

/** Registers fn(values, device) for a debug_callback equation; returns the number the equation names. */
export const registerCallback = (fn) => register({ fn });

/** Registers a print: `pieces` (debug_text.js) filled with each call's values, handed to write(text); returns its number. */
export const registerPrint = (pieces, write) => register({ pieces, write });

/**
 * The number a deserialized program's (the judge's, from a sandbox) print
 * of format `fmt` names here, with `count` operands: its text goes to the
 * foreign output, if one is set (setForeignOutput), or, for a format that
 * does not parse, why. Each format is registered once (10,000 at most; past
 * them 0, a call dropped).
 */
export function foreignPrintId(fmt, count) {
  recorded = true;
  const key = `${count}:${fmt}`;
  if (!foreignPrints.has(key) && foreignPrints.size >= MAX_FOREIGN_PRINTS) return 0;
  if (!foreignPrints.has(key)) {
    let entry;
    try {
      entry = { pieces: parseFormat(fmt, count), write: null };
    } catch (e) {
      entry = { error: e.message, write: null }; // not a format this side fills: each call says why
    }
    foreignPrints.set(key, register(entry));
  }
  return foreignPrints.get(key);
}

/**
 * Notes that a program made elsewhere (deserialized: the judge's) may hold
 * debug_callback equations: their records are taken after each run, and
 * those of jax.debug.callback dropped, as no function here answers them.
 */
export function noteForeignCallbacks() {
  recorded = true;
}

/**
 * Sets where a deserialized program's prints go, output(text, device), until
 * set again (null: dropped); its jax.debug.callback calls, which run no
 * function here, are told as output(null, device). Returns the one set before.
 */
export function setForeignOutput(output) {
  const before = foreignOutput;
  foreignOutput = output;
  return before;
}

/** Whether runs may have recorded debug calls to take. */
export const mayRecord = () => recorded;

/**
 * Answers each record (DeviceRuntime.takeDebugRecords'; a number none here
 * registered is dropped): a callback with its values as concrete arrays, a
 * print with its text (a foreign one's an error's text where its values do not fit its format).
 */
export function deliver({ records, dropped }) {
  for (const r of records) {
    const entry = callbacks.get(r.callback);
    if (entry?.fn) entry.fn(r.values.map((v) => putHost({ data: v.data, shape: v.shape, dtype: v.dtype })), r.device);
    else if (entry?.write) entry.write(formatText(entry.pieces, r.values));
    else if (entry && foreignOutput) foreignOutput(entry.error ? `(${entry.error})` : foreignText(entry.pieces, r.values), r.device);
    else if (r.callback === 0 && foreignOutput) foreignOutput(null, r.device); // a foreign jax.debug.callback's call, not run
  }
  if (dropped > 0) console.warn(`jax.debug: ${dropped} debug calls were dropped: their values filled the log (64 MiB) before the run ended`);
}

// A foreign print's text: its format is untrusted, so what does not fit its values is said, not thrown.
function foreignText(pieces, values) {
  try {
    return formatText(pieces, values);
  } catch (e) {
    return `(jax.debug.print: ${e.message})`;
  }
}
