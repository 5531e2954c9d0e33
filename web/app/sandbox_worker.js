// The page's sandbox: a module worker where the learner's code runs, only to
// be traced (web/checker/sandbox_serve.js). Its bundle holds no problem data:
// the page sends the code, then asks for traces at argument shapes, and
// computes every verdict itself from the programs it gets back.
// JavaScript: one check per worker, over the worker's own messages. Python:
// Pyodide starts at once from the files the page hands over, then each check
// comes with a channel of its own ({run: {code, functionName, port}}).

import * as sl from 'shardlab';
import { loadPyodide } from 'pyodide';
import { serveSandbox } from '../checker/sandbox_serve.js';
import { pythonFiles } from '../python/files_vite.js';
import { handedPyodideOptions } from '../python/handed_pyodide.js';
import { startPython } from '../python/host.js';
import { pythonSolution } from '../python/solution.js';

globalThis.__shardlab = sl;

// `import * as sl from 'shardlab'` and `import { P } from 'shardlab'` become
// reads of this worker's instance (a module from a blob cannot import by name).
function bindImports(code) {
  return code
    .replace(/import\s+\*\s+as\s+(\w+)\s+from\s+['"]shardlab['"];?/g, 'const $1 = globalThis.__shardlab;')
    .replace(/import\s+\{([^}]*)\}\s+from\s+['"]shardlab['"];?/g, (_, names) => `const {${names.replace(/\s+as\s+/g, ': ')}} = globalThis.__shardlab;`);
}

async function loadJs(code) {
  let mod;
  const url = URL.createObjectURL(new Blob([bindImports(code)], { type: 'text/javascript' }));
  try {
    mod = await import(/* @vite-ignore */ url);
  } catch (e) {
    throw new Error(`your code does not load: ${e.name}: ${e.message}`);
  } finally {
    URL.revokeObjectURL(url);
  }
  if (typeof mod.default !== 'function') throw new Error('your code has no default export: write `export default function solve(...) { ... }`');
  return mod.default;
}

// Serves Python checks: Pyodide starts now; each {run} gets a channel of its own.
function servePython(init, receive) {
  const print = (s) => console.log(s);
  const python = handedPyodideOptions(init.pyodide, { stdout: print, stderr: print }).then((options) =>
    startPython(loadPyodide, pythonFiles(), options),
  );
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
