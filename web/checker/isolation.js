// How the CLI's sandbox process is walled off from the machine. With
// bubblewrap (Debian package `bubblewrap`) it runs in new user, PID,
// network, IPC, UTS and mount namespaces: it sees no process of the host
// (so it can signal none, the judge included: Node 20 cannot turn off the
// inspector that SIGUSR1 opens), reaches no socket of the host (its network
// is a private loopback), and its file system holds only /usr, the
// package's web/ folder, Pyodide's files and the solution, read-only, with
// its own /proc and a minimal /dev. Its environment is empty, it has no
// terminal to push input into (--new-session), it dies with the judge, and
// its memory is capped. Where the namespaces cannot be made (no bubblewrap,
// user namespaces turned off, or not Linux), the check still runs, under
// Node's permission model alone, and the report says so.

import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';

/** The sandbox's memory cap (RLIMIT_DATA): an address-space limit would stop wasm reserving its memory. */
export const SANDBOX_DATA_BYTES = 3 * 2 ** 30;
/** The sandbox's JavaScript heap (MiB), within the cap. */
export const SANDBOX_HEAP_MB = 2048;
/** Where the solution's one file is, inside the sandbox (a private tmpfs). */
export const SANDBOX_DIR = '/sandbox';

// The program `name` as the shell would find it on PATH, or null.
const which = (name) => (process.env.PATH ?? '').split(delimiter).filter(Boolean).map((d) => join(d, name)).find((p) => existsSync(p)) ?? null;

// The top-level folders a dynamically linked program may load from: on a
// merged-/usr system they are links into /usr, elsewhere folders of their own.
function systemRoots() {
  const args = ['--ro-bind', '/usr', '/usr'];
  for (const dir of ['/lib', '/lib64', '/lib32', '/bin', '/sbin']) {
    let stat;
    try {
      stat = lstatSync(dir);
    } catch {
      continue;
    }
    if (stat.isSymbolicLink()) args.push('--symlink', readlinkSync(dir), dir);
    else if (stat.isDirectory()) args.push('--ro-bind', dir, dir);
  }
  args.push('--ro-bind-try', '/etc/ld.so.cache', '/etc/ld.so.cache');
  return args;
}

/**
 * The bubblewrap command that runs `node` (an executable path) with
 * `nodeArgs` isolated, seeing `reads` (folders, read-only, at their own
 * paths) and, when given, the file read from descriptor `solutionFd` as
 * `solutionPath` (inside SANDBOX_DIR); bubblewrap writes the sandbox's pid
 * (as the host numbers it) to descriptor `infoFd`. Returns {file, args}.
 */
export function isolatedCommand({ node, nodeArgs, reads, solutionFd, solutionPath, infoFd, bwrap = which('bwrap') }) {
  const binds = [...new Set([dirname(realpathSync(node)), ...reads.map((p) => realpathSync(p))])].filter((p) => !p.startsWith('/usr/'));
  const args = [
    '--unshare-all',
    '--unshare-user',
    '--disable-userns',
    '--die-with-parent',
    '--new-session',
    '--clearenv',
    '--cap-drop', 'ALL',
    // Node is the namespace's first process: its /proc/<pid>/stat counts its CPU time, threads included.
    '--as-pid-1',
    ...systemRoots(),
    ...binds.flatMap((p) => ['--ro-bind', p, p]),
    '--proc', '/proc',
    '--dev', '/dev',
    '--dir', SANDBOX_DIR,
    ...(solutionFd === undefined ? [] : ['--ro-bind-data', String(solutionFd), solutionPath]),
    '--chdir', SANDBOX_DIR,
    ...(infoFd === undefined ? [] : ['--info-fd', String(infoFd)]),
    '--',
    realpathSync(node),
    ...nodeArgs,
  ];
  return { file: bwrap, args };
}

/**
 * The command that runs `file` with `args` under the sandbox's memory cap
 * (util-linux's prlimit), or the command itself where there is no prlimit.
 */
export function memoryCapped({ file, args }) {
  const prlimit = which('prlimit');
  if (!prlimit) return { file, args };
  return { file: prlimit, args: [`--data=${SANDBOX_DATA_BYTES}:${SANDBOX_DATA_BYTES}`, '--', file, ...args] };
}

let probed = null;

/**
 * Whether this machine can isolate the sandbox: {kind: 'bubblewrap'}, or
 * {kind: 'none', why} saying what is missing and what would enable it.
 * Probed once per process by starting Node in the namespaces (about 10 ms).
 */
export function isolationSupport() {
  if (probed) return probed;
  if (process.platform !== 'linux') {
    probed = { kind: 'none', why: `${process.platform} has no namespaces for bubblewrap: the sandbox runs under Node's permission model alone` };
    return probed;
  }
  const bwrap = which('bwrap');
  if (!bwrap) {
    probed = { kind: 'none', why: "bubblewrap is not installed (Debian: apt-get install bubblewrap): the sandbox runs under Node's permission model alone" };
    return probed;
  }
  const { file, args } = isolatedCommand({ node: process.execPath, nodeArgs: ['--version'], reads: [], bwrap });
  const r = spawnSync(file, args, { encoding: 'utf8', timeout: 10000, env: {} });
  if (r.status === 0 && r.stdout.trim() === process.version) probed = { kind: 'bubblewrap' };
  else {
    const said = (r.stderr || r.error?.message || `exit ${r.status}`).trim().split('\n')[0];
    probed = {
      kind: 'none',
      why: `bubblewrap cannot create the sandbox's namespaces (${said}); user namespaces may be turned off (sysctl user.max_user_namespaces, or kernel.unprivileged_userns_clone): the sandbox runs under Node's permission model alone`,
    };
  }
  return probed;
}
