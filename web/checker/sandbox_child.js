// The CLI's sandbox: a child process started under Node's permission model
// (sandbox_process.js) that loads a solution (a JS module, or a Python file
// run in Pyodide) and traces it for the judge over the IPC channel. It reads
// only the package, Pyodide's files and the solution's folder, writes
// nothing and starts no process; its stdout and stderr go to the CLI's stderr.

import { readFileSync } from 'node:fs';
import { register } from 'node:module';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveSandbox } from './sandbox_serve.js';

register('./resolve_hooks.mjs', import.meta.url);
const [solutionUrl, functionName] = process.argv.slice(2);
const path = fileURLToPath(solutionUrl);
let python = null;

serveSandbox({
  post: (m) => process.send(m),
  onMessage: (f) => process.on('message', f),
  async prepare() {
    if (!path.endsWith('.py')) return;
    // Pyodide's file system reads the fs flag constants through process.binding,
    // which the permission model refuses; the constants are all it needs.
    const { constants } = await import('node:fs');
    process.binding = (name) => {
      if (name === 'constants') return { fs: constants };
      throw new Error(`process.binding('${name}') is not available in the sandbox`);
    };
    const { startNodePython } = await import('../python/node_python.js');
    // The learner's output goes to this process's stderr (the CLI's stderr), as a JS solution's does.
    python = await startNodePython({ stdout: (s) => console.error(s), stderr: (s) => console.error(s) });
  },
  async load() {
    if (python) {
      const { pythonSolution } = await import('../python/solution.js');
      return pythonSolution(python, readFileSync(path, 'utf8'), basename(path), functionName);
    }
    let mod;
    try {
      mod = await import(solutionUrl);
    } catch (e) {
      throw new Error(`cannot load the solution ${path}: ${e.message}`);
    }
    if (typeof mod.default !== 'function') {
      throw new Error(`${path} has no default export (export default function solution(...))`);
    }
    return mod.default;
  },
});
