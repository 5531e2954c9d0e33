// One group of `npm run bench`, in a process of its own (index.mjs starts
// one per group, so that a group that throws, crashes or hangs ends only
// itself): node scripts/bench/group.mjs <group> <level> <out.json> writes
// {rows, configs?} to out.json, or {error} when the group throws.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromiumRows } from './chromium.mjs';
import { dispatchRows } from './dispatch.mjs';
import { judgeRows } from './judge.mjs';
import { kernelRows } from './kernels.mjs';
import { peerChromiumRows, peerRows } from './peers/index.mjs';
import { pythonRows } from './python.mjs';
import { scaleRows } from './scale.mjs';

// psum in native threads, wasm in Node, postMessage and plain-JS Atomics (collectives.mjs, a script of its own).
function collectiveRows(level) {
  const file = join(mkdtempSync(join(tmpdir(), 'shardlab-bench-')), 'collectives.json');
  execFileSync(process.execPath, ['scripts/bench/collectives.mjs', '--json', file, '--level', level], { stdio: ['ignore', 'ignore', 'inherit'] });
  return JSON.parse(readFileSync(file, 'utf8')).rows.map((r) => ({
    group: 'collectives',
    impl: r.impl,
    case: r.op,
    size: String(r.floats_per_device),
    unit: 'us/psum',
    min: r.min_us,
    median: r.median_us,
  }));
}

/** The groups, in the order `npm run bench` runs them: name -> (level) -> {rows, configs?}. */
export const GROUPS = {
  collectives: async (level) => ({ rows: collectiveRows(level) }),
  dispatch: async (level) => ({ rows: await dispatchRows({ level }) }),
  chromium: async (level) => ({ rows: await chromiumRows({ level }) }),
  judge: async (level) => ({ rows: await judgeRows({ level }) }),
  scale: async (level) => ({ rows: await scaleRows({ level }) }),
  kernels: async (level) => ({ rows: kernelRows({ level }) }),
  python: async (level) => ({ rows: await pythonRows({ level }) }),
  peers: (level) => peerRows({ level }),
  'peers-chromium': (level) => peerChromiumRows({ level }),
};

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const [name, level, out] = process.argv.slice(2);
  try {
    writeFileSync(out, JSON.stringify(await GROUPS[name](level)));
    process.exit(0);
  } catch (e) {
    // What went wrong, for the table (a crash or a hang leaves no file: the runner says how the process ended).
    writeFileSync(out, JSON.stringify({ error: String(e?.message ?? e).split('\n')[0] }));
    console.error(e);
    process.exit(1);
  }
}
