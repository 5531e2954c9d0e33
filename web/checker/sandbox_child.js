// The CLI's sandbox: a child process (sandbox_process.js) that loads one
// solution file (a JS module, or a Python file run in Pyodide) and traces
// it for the judge over the channel on descriptor 3 (channel.js). Its
// stdout and stderr go to the CLI's stderr.

import { readFileSync } from 'node:fs';
import { register } from 'node:module';
import { Socket } from 'node:net';
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import { lineChannel } from './channel.js';
import { serveSandbox } from './sandbox_serve.js';

const [path, functionName] = process.argv.slice(2);
const solutionUrl = pathToFileURL(path).href;
register('./resolve_hooks.mjs', import.meta.url, { data: { solutionUrl } });
let python = null;
let receive = () => {};
const channel = lineChannel(new Socket({ fd: 3, readable: true, writable: true }), { onMessage: (m) => receive(m) });

serveSandbox({
  post: (m) => channel.send(m),
  onMessage: (f) => {
    receive = f;
  },
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
    const host = python.pyimport('shardlab_host');
    host.refuse_processes();
    host.destroy();
  },
  async load() {
    if (python) {
      const { pythonSolution } = await import('../python/solution.js');
      // The file's bytes, as Python reads a source file (a byte order mark or a coding line decides the text).
      return pythonSolution(python, new Uint8Array(readFileSync(path)), basename(path), functionName);
    }
    let mod;
    try {
      mod = await import(solutionUrl);
    } catch (e) {
      throw new Error(`cannot load the solution ${basename(path)}: ${e.name}: ${e.message}`);
    }
    if (typeof mod.default !== 'function') {
      throw new Error(`${basename(path)} has no default export (export default function solution(...))`);
    }
    return mod.default;
  },
});
