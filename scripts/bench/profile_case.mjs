// Where a peer case's time goes on ShardLab's 8 devices (issue 22's
// question), from sl.profiler's timeline of a few steps after a warm-up:
// per primitive, the time its equations took summed over the devices and
// its share of the devices' recorded time (each span's own time, so nothing
// counts twice), with the waits at barriers apart;
// and the wall time per step.
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

// Each span's own time (its length less the spans it holds), by primitive:
// a collective's without its waits, a body's (the executor's own work) as shard_map.
const own = sl.profiler.ownTimes(spans);
const by = new Map();
spans.forEach((s, i) => {
  const key = s.kind === 'wait' ? `(wait in ${s.name})` : s.name;
  const e = by.get(key) ?? { ms: 0, count: 0 };
  e.ms += own[i];
  e.count += 1;
  by.set(key, e);
});
const busy = [...by.values()].reduce((t, e) => t + e.ms, 0);
const rows = [...by].sort((a, b) => b[1].ms - a[1].ms);
console.log(`${name}: ${wall.toFixed(1)} ms per step (wall), ${devices} devices, ${(busy / steps).toFixed(1)} device-ms per step recorded`);
console.log('primitive'.padEnd(28), 'device-ms/step'.padStart(15), 'share'.padStart(7), 'count/step'.padStart(11));
for (const [key, e] of rows) {
  console.log(key.padEnd(28), (e.ms / steps).toFixed(2).padStart(15), `${((100 * e.ms) / busy).toFixed(1)}%`.padStart(7), (e.count / steps).toFixed(1).padStart(11));
}
process.exit(0);
