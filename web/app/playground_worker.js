// The playground's worker: runs a learner's script eagerly on a full device
// runtime of its own (a blocking engine, so Python reads arrays at once),
// unlike the checker's sandbox, which only traces. It stays warm between
// runs; each script runs in a fresh module (Python: a fresh __main__, as
// `shardlab run` runs one). The page stops a script that does not end by
// terminating this worker.
//
// Page → worker: {python: Pyodide's sources} once, to start Python;
// {run: {id, lang, code}}. Worker → page: {pythonReady} or {pythonFailed};
// for run `id`: {id, out: {stream, text}} (its stdout and stderr),
// {id, program: {kind, text, bodies}} (each program jit or make_jaxpr
// traces), then {id, done: {failed, program, timeline, ms}} (`failed`: it
// raised or threw, said on stderr; `program`: the last traced one's JSON,
// for its pictures; `timeline`: what the devices did while it ran, as
// sl.profiler records it, so a script cannot record its own trace).

// Served with the page's policy (headers.js), not the checker sandbox's: it
// fetches the module and starts device threads as the page does. A script
// here (one of a shared link, too) can read what the site serves, as the
// page can, but reaches no other origin (connect-src), and no verdict: the
// checker runs in the page, on its own devices, with its own sandbox.

import * as sl from 'shardlab';
import { importLearnerModule } from './learner_module.js';
import { startHandedPython } from './worker_python.js';

// What a run posts at most (characters of output, traced programs): a script printing or tracing in a loop cannot flood the page.
const MAX_OUTPUT = 200_000;
const MAX_PROGRAMS = 50;
// Output is posted as it is written, up to BURST messages per FLUSH_MS; more
// is held and posted with the next write after that (the script's thread is
// busy: nothing else could post it), so a script printing in a loop sends
// few messages.
const FLUSH_MS = 50;
const BURST = 10;

// 8 device threads where the page is isolated, else the lockstep executor on this thread (the page says which).
const engine = sl.init({ blocking: true, executor: globalThis.crossOriginIsolated ? 'threads' : 'lockstep' });
engine.catch(() => {}); // reported by each run

let python = null;
let current = null; // the run being served: {id, pending, posted, flushed, burst, programs, last}

// The current run's output, batched and capped.
function write(stream, text) {
  const run = current;
  if (!run || !text) return;
  if (run.posted >= MAX_OUTPUT) return;
  const kept = text.slice(0, MAX_OUTPUT - run.posted);
  run.posted += kept.length;
  const last = run.pending[run.pending.length - 1];
  if (last?.stream === stream) last.text += kept;
  else run.pending.push({ stream, text: kept });
  if (run.posted >= MAX_OUTPUT) run.pending.push({ stream: 'stderr', text: `\n[output cut at ${MAX_OUTPUT} characters]\n` });
  if (run.burst < BURST || performance.now() - run.flushed > FLUSH_MS) flush(run);
}

function flush(run) {
  const now = performance.now();
  if (now - run.flushed > FLUSH_MS) {
    run.flushed = now;
    run.burst = 0;
  }
  run.burst += 1;
  for (const out of run.pending.splice(0)) self.postMessage({ id: run.id, out });
}

// Every program jit or make_jaxpr traces during a run, as text; the last one's JSON is kept for its pictures.
sl.observeTraces(({ kind, jaxpr }) => {
  const run = current;
  if (!run) return;
  run.last = jaxpr.toJSON();
  if (++run.programs > MAX_PROGRAMS) return;
  flush(run); // the program after the output printed before it
  self.postMessage({ id: run.id, program: { kind, text: String(jaxpr), bodies: jaxpr.printedBodies() } });
});

