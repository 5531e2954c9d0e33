// The page's side of the playground's worker (playground_worker.js): one
// warm worker runs the scripts, one at a time; Python starts in it from
// Pyodide's files the page fetches once (pyodide_sources.js), as soon as the
// playground opens in Python. Stop terminates the worker (a script that
// never ends cannot be interrupted otherwise); the next run starts another.

import { pythonSourcesWithStatus } from './pyodide_sources.js';

/**
 * Runs playground scripts. `onStatus({stage, fraction})` follows Python's
 * start: 'Loading Python…' while Pyodide's files download, 'Starting
 * Python…', 'Python ready', or 'Python failed: …'.
 */
export class PlaygroundRunner {
  constructor(onStatus = () => {}) {
    this._onStatus = onStatus;
    this._worker = null;
    this._run = null; // the run in progress: {id, resolve, onOut, onProgram}
    this._nextId = 1;
  }

  /** Whether a script is running. */
  get busy() {
    return this._run !== null;
  }

  /** Starts the worker, and Python in it for 'python', unless they run already; resolves once a Python run may be posted. */
  warm(lang) {
    const w = (this._worker ??= this._start());
    if (lang === 'python') {
      w.python ??= pythonSourcesWithStatus(this._onStatus).then(
        (sources) => w.worker.postMessage({ python: sources }),
        (e) => this._onStatus({ stage: `Python failed: ${e.message}` }),
      );
      return w.python;
    }
    return Promise.resolve();
  }

  /**
   * Runs `code` ('python' or 'javascript'): `onOut(stream, text)` with its
   * output as it comes, `onProgram({kind, text, bodies})` with each program
   * it traces. Resolves to {failed, program, ms} when it ends, {stopped:
   * true} after stop(), or {crashed: why} if the worker failed.
   */
  async run(lang, code, { onOut, onProgram }) {
    if (this._run) throw new Error('a script is running already');
    const id = this._nextId++;
    const done = new Promise((resolve) => (this._run = { id, resolve, onOut, onProgram }));
    await this.warm(lang);
    // Unless stopped meanwhile.
    if (this._run?.id === id) this._worker.worker.postMessage({ run: { id, lang, code } });
    return done;
  }

  /** Stops the running script, if any, by terminating the worker. */
  stop() {
    if (!this._worker) return;
    this._worker.worker.terminate();
    this._worker = null;
    this._finish({ stopped: true });
  }

  _finish(result) {
    const run = this._run;
    this._run = null;
    run?.resolve(result);
  }

  _start() {
    const worker = new Worker(new URL('./playground_worker.js', import.meta.url), { type: 'module' });
    const w = { worker, python: null };
    worker.onmessage = ({ data }) => {
      if (data.pythonReady) this._onStatus({ stage: 'Python ready' });
      if (data.pythonFailed) this._onStatus({ stage: `Python failed: ${data.pythonFailed}` });
      const run = this._run;
      if (!run || data.id !== run.id) return;
      if (data.out) run.onOut(data.out.stream, data.out.text);
      if (data.program) run.onProgram(data.program);
      if (data.done) this._finish(data.done);
    };
    worker.onerror = (e) => {
      e.preventDefault();
      if (this._worker === w) this._worker = null;
      if (w.python) this._onStatus({ stage: '' });
      this._finish({ crashed: e.message || 'the worker failed' });
    };
    return w;
  }
}
