// The page's sandbox: a module worker where the learner's code runs, only to
// be traced (web/checker/sandbox_serve.js). Its bundle holds no problem data:
// the page sends the code, then asks for traces at argument shapes, and
// computes every verdict itself from the programs it gets back. Every
// worker serves one check: JavaScript comes with {init}; Python starts
// Pyodide at once from the files the page hands over, then waits for the one
// check it will serve ({run: {code, functionName}}), so each check starts
// from a fresh interpreter.

import * as sl from 'shardlab';
import { serveSandbox } from '../checker/sandbox_serve.js';
import { pythonSolution } from '../python/solution.js';
import { importLearnerModule } from './learner_module.js';
import { sealWorker } from './seal_worker.js';
import { startHandedPython } from './worker_python.js';

// The worker's own postMessage, kept before any learner code runs (it may replace self.postMessage).
const post = self.postMessage.bind(self);

async function loadJs(code) {
  let mod;
  try {
    mod = await importLearnerModule(code, sl);
  } catch (e) {
    throw new Error(`your code does not load: ${e.name}: ${e.message}`);
  }
  if (typeof mod.default !== 'function') throw new Error('your code has no default export: write `export default function solve(...) { ... }`');
  return mod.default;
}

// Messages after {init} wait here until the worker's server takes them.
const waiting = [];
let take = (m) => waiting.push(m);
const receive = (f) => {
  take = f;
  for (const m of waiting.splice(0)) f(m);
};

// Python: Pyodide starts now; the first {run} is the check this worker serves.
function servePython(init) {
  const print = (s) => console.log(s);
  const python = startHandedPython(init.pyodide, { stdout: print, stderr: print });
  python.then(() => post({ pythonReady: true }));
  let run = null;
  take = (m) => {
    if (run || !m?.run) return;
    run = m.run;
    take = (x) => waiting.push(x);
    serveSandbox({
      sources: init.sources,
      post,
      onMessage: receive,
      prepare: () => python,
      load: async () => pythonSolution(await python, String(run.code), 'solution.py', String(run.functionName)),
    });
  };
}

let started = false;

self.onmessage = ({ data }) => {
  if (!data?.init || started) return;
  started = true;
  self.onmessage = ({ data: m }) => take(m);
  sealWorker(() => post({ closing: true }));
  if (data.init.lang === 'python') {
    servePython(data.init);
    return;
  }
  serveSandbox({ sources: data.init.sources, post, onMessage: receive, load: () => loadJs(data.init.code) });
};
