// The page's sandbox: a module worker where the learner's code runs, only to
// be traced (web/checker/sandbox_serve.js). Its bundle holds no problem data:
// the page sends the code, then asks for traces at argument shapes, and
// computes every verdict itself from the programs it gets back.
// JavaScript: one check per worker, over the worker's own messages. Python:
// Pyodide starts at once from the files the page hands over, then each check
// comes with a channel of its own ({run: {code, functionName, port}}).

import * as sl from 'shardlab';
import { serveSandbox } from '../checker/sandbox_serve.js';
import { pythonSolution } from '../python/solution.js';
import { importLearnerModule } from './learner_module.js';
import { startHandedPython } from './worker_python.js';

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

// Serves Python checks: Pyodide starts now; each {run} gets a channel of its own.
function servePython(init, receive) {
  const print = (s) => console.log(s);
  const python = startHandedPython(init.pyodide, { stdout: print, stderr: print });
  python.then(() => self.postMessage({ pythonReady: true }));
  receive((data) => {
    const run = data?.run;
    if (!run || !(run.port instanceof MessagePort)) return;
    serveSandbox({
      sources: init.sources,
      post: (m) => run.port.postMessage(m),
      onMessage: (f) => {
        run.port.onmessage = (e) => f(e.data);
      },
      prepare: () => python,
      load: async () => pythonSolution(await python, String(run.code), 'solution.py', String(run.functionName)),
    });
  });
}

// Messages after {init} wait here until the worker's server takes them (it
// starts once this worker holds its lock; the page may post meanwhile).
const waiting = [];
let take = (m) => waiting.push(m);
const receive = (f) => {
  take = f;
  for (const m of waiting.splice(0)) f(m);
};
let started = false;

self.onmessage = async ({ data }) => {
  if (!data?.init || started) return;
  started = true;
  self.onmessage = ({ data: m }) => take(m);
  // Held until this worker goes (even by self.close()): how the page knows it has.
  await new Promise((held) => navigator.locks.request(data.init.lock, () => (held(), new Promise(() => {}))));
  if (data.init.lang === 'python') {
    servePython(data.init, receive);
    return;
  }
  serveSandbox({
    sources: data.init.sources,
    post: (m) => self.postMessage(m),
    onMessage: receive,
    load: () => loadJs(data.init.code),
  });
};
