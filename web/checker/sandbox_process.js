// Starts the CLI's sandbox: a child process (never a thread of the CLI: it
// shares no memory, objects or descriptors with the judge but its channel)
// that loads one solution file and traces it. It runs isolated by the OS
// where the machine can (isolation.js: bubblewrap's namespaces), else as a
// plain child; in both it has an empty environment, a memory cap, only a
// private copy of the solution (a symlink beside it leads nowhere), and
// Node's permission model inside: it reads only the package's web/ folder,
// Pyodide's files and that copy, writes nothing and starts no process.
// Worker threads stay allowed: Node 20's module hooks (how a solution's
// `import 'shardlab'` resolves) run on one.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lineChannel } from './channel.js';
import { cpuMeter } from './cpu_time.js';
import { SANDBOX_DIR, SANDBOX_HEAP_MB, isolatedCommand, isolationSupport, memoryCapped } from './isolation.js';
import { printable } from './printable.js';
import { Sandbox } from './sandbox.js';

const WEB = fileURLToPath(new URL('../', import.meta.url));
const PYODIDE = dirname(createRequire(import.meta.url).resolve('pyodide/package.json'));
const CHILD = fileURLToPath(new URL('./sandbox_child.js', import.meta.url));
// The child's descriptors beyond stdio: the channel, bubblewrap's report of the pid, the solution's bytes.
const [CHANNEL_FD, INFO_FD, SOLUTION_FD] = [3, 4, 5];

/** Why the CLI refuses to check without isolation (`--require-isolation`). */
export class IsolationError extends Error {
  constructor(why) {
    super(`the sandbox cannot be isolated on this machine: ${why}`);
    this.name = 'IsolationError';
  }
}

// Node's flags inside the sandbox: the permission model over what it may read.
const nodeArgs = (reads, solutionPath, functionName) => [
  '--experimental-permission',
  ...reads.map((p) => `--allow-fs-read=${p}`),
  '--allow-worker',
  '--no-warnings',
  `--max-old-space-size=${SANDBOX_HEAP_MB}`,
  CHILD,
  solutionPath,
  functionName,
];

/**
 * A Sandbox running the solution `source` (its file's text, a Buffer or
 * string) named `name` (its file name: a .py file runs in Pyodide, its
 * function `functionName` or its one public function; any other is a JS
 * module); its stdout and stderr go to `output` (a writable stream), with
 * control characters escaped. `sandbox.isolation` says how it is walled off
 * ({kind: 'bubblewrap'} or {kind: 'none', why}); with `requireIsolation`
 * no isolation throws an IsolationError instead. Its meter (`cpuMs`) reads
 * the sandbox's CPU time.
 */
export function startNodeSandbox(source, name, { output = process.stderr, functionName = '', requireIsolation = false } = {}) {
  const isolation = isolationSupport();
  if (requireIsolation && isolation.kind !== 'bubblewrap') throw new IsolationError(isolation.why);
  let command;
  let cleanup = () => {};
  let solutionPath;
  if (isolation.kind === 'bubblewrap') {
    solutionPath = join(SANDBOX_DIR, name);
    command = isolatedCommand({
      node: process.execPath,
      nodeArgs: nodeArgs([WEB, PYODIDE, SANDBOX_DIR], solutionPath, functionName),
      reads: [WEB, PYODIDE],
      solutionFd: SOLUTION_FD,
      solutionPath,
      infoFd: INFO_FD,
    });
  } else {
    // A private folder holding only the copy: the permission model checks paths, not what links resolve to.
    const dir = mkdtempSync(join(tmpdir(), 'shardlab-sandbox-'));
    cleanup = () => rmSync(dir, { recursive: true, force: true });
    solutionPath = join(dir, name);
    writeFileSync(solutionPath, source, { mode: 0o400 });
    command = { file: process.execPath, args: nodeArgs([WEB, PYODIDE, dir], solutionPath, functionName) };
  }
  const { file, args } = memoryCapped(command);
  const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe', 'pipe', 'pipe', 'pipe'], env: {}, cwd: '/' });
  let gone = false;
  let pid = isolation.kind === 'bubblewrap' ? null : child.pid;
  if (isolation.kind === 'bubblewrap') {
    child.stdio[SOLUTION_FD].end(source);
    // bubblewrap writes {"child-pid": N, ...} before the solution runs: the pid whose CPU time counts.
    let info = '';
    child.stdio[INFO_FD].setEncoding('utf8');
    child.stdio[INFO_FD].on('data', (d) => {
      info += d;
      const m = /"child-pid":\s*(\d+)/.exec(info);
      if (m && pid === null) {
        pid = Number(m[1]);
        child.stdio[INFO_FD].destroy();
      }
    });
  } else {
    child.stdio[INFO_FD].destroy();
    child.stdio[SOLUTION_FD].destroy();
  }
  for (const stream of [child.stdout, child.stderr]) {
    stream.setEncoding('utf8');
    stream.on('data', (s) => output.write(printable(s)));
  }
  let meter = null;
  const sandbox = new Sandbox({
    post: (m) => {
      if (!gone) channel.send(m);
    },
    kill: () => {
      if (!gone) child.kill('SIGKILL');
    },
    cpuMs: () => {
      if (pid === null) return 0;
      meter ??= cpuMeter(pid);
      return meter();
    },
  });
  sandbox.isolation = isolation;
  const channel = lineChannel(child.stdio[CHANNEL_FD], { onMessage: (m) => sandbox.receive(m), onMalformed: (detail) => sandbox.malformed(detail) });
  child.on('exit', (code, signal) => {
    gone = true;
    cleanup();
    channel.close();
    sandbox.exited(signal ? `signal ${signal}` : `code ${code}`);
  });
  child.on('error', (e) => {
    gone = true;
    cleanup();
    sandbox.exited(`it could not run: ${e.message}`);
  });
  return sandbox;
}
