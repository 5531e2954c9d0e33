// Scale rows of `npm run bench`: the problems' reference solutions at large
// sizes, time per awaited step with the data already on the devices, on 8
// devices and on a 1-device mesh (each in its own process: a runtime has a
// fixed number of devices), against plain Eigen on one native thread
// (tests/bench/scale_bench.cc). Cases: the data-parallel step (N=65536,
// D=256, K=16; x and y split by rows) and the tensor-parallel MLP forward
// (B=256, D=1024, H=4096, O=1024; w1 by columns, w2 by rows).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { stats } from './stats.mjs';

const [N, D, K] = [65536, 256, 16];
const [B, DD, H, O] = [256, 1024, 4096, 1024];
const SIZES = { 'data-parallel-step': `N=${N},D=${D},K=${K}`, 'tensor-parallel-mlp': `B=${B},D=${DD},H=${H},O=${O}` };
// Deterministic data in [-1, 1] (scaled), without building nested JS arrays.
const filled = (n, scale) => Float32Array.from({ length: n }, (_, i) => (scale * (((i * 31) % 23) - 11)) / 11);

// In the child: time both cases on `devices` devices; prints JSON rows.
async function child(devices, repetitions) {
  const sl = await import('../../web/lib/index.js');
  const { P, NamedSharding } = sl;
  const { default: step } = await import('../../problems/data-parallel-step/solution.mjs');
  const { default: mlp } = await import('../../problems/tensor-parallel-mlp/solution.mjs');
  await sl.init({ devices, memoryMB: 1024 });
  const place = (data, shape, mesh, spec) => sl.devicePut(sl.array(data, { shape }), new NamedSharding(mesh, spec));
  const dispose = (tree) => Object.values(tree).forEach((a) => a.dispose());
  const time = async (f) => {
    dispose(await f()); // warm-up: traces, and builds the devices' frames
    const ms = [];
    for (let r = 0; r < repetitions; r++) {
      const t0 = performance.now();
      dispose(await f());
      ms.push(performance.now() - t0);
    }
    return stats(ms);
  };
  const data = sl.makeMesh([devices], ['data']);
  const model = sl.makeMesh([devices], ['model']);
  const x = place(filled(N * D, 1), [N, D], data, P('data'));
  const y = place(filled(N * K, 1), [N, K], data, P('data'));
  const w = place(filled(D * K, 0.1), [D, K], data, P());
  const b = place(filled(K, 0.1), [K], data, P());
  const jstep = sl.jit(step);
  const rows = [{ case: 'data-parallel-step', ...(await time(() => jstep(w, b, x, y, 0.01))) }];
  const xm = place(filled(B * DD, 1), [B, DD], model, P());
  const w1 = place(filled(DD * H, 0.05), [DD, H], model, P(null, 'model'));
  const b1 = place(filled(H, 0.1), [H], model, P('model'));
  const w2 = place(filled(H * O, 0.05), [H, O], model, P('model', null));
  const b2 = place(filled(O, 0.1), [O], model, P());
  const jmlp = sl.jit(mlp);
  rows.push({ case: 'tensor-parallel-mlp', ...(await time(() => jmlp(xm, w1, b1, w2, b2))) });
  console.log(JSON.stringify(rows));
}

/** The scale rows ({group: 'scale', impl, case, size, unit: 'ms/step', min, median}). */
export function scaleRows({ quick = false } = {}) {
  const repetitions = quick ? 3 : 7;
  const rows = [];
  for (const devices of [8, 1]) {
    const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--child', String(devices), String(repetitions)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    for (const r of JSON.parse(out.toString().trim().split('\n').pop())) {
      rows.push({ group: 'scale', impl: devices === 8 ? 'wasm-8-devices' : 'wasm-1-device', case: r.case, size: SIZES[r.case], unit: 'ms/step', min: r.min, median: r.median });
    }
  }
  execFileSync('cmake', ['--build', 'build/native', '--target', 'scale_bench'], { stdio: 'ignore' });
  for (const r of JSON.parse(execFileSync('build/native/tests/bench/scale_bench').toString()).rows) {
    rows.push({ group: 'scale', impl: 'native-eigen-1-thread', case: r.case, size: SIZES[r.case], unit: 'ms/step', min: r.min_ms, median: r.median_ms });
  }
  return rows;
}

if (process.argv[2] === '--child') {
  await child(Number(process.argv[3]), Number(process.argv[4]));
  process.exit(0);
}
