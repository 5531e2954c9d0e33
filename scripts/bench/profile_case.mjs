// Where a peer case's time goes on ShardLab's 8 devices (issue 22's
// question), from sl.profiler's timeline of a few steps after a warm-up:
// per primitive, the time its equations took summed over the devices and
// its share of the devices' busy time, with the waits at barriers apart;
// and the span of each step on the slowest device.
//
//   node scripts/bench/profile_case.mjs [case] [--steps N]   (default: mlp-train-step, 3 steps)
import * as sl from '../../web/lib/index.js';
import { CASES, inputsOf } from './peers/cases.mjs';
import { load, setup } from './peers/shardlab.mjs';

const args = process.argv.slice(2);
const name = args.find((a) => !a.startsWith('--')) ?? 'mlp-train-step';
const steps = Number(args[args.indexOf('--steps') + 1] ?? 3) || 3;
if (!CASES[name]) throw new Error(`profile_case: no case '${name}'; one of ${Object.keys(CASES).join(', ')}`);

await load();
const handle = await setup(name, inputsOf(name, CASES[name].dims));
await handle.run(); // compiled, and the memory in place
await sl.profiler.startTrace();
const t0 = performance.now();
for (let i = 0; i < steps; i++) await handle.run();
const wall = (performance.now() - t0) / steps;
const { spans, devices } = await sl.profiler.stopTrace();
handle.dispose();

// Leaf spans only (depth 1: a body's equations; a top-level equation outside any body), so nothing counts twice.
const leaves = spans.filter((s) => s.kind === 'wait' || s.depth === 1 || (s.depth === 0 && s.name !== 'shard_map'));
const by = new Map();
for (const s of leaves) {
  const key = s.kind === 'wait' ? `(wait in ${s.name})` : s.name;
  const e = by.get(key) ?? { ms: 0, count: 0 };
  e.ms += s.end - s.begin;
  e.count += 1;
  by.set(key, e);
}
// A collective's span holds its waits: its own work is the difference.
for (const [key, e] of by) {
  const m = /^\(wait in (.+)\)$/.exec(key);
  if (m && by.has(m[1])) by.get(m[1]).ms -= e.ms;
}
const busy = [...by.values()].reduce((t, e) => t + e.ms, 0);
const rows = [...by].sort((a, b) => b[1].ms - a[1].ms);
console.log(`${name}: ${wall.toFixed(1)} ms per step (wall), ${devices} devices, ${(busy / steps).toFixed(1)} device-ms per step recorded`);
console.log('primitive'.padEnd(28), 'device-ms/step'.padStart(15), 'share'.padStart(7), 'count/step'.padStart(11));
for (const [key, e] of rows) {
  console.log(key.padEnd(28), (e.ms / steps).toFixed(2).padStart(15), `${((100 * e.ms) / busy).toFixed(1)}%`.padStart(7), (e.count / steps).toFixed(1).padStart(11));
}
process.exit(0);
