// npm run bench:collectives [-- --json FILE] [--level full|quick|smoke]
// psum latency (0 and 1 float per device) and throughput (2^10 .. 2^22 floats
// per device) on 8 devices, for three implementations measured in one run:
//   native       the C++ runtime built natively (tests/bench/collectives_bench)
//   wasm         the same code compiled to wasm, driven from Node
//   postmessage  8 worker_threads sending blocks to a coordinator that sums
//                them in device order and posts the result back
//   js-atomics   8 worker_threads over one SharedArrayBuffer, each summing its
//                slice of the result in plain JS, with an Atomics barrier
// Each figure is one job of many back-to-back psums divided by their number,
// repeated; min and median over the repetitions are reported.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { loadTestDevices } from '../../web/lib/testing.js';
import { repsFor, wasmPsumSamples } from './psum_wasm.mjs';
import { atLevel, stats } from './stats.mjs';

const args = process.argv.slice(2);
const jsonFile = args.includes('--json') ? args[args.indexOf('--json') + 1] : null;
const level = args.includes('--level') ? args[args.indexOf('--level') + 1] : 'full';
// 0 floats: one barrier round, the floor under every small collective.
const SIZES = [0, 1, 1 << 10, 1 << 16, 1 << 20, 1 << 22];
const REPETITIONS = atLevel(level, { full: 7, quick: 3 });

const rows = [];
const add = (impl, n, samplesUs) => rows.push({ impl, op: 'psum', floats_per_device: n, ...mapStats(stats(samplesUs)) });
const mapStats = ({ min, median }) => ({ min_us: min, median_us: median });

function benchNative() {
  const out = execFileSync(
    'build/native/tests/bench/collectives_bench',
    [`--benchmark_repetitions=${REPETITIONS}`, '--benchmark_format=json'],
    { encoding: 'utf8', maxBuffer: 64 << 20 },
  );
  // Aggregate rows may hold NaN (not JSON); the size is the benchmark's argument.
  const bench = JSON.parse(out.replace(/\bNaN\b/g, 'null')).benchmarks.filter((b) => b.run_type === 'iteration');
  for (const n of SIZES) {
    const samples = bench.filter((b) => Number(b.name.split('/')[1]) === n).map((b) => b.real_time);
    add('native', n, samples);
  }
}

async function benchWasm() {
  for (const { n, samples } of await wasmPsumSamples(loadTestDevices, SIZES, REPETITIONS, repsFor)) add('wasm', n, samples);
}

// One all-reduce job of `reps` rounds through a coordinator on this thread.
function postMessageJob(n, reps) {
  return new Promise((resolve) => {
    const workers = Array.from(
      { length: 8 },
      (_, device) => new Worker(new URL('./postmessage_worker.mjs', import.meta.url), { workerData: { n, reps, device } }),
    );
    let arrived = new Array(8);
    let count = 0;
    let done = 0;
    let t0 = 0;
    workers.forEach((w, d) => {
      w.on('message', (msg) => {
        if (msg === 'done') {
          if (++done === 8) {
            const ms = performance.now() - t0;
            Promise.all(workers.map((x) => x.terminate())).then(() => resolve(ms));
          }
          return;
        }
        arrived[d] = msg;
        if (++count < 8) return;
        // Sum in device order, as the other implementations do, then send back.
        const sum = new Float32Array(arrived[0]);
        for (let k = 1; k < 8; k++) {
          const b = arrived[k];
          for (let i = 0; i < n; i++) sum[i] += b[i];
        }
        count = 0;
        arrived = new Array(8);
        for (const x of workers) x.postMessage(sum);
      });
    });
    // Start once all workers are up, so start-up is not timed.
    Promise.all(workers.map((w) => new Promise((r) => w.once('online', r)))).then(() => {
      t0 = performance.now();
      for (const w of workers) w.postMessage('start');
    });
  });
}

