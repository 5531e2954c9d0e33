// The page's side of its sandbox workers (sandbox_worker.js): a Sandbox
// (web/checker/sandbox.js) for each check, over a module worker of its own
// holding the learner's code. A worker's end is seen through what no other
// context can touch: a crash is the worker's error event, its own
// self.close() says so first (seal_worker.js), and anything else (a hang,
// a worker gone silent) meets the check's time limit. The workers' policy
// allows them no connections (headers.js), so the page hands them what they
// run: the module, fetched and compiled once here, and for Python Pyodide's
// files (pyodide_sources.js).
//
// JavaScript: a fresh worker per check. Python: a fresh interpreter per
// check too (nothing one solution sets reaches the next), started before it
// is needed: one spare worker starts Python as soon as a problem opens in
// Python, and again after each check, so a later Run is fast once it is ready.

import { moduleSources } from 'shardlab';
import { Sandbox } from '../checker/sandbox.js';
import { pythonSourcesWithStatus } from './pyodide_sources.js';

let sources = null;
const shardlabSources = () => (sources ??= moduleSources().catch((e) => ((sources = null), Promise.reject(e))));

// Whether `m` is the worker's word that it is closing (seal_worker.js): exactly {closing: true}.
const isClosing = (m) => m !== null && typeof m === 'object' && m.closing === true && Object.keys(m).length === 1;

// A sandbox worker: posts {init} once the module and `init` arrive (`posted`
// resolves then); `onEnd(how)` when it goes; `onData(m)` gets every other message.
function startWorker(init, onEnd, onData) {
  const worker = new Worker(new URL('./sandbox_worker.js', import.meta.url), { type: 'module' });
  worker.onerror = (e) => {
    e.preventDefault();
    onEnd(`it crashed: ${e.message}`);
  };
  worker.onmessage = (e) => (isClosing(e.data) ? onEnd('it closed') : onData(e.data));
  worker.onmessageerror = () => onData(undefined);
  const posted = Promise.all([shardlabSources(), init]).then(
    ([module, rest]) => worker.postMessage({ init: { sources: module, ...rest } }),
    (e) => onEnd(`it could not be given what it runs: ${e.message}`),
  );
  return { worker, posted };
}

// A Sandbox over `worker` (startWorker's), ended (terminated) when the check ends; `gone(how)` reports its end.
function sandboxOver(worker, onTerminate = () => {}) {
  let ended = false;
  const sandbox = new Sandbox({
    post: (m) => worker.postMessage(m),
    kill: () => {
      if (ended) return;
      ended = true;
      worker.terminate();
      onTerminate();
    },
  });
  const gone = (how) => {
    if (ended) return;
    ended = true;
    sandbox.exited(how);
    onTerminate();
  };
  return { sandbox, gone };
}

/** A Sandbox running `code` (a JS module whose default export is the solution) in a fresh worker. */
export function startPageSandbox(code) {
  let box = null;
  const early = [];
  const { worker } = startWorker(
    Promise.resolve({ code }),
    (how) => box?.gone(how),
    (m) => (box ? box.sandbox.receive(m) : early.push(m)),
  );
  box = sandboxOver(worker);
  for (const m of early) box.sandbox.receive(m);
  return box.sandbox;
}

/**
 * The page's Python sandboxes: each check gets a worker whose Python has
 * run nothing else. `onStatus({stage, fraction})` follows the start of the
 * next one: 'Loading Python…' while Pyodide's files download, 'Starting
 * Python…' while it starts, 'Python ready', or 'Python failed: …'.
 */
export class PythonSandboxes {
  constructor(onStatus = () => {}) {
    this._onStatus = onStatus;
    this._spare = null;
  }

  /** Starts the spare worker now (a problem opened in Python), unless one is starting or ready. */
  warm() {
    if (this._spare) return this._spare;
    const spare = { box: null, early: [], gone: null, ready: false };
    const end = (how) => {
      if (spare.gone) return;
      spare.gone = how;
      if (this._spare === spare) {
        this._spare = null;
        if (!spare.ready) this._onStatus({ stage: `Python failed: the worker ${how}` });
      }
      spare.box?.gone(how);
    };
    const data = (m) => {
      // The worker's status, never a protocol message (one a solution forges can only say it is ready).
      if (m !== null && typeof m === 'object' && m.pythonReady === true && Object.keys(m).length === 1) {
        spare.ready = true;
        // The status line follows the worker the next Run waits for: this one, while no other is starting.
        if (this._spare === spare || !this._spare) this._onStatus({ stage: 'Python ready' });
      } else if (spare.box) spare.box.sandbox.receive(m);
      else spare.early.push(m);
    };
    // Said at once, so the status line never shows the last worker's readiness for this one.
    this._onStatus({ stage: 'Starting Python…' });
    const init = pythonSourcesWithStatus(this._onStatus).then((pyodide) => ({ lang: 'python', pyodide }));
    Object.assign(spare, startWorker(init, end, data));
    this._spare = spare;
    return spare;
  }

  /** A Sandbox tracing `code`'s function `functionName` in the spare worker (started if needed); the next spare starts when the check ends. */
  sandbox(code, functionName) {
    const spare = this.warm();
    this._spare = null;
    spare.box = sandboxOver(spare.worker, () => {
      spare.worker.terminate();
      this.warm();
    });
    for (const m of spare.early.splice(0)) spare.box.sandbox.receive(m);
    if (spare.gone) spare.box.gone(spare.gone);
    else spare.posted.then(() => spare.worker.postMessage({ run: { code, functionName } }));
    return spare.box.sandbox;
  }
}
