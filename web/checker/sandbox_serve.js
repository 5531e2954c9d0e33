// The sandbox's side of the protocol (protocol.js), where the learner's code
// runs: it only traces. For each signature it asks for, the judge gets the
// jax.export text of the solution traced at those shapes and dtypes; no
// input value, expected value, reference or requirement ever comes here.

import * as sl from '../lib/index.js';
import { MAX_ERROR_CHARS, MAX_ERROR_NAME, MAX_TRACED_CHARS, PROTOCOL_VERSION } from './protocol.js';
import { Sandbox } from './sandbox.js';


// An error as the protocol carries it.
function errorOf(e) {
  const name = typeof e?.name === 'string' ? e.name.slice(0, MAX_ERROR_NAME) : 'Error';
  return { name, message: String(e?.message ?? e).slice(0, MAX_ERROR_CHARS) };
}

/** The exported program of `solution` at one signature ([{name, dtype, shape}]), or why it failed. */
export async function traceAt(solution, signature) {
  try {
    const args = signature.map((a) => new sl.ShapeDtypeStruct(a.shape, a.dtype));
    const exported = sl.export.export(solution)(...args);
    try {
      return { exported: await exported.serialize() };
    } finally {
      exported.dispose();
    }
  } catch (e) {
    return { error: errorOf(e) };
  }
}

// A result in place of a program past the judge's budget (short: room for one per signature is kept).
const OVER_BUDGET = {
  error: { name: 'ResourceError', message: `the programs traced for the earlier argument signatures already fill the ${MAX_TRACED_CHARS >> 20} MiB of program text the judge takes in one check` },
};

/** traceAt for each of `signatures`, within MAX_TRACED_CHARS all together. */
export async function traceAll(solution, signatures) {
  let left = MAX_TRACED_CHARS - signatures.length * OVER_BUDGET.error.message.length;
  const results = [];
  for (const s of signatures) {
    const r = await traceAt(solution, s);
    const size = r.exported?.length ?? r.error.message.length;
    results.push(size <= left ? r : OVER_BUDGET);
    if (size <= left) left -= size;
  }
  return results;
}

/**
 * Serves the judge over `post` (sends one message) and `onMessage` (registers
 * the receiver): starts the runtime (and `prepare()`, e.g. Python's, if
 * given), says started, loads the solution with `load()` (resolving to the
 * function, or rejecting with why it cannot), says ready or loadError, then
 * answers trace requests one at a time. Eager operations of the solution (on
 * constants) run on the lockstep executor in this same thread, blocking, as
 * a synchronous front end (Python) needs; `sources` is the module handed
 * over where the sandbox may not fetch it (the page). With `shareRuntime`
 * the sandbox uses the runtime its realm already runs (the in-process
 * sandbox: never blocking, so it also works on a page's main thread).
 */
export async function serveSandbox({ post, onMessage, load, prepare, sources, shareRuntime = false }) {
  const send = (m) => post({ v: PROTOCOL_VERSION, ...m });
  let solution;
  try {
    await (shareRuntime ? sl.init() : sl.init({ executor: 'lockstep', sources, blocking: true }));
    await prepare?.();
    send({ type: 'started' });
    solution = await load();
  } catch (e) {
    send({ type: 'loadError', message: String(e?.message ?? e).slice(0, MAX_ERROR_CHARS) });
    return;
  }
  onMessage(async (m) => {
    if (m?.type !== 'trace' || !Array.isArray(m.signatures)) return;
    send({ type: 'traced', id: m.id, results: await traceAll(solution, m.signatures) });
  });
  send({ type: 'ready' });
}

/**
 * A Sandbox over the function `solution` in this same thread, for trusted
 * code (tests, the reference solutions): the same messages, copied as a
 * channel would, with the same checks on the judge's side.
 */
export function inProcessSandbox(solution) {
  let deliver = null;
  const sandbox = new Sandbox({
    post: (m) => setTimeout(() => deliver?.(structuredClone(m))),
    kill: () => {
      deliver = null;
    },
  });
  serveSandbox({
    post: (m) => setTimeout(() => sandbox.receive(structuredClone(m))),
    onMessage: (f) => {
      deliver = f;
    },
    load: async () => solution,
    shareRuntime: true,
  });
  return sandbox;
}
