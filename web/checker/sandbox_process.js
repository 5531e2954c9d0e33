// Starts the CLI's sandbox: a child process (never a thread of the CLI: it
// shares no file descriptors or objects with the judge) under Node's
// permission model, reading only this package's web/ folder, Pyodide's
// files and the solution's folder, with no child processes and no file
// writes. Worker threads stay allowed: Node 20's module hooks (how a
// solution's `import 'shardlab'` resolves) run on one.

import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Sandbox } from './sandbox.js';

const WEB = fileURLToPath(new URL('../', import.meta.url));
const PYODIDE = dirname(createRequire(import.meta.url).resolve('pyodide/package.json'));

/**
 * A Sandbox running the solution at `solutionUrl` (a file: URL; a .py file
 * runs in Pyodide, its function `functionName`, or its one public function);
 * its stdout and stderr go to `output` (a writable stream).
 */
export function startNodeSandbox(solutionUrl, { output = process.stderr, functionName = '' } = {}) {
  const reads = [WEB, PYODIDE, dirname(fileURLToPath(solutionUrl))];
  const child = fork(fileURLToPath(new URL('./sandbox_child.js', import.meta.url)), [solutionUrl, functionName], {
    execArgv: ['--experimental-permission', ...reads.map((p) => `--allow-fs-read=${p}`), '--allow-worker', '--no-warnings'],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    serialization: 'json',
  });
  child.stdout.pipe(output, { end: false });
  child.stderr.pipe(output, { end: false });
  let gone = false;
  const sandbox = new Sandbox({
    post: (m) => {
      if (!gone) child.send(m);
    },
    kill: () => {
      if (!gone) child.kill('SIGKILL');
    },
  });
  child.on('message', (m) => sandbox.receive(m));
  child.on('exit', (code, signal) => {
    gone = true;
    sandbox.exited(signal ? `signal ${signal}` : `code ${code}`);
  });
  child.on('error', (e) => {
    gone = true;
    sandbox.exited(`it could not run: ${e.message}`);
  });
  return sandbox;
}
