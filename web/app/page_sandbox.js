// The page's side of its sandbox workers (sandbox_worker.js): a Sandbox
// (web/checker/sandbox.js) for each check, over a module worker holding the
// learner's code. A worker's end — a crash, or its own self.close() — is
// seen at once through a Web Lock it holds from before the learner's code
// loads: the page's request for the same lock is granted when the worker
// goes. The workers' policy allows them no connections (headers.js), so the
// page hands them what they run: the module, fetched and compiled once here,
// and for Python Pyodide's files (pyodide_sources.js).
//
// JavaScript: a fresh worker per check. Python: one warm worker, started as
// soon as a problem opens in Python (Pyodide takes seconds to start), serves
// every check over a channel of its own (each in a fresh module); a check
// that ends badly (its time limit, a malformed message) ends the worker, and
// the next check starts another.

import { moduleSources } from 'shardlab';
import { Sandbox } from '../checker/sandbox.js';
import { pythonSourcesWithStatus } from './pyodide_sources.js';

let sources = null;
const shardlabSources = () => (sources ??= moduleSources().catch((e) => ((sources = null), Promise.reject(e))));

// A sandbox worker: posts {init} once the module and `init` arrive (`posted` resolves then:
// anything posted before would reach it first); `onEnd(how)` when it goes.
function startWorker(init, onEnd) {
  const worker = new Worker(new URL('./sandbox_worker.js', import.meta.url), { type: 'module' });
  const lock = `shardlab-sandbox-${crypto.randomUUID()}`;
  let watching = false;
  const watch = () => {
    // The worker sends nothing before it holds the lock.
    if (watching) return;
    watching = true;
    navigator.locks.request(lock, () => onEnd('it closed'));
  };
  worker.onerror = (e) => {
    e.preventDefault();
    onEnd(`it crashed: ${e.message}`);
  };
  const posted = Promise.all([shardlabSources(), init]).then(
    ([module, rest]) => worker.postMessage({ init: { lock, sources: module, ...rest } }),
    (e) => onEnd(`it could not be given what it runs: ${e.message}`),
  );
  return { worker, watch, posted };
}

/** A Sandbox running `code` (a JS module whose default export is the solution) in a fresh worker. */
export function startPageSandbox(code) {
  let gone = false;
  const end = (how) => {
    if (gone) return;
    gone = true;
    sandbox.exited(how);
  };
  const { worker, watch } = startWorker(Promise.resolve({ code }), end);
  const sandbox = new Sandbox({
    post: (m) => worker.postMessage(m),
    kill: () => {
      gone = true;
      worker.terminate();
    },
  });
  worker.onmessage = (e) => {
    watch();
    sandbox.receive(e.data);
  };
  worker.onmessageerror = () => sandbox.receive(undefined);
  return sandbox;
}

/**
 * The warm Python sandbox worker of this page. `onStatus({stage, fraction})`
 * follows its start: 'Loading Python…' while Pyodide's files download,
 * 'Starting Python…' while it starts, 'Python ready', or 'Python failed: …'.
 */
export class PythonSandboxes {
  constructor(onStatus = () => {}) {
    this._onStatus = onStatus;
    this._current = null;
  }

  /** Starts the warm worker now (a problem opened in Python), unless one is running. */
  warm() {
    if (this._current) return this._current;
    const runs = new Set();
    const current = { runs, gone: null };
    const end = (how) => {
      if (current.gone) return;
      current.gone = how;
      if (this._current === current) this._current = null;
      for (const r of runs) r.exited(how);
      if (!current.ready) this._onStatus({ stage: `Python failed: the worker ${how}` });
    };
    const init = pythonSourcesWithStatus(this._onStatus).then((pyodide) => ({ lang: 'python', pyodide }));
    const { worker, watch, posted } = startWorker(init, end);
    worker.onmessage = (e) => {
      watch();
      if (e.data?.pythonReady) {
        current.ready = true;
        this._onStatus({ stage: 'Python ready' });
      }
    };
    current.worker = worker;
    current.posted = posted;
    this._current = current;
    return current;
  }

  /** A Sandbox tracing `code`'s function `functionName` in the warm worker (started if needed). */
  sandbox(code, functionName) {
    const current = this.warm();
    const channel = new MessageChannel();
    const sandbox = new Sandbox({
      post: (m) => channel.port1.postMessage(m),
      // A check that ended normally leaves the worker warm; one that failed ends it.
      close: () => {
        channel.port1.close();
        current.runs.delete(sandbox);
      },
      kill: () => {
        current.runs.delete(sandbox);
        current.worker.terminate();
        if (this._current === current) this._current = null;
        current.gone ??= 'it was stopped';
      },
    });
    current.runs.add(sandbox);
    channel.port1.onmessage = (e) => sandbox.receive(e.data);
    channel.port1.onmessageerror = () => sandbox.receive(undefined);
    if (current.gone) sandbox.exited(current.gone);
    else current.posted.then(() => current.worker.postMessage({ run: { code, functionName, port: channel.port2 } }, [channel.port2]));
    return sandbox;
  }
}
