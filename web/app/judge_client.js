// The page's side of its judge (judge_worker.js): each check goes there as
// the learner's code and the problem's id, its report comes back as plain
// data; so does the status of the next Python interpreter. A judge worker
// that crashes fails the checks it held, and the next check starts another.

/** The page's judge worker. `onStatus({stage, fraction})` follows the next Python interpreter's start. */
export class Judge {
  constructor(onStatus = () => {}) {
    this._onStatus = onStatus;
    this._worker = null;
    this._pending = new Map(); // id -> {resolve, reject}
    this._nextId = 1;
  }

  _start() {
    if (this._worker) return this._worker;
    const worker = new Worker(new URL('./judge_worker.js', import.meta.url), { type: 'module' });
    worker.onmessage = ({ data }) => {
      if (data?.status) return void this._onStatus(data.status);
      const waiting = this._pending.get(data?.id);
      if (!waiting) return;
      this._pending.delete(data.id);
      if (data.error) waiting.reject(new Error(data.error));
      else waiting.resolve(data.report);
    };
    worker.onerror = (e) => {
      e.preventDefault();
      this._worker = null;
      worker.terminate();
      for (const w of this._pending.values()) w.reject(new Error(`the page's judge stopped: ${e.message}`));
      this._pending.clear();
    };
    this._worker = worker;
    return worker;
  }

  /** Starts the next Python interpreter now (a problem opened in Python). */
  warm() {
    this._start().postMessage({ warm: true });
  }

  /** The report (engine.js checkSolution's) of `code` in `lang` on problem `problemId`'s `cases` (all of them when undefined). */
  check({ problemId, lang, code, cases, timeLimitMs }) {
    const id = this._nextId++;
    return new Promise((resolve, reject) => {
      this._pending.set(id, { resolve, reject });
      this._start().postMessage({ check: { id, problem: problemId, lang, code, cases, timeLimitMs } });
    });
  }
}
