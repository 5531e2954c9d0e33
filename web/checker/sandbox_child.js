// The CLI's sandbox: a child process started under Node's permission model
// (sandbox_process.js) that loads a solution module and traces it for the
// judge over the IPC channel. It reads only the package and the solution's
// folder, writes nothing and starts no process; its stdout and stderr go to
// the CLI's stderr.

import { register } from 'node:module';
import { serveSandbox } from './sandbox_serve.js';

register('./resolve_hooks.mjs', import.meta.url);
const solutionUrl = process.argv[2];

serveSandbox({
  post: (m) => process.send(m),
  onMessage: (f) => process.on('message', f),
  async load() {
    let mod;
    try {
      mod = await import(solutionUrl);
    } catch (e) {
      throw new Error(`cannot load the solution ${new URL(solutionUrl).pathname}: ${e.message}`);
    }
    if (typeof mod.default !== 'function') {
      throw new Error(`${new URL(solutionUrl).pathname} has no default export (export default function solution(...))`);
    }
    return mod.default;
  },
});
