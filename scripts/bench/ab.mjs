// Old against new, for a refactor that must not slow anything down:
//   node scripts/bench/ab.mjs OLD_TREE [--rounds 4]
// OLD_TREE is another built checkout (e.g. `git worktree add /tmp/old <rev>
// && (cd /tmp/old && npm ci && bash scripts/build.sh)`). In each round both
// trees are timed, each in a fresh Node process, the first one alternating
// from round to round (an even number of rounds balances the order): the
// wasm psum per call (8 devices), the dispatch rows and the scale rows
// (quick sizes).
// Prints each row's median over the rounds and new/old (below 1: faster).

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
if (!args[0] || args[0].startsWith('--')) {
  console.error('usage: node scripts/bench/ab.mjs OLD_TREE [--rounds N]');
  process.exit(2);
}
const rounds = Number(args.includes('--rounds') ? args[args.indexOf('--rounds') + 1] : 4);
const trees = { old: resolve(args[0]), new: fileURLToPath(new URL('../../', import.meta.url)) };
const dir = mkdtempSync(join(tmpdir(), 'shardlab-ab-'));

// A tree's device runtime module (web/lib/runtime/ before the engine's folder was named so).
const devicesModule = (root) => [`${root}/web/lib/engine/devices.js`, `${root}/web/lib/runtime/devices.js`].find((f) => existsSync(f));

// One tree's rows, measured by its own benchmark modules (the psum's on the
// test build of its module where the tree has one: its runRepeated needs it).
const child = (root) => `
process.chdir(${JSON.stringify(root)});
const { loadDevices } = await import(${JSON.stringify(devicesModule(root))});
const load = ${existsSync(`${root}/web/lib/testing.js`) ? `(await import(${JSON.stringify(`${root}/web/lib/testing.js`)})).loadTestDevices ?? loadDevices` : 'loadDevices'};
const { wasmPsumSamples } = await import(${JSON.stringify(`${root}/scripts/bench/psum_wasm.mjs`)});
const { dispatchRows } = await import(${JSON.stringify(`${root}/scripts/bench/dispatch.mjs`)});
const { scaleRows } = await import(${JSON.stringify(`${root}/scripts/bench/scale.mjs`)});
const rows = [];
for (const { n, samples } of await wasmPsumSamples(load, [1, 1024, 65536, 1 << 20], 3)) {
  const s = [...samples].sort((a, b) => a - b);
  rows.push({ key: 'psum-wasm/' + n + ' floats', unit: 'us', median: s[s.length >> 1] });
}
for (const r of [...(await dispatchRows({ level: 'quick' })), ...(await scaleRows({ level: 'quick' }))]) {
  if (r.group === 'dispatch' || r.group === 'scale') rows.push({ key: [r.group, r.impl, r.case, r.size].join('/'), unit: r.unit, median: r.median });
}
console.log(JSON.stringify(rows));
process.exit(0);
`;

const samples = {}; // key -> {unit, old: [], new: []}
for (let r = 0; r < rounds; r++) {
  // Which tree goes first alternates, so that whatever the machine's state
  // after the first process does to the second falls on both trees alike.
  const order = Object.entries(trees);
  if (r % 2) order.reverse();
  for (const [name, root] of order) {
    const file = join(dir, `${name}.mjs`);
    writeFileSync(file, child(root));
    const out = execFileSync(process.execPath, [file], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 26 });
    for (const row of JSON.parse(out.trim().split('\n').pop())) {
      const s = (samples[row.key] ??= { unit: row.unit, old: [], new: [] });
      s[name].push(row.median);
    }
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
for (const [key, s] of Object.entries(samples)) {
  if (!s.old.length || !s.new.length) continue; // a row only one tree has
  const [o, n] = [median(s.old), median(s.new)];
  console.log(`${key}\told ${o.toFixed(1)} ${s.unit}\tnew ${n.toFixed(1)} ${s.unit}\tnew/old ${(n / o).toFixed(2)}`);
}