// A JS script's console goes to its output: log, info and debug to stdout, warn and error to stderr.
const show = (x) => {
  if (typeof x === 'string') return x;
  if (x instanceof Error) return `${x.name}: ${x.message}`;
  if (ArrayBuffer.isView(x)) return `${x.constructor.name} [${Array.from(x).join(', ')}]`;
  if (Array.isArray(x) || (x !== null && Object.getPrototypeOf(x) === Object.prototype)) {
    try {
      return JSON.stringify(x);
    } catch {
      // A cycle: printed as String() prints it.
    }
  }
  return String(x);
};
for (const [name, stream] of [['log', 'stdout'], ['info', 'stdout'], ['debug', 'stdout'], ['warn', 'stderr'], ['error', 'stderr']]) {
  console[name] = (...args) => write(stream, `${args.map(show).join(' ')}\n`);
}

// What a script's callbacks throw, and its promises nobody awaits that fail,
// go to its stderr too while it runs (an error event left alone would reach
// the page as this worker's crash).
self.addEventListener('error', (e) => {
  e.preventDefault();
  write('stderr', `Uncaught ${show(e.error ?? e.message)}\n`);
});
self.addEventListener('unhandledrejection', (e) => {
  e.preventDefault();
  write('stderr', `Uncaught (in promise) ${show(e.reason)}\n`);
});

// A bytes writer for Pyodide's stdout or stderr (setStdout): exact text, partial lines included.
function pythonStream(stream) {
  const decoder = new TextDecoder();
  return { write: (bytes) => (write(stream, decoder.decode(bytes, { stream: true })), bytes.length), isatty: true };
}

function startPythonFrom(sources) {
  python ??= startHandedPython(sources, {}).then((py) => {
    py.setStdout(pythonStream('stdout'));
    py.setStderr(pythonStream('stderr'));
    return py;
  });
  python.then(
    () => self.postMessage({ pythonReady: true }),
    (e) => self.postMessage({ pythonFailed: e.message }),
  );
}

// Runs a Python script as `shardlab run` does: its uncaught exception, as Python prints it, or null.
function runPython(py, code) {
  const host = py.pyimport('shardlab_host');
  try {
    return host.run_script(code, 'main.py') ?? null;
  } finally {
    host.destroy();
    py.runPython('import sys\nsys.stdout.flush()\nsys.stderr.flush()');
  }
}

// Runs a JS script as a module: what it threw (its line, the script's own), or null.
async function runJs(code) {
  try {
    await importLearnerModule(code, sl);
    return null;
  } catch (e) {
    const where = /blob:[^\s)]*?:(\d+):(\d+)/.exec(String(e?.stack))?.slice(1);
    return `${e?.name ?? 'Error'}: ${e?.message ?? String(e)}${where ? ` (line ${where[0]}, column ${where[1]})` : ''}\n`;
  }
}

async function serve({ id, lang, code }) {
  current = { id, pending: [], posted: 0, flushed: performance.now(), burst: 0, programs: 0, last: null };
  let started = null;
  let error = null;
  let timeline = null;
  try {
    await engine;
    const py = lang === 'python' ? await (python ?? Promise.reject(new Error('Python was not started'))) : null;
    started = performance.now(); // the script's time, not its runtime's start
    if (!sl.profiler.tracing()) sl.profiler.startTrace(); // a blocking engine: recording at once
    try {
      error = py ? runPython(py, String(code)) : await runJs(String(code));
    } finally {
      // A script that stopped the trace itself (sl.profiler) leaves no timeline of the run.
      timeline = sl.profiler.tracing() ? sl.profiler.stopTrace() : null;
    }
  } catch (e) {
    error = `The playground could not run the script: ${e.message}\n`;
  }
  const run = current;
  current = null;
  if (error) run.pending.push({ stream: 'stderr', text: error });
  if (run.programs > MAX_PROGRAMS) run.pending.push({ stream: 'stderr', text: `[${run.programs - MAX_PROGRAMS} more traced programs not shown]\n` });
  flush(run);
  self.postMessage({ id, done: { failed: Boolean(error), program: run.last, timeline, ms: started === null ? 0 : Math.round(performance.now() - started) } });
}

// Runs one at a time, in the order asked.
let queue = Promise.resolve();
self.onmessage = ({ data }) => {
  if (data?.python) startPythonFrom(data.python);
  else if (data?.run) queue = queue.then(() => serve(data.run));
};