async function benchPostMessage() {
  for (const n of SIZES) {
    const reps = Math.max(3, Math.round(repsFor(n) / (n >= 1 << 20 ? 4 : 1)));
    const samples = [];
    for (let r = 0; r < REPETITIONS; r++) samples.push(((await postMessageJob(n, reps)) * 1000) / reps);
    add('postmessage', n, samples);
  }
}

// One job of `reps` all-reduces by the plain-JS SharedArrayBuffer baseline;
// resolves to device 0's time for them (all devices start together).
function atomicsJob(n, reps) {
  const devices = 8;
  const sab = new SharedArrayBuffer(8 + (devices + 1) * n * 4);
  const workers = Array.from(
    { length: devices },
    (_, device) => new Worker(new URL('./atomics_worker.mjs', import.meta.url), { workerData: { sab, n, reps, device, devices } }),
  );
  return Promise.all(workers.map((w) => new Promise((r) => w.once('online', r)))).then(async () => {
    const times = workers.map((w) => new Promise((r) => w.once('message', r)));
    for (const w of workers) w.postMessage('start');
    const ms = Math.max(...(await Promise.all(times)));
    await Promise.all(workers.map((w) => w.terminate()));
    return ms;
  });
}

async function benchAtomics() {
  for (const n of SIZES) {
    const reps = repsFor(n);
    const samples = [];
    for (let r = 0; r < REPETITIONS; r++) samples.push(((await atomicsJob(n, reps)) * 1000) / reps);
    add('js-atomics', n, samples);
  }
}

benchNative();
await benchWasm();
await benchPostMessage();
await benchAtomics();

// The table, with the ratios the targets are stated in.
const get = (impl, n) => rows.find((r) => r.impl === impl && r.floats_per_device === n);
const pad = (s, w) => String(s).padStart(w);
console.log(`\npsum on 8 devices (${REPETITIONS} repetitions; microseconds per psum)`);
console.log(
  `${pad('floats/dev', 10)} ${pad('native min', 11)} ${pad('median', 9)} ${pad('wasm min', 10)} ${pad('median', 9)} ${pad('postMsg min', 12)} ${pad('median', 9)} ${pad('jsAtom min', 11)} ${pad('median', 9)}  ${pad('wasm/native', 11)} ${pad('postMsg/wasm', 12)} ${pad('jsAtom/wasm', 11)} ${pad('wasm GB/s', 9)}`,
);
for (const n of SIZES) {
  const [nat, wasm, pm, ja] = ['native', 'wasm', 'postmessage', 'js-atomics'].map((i) => get(i, n));
  const gbs = (8 * n * 4) / (wasm.median_us * 1e-6) / 1e9;
  console.log(
    `${pad(n, 10)} ${pad(nat.min_us.toFixed(1), 11)} ${pad(nat.median_us.toFixed(1), 9)} ${pad(wasm.min_us.toFixed(1), 10)} ${pad(wasm.median_us.toFixed(1), 9)} ${pad(pm.min_us.toFixed(1), 12)} ${pad(pm.median_us.toFixed(1), 9)} ${pad(ja.min_us.toFixed(1), 11)} ${pad(ja.median_us.toFixed(1), 9)}  ${pad((wasm.median_us / nat.median_us).toFixed(2) + 'x', 11)} ${pad((pm.median_us / wasm.median_us).toFixed(1) + 'x', 12)} ${pad((ja.median_us / wasm.median_us).toFixed(1) + 'x', 11)} ${pad(gbs.toFixed(1), 9)}`,
  );
}
console.log('wasm/native: time ratio (target <= 1.3 at 1 float, throughput >= 0.8x native at 2^20, i.e. ratio <= 1.25);');
console.log('postMsg/wasm: how much slower the postMessage baseline is (targets >= 3 at 1 float, >= 30 at 2^20);');
console.log('jsAtom/wasm: how much slower the plain-JS SharedArrayBuffer + Atomics baseline is;');
console.log('wasm GB/s: input bytes (8 * n * 4) per second (target >= 35 at 2^20).');
if (jsonFile) {
  writeFileSync(jsonFile, JSON.stringify({ rows }, null, 2));
  console.log(`wrote ${jsonFile}`);
}
