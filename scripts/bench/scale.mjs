// Scale rows of `npm run bench`: the problems' reference solutions at large
// sizes, time per awaited step with the data already on the devices, on 8
// devices and on a 1-device mesh, against plain Eigen on one native thread
// (tests/bench/scale_bench.cc). Cases: the data-parallel step (N=65536,
// D=256, K=16; x and y split by rows) and the tensor-parallel MLP forward
// (B=256, D=1024, H=4096, O=1024; w1 by columns, w2 by rows), and the MLP
// training step of the same sizes split alike (scripts/bench/mlp_step.mjs)
// written with shard_map and in the global view, partitioned: the
// partitioner's program against the hand-written one, on the same devices.
import { execFileSync, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { atLevel, RowSamples } from './stats.mjs';

const [N, D, K] = [65536, 256, 16];
const [B, DD, H, O] = [256, 1024, 4096, 1024];
const MLP = `B=${B},D=${DD},H=${H},O=${O}`;
const SIZES = {
  'data-parallel-step': `N=${N},D=${D},K=${K}`,
  'tensor-parallel-mlp': MLP,
  'mlp-train-step (shard_map)': MLP,
  'mlp-train-step (partitioned)': MLP,
};
// Deterministic data in [-1, 1] (scaled), without building nested JS arrays.
const filled = (n, scale) => Float32Array.from({ length: n }, (_, i) => (scale * (((i * 31) % 23) - 11)) / 11);

// In the child: puts both cases' data on `devices` devices, runs each once
// (the warm-up traces and builds the devices' frames), then answers every
// {case} message from the parent with the milliseconds of one more awaited
// step, until told to exit.
async function child(devices) {
  process.on('disconnect', () => process.exit(0)); // the parent is gone: do not linger with the device threads
  const sl = await import('../../web/lib/index.js');
  const { P, NamedSharding } = sl;
  const { default: step } = await import('../../problems/data-parallel-step/solution.mjs');
  const { default: mlp } = await import('../../problems/tensor-parallel-mlp/solution.mjs');
  await sl.init({ devices, memoryMB: 1024 });
  const place = (data, shape, mesh, spec) => sl.devicePut(sl.array(data, { shape }), new NamedSharding(mesh, spec));
  const dispose = (tree) => Object.values(tree).forEach((a) => a.dispose());
  const data = sl.makeMesh([devices], ['data']);
  const model = sl.makeMesh([devices], ['model']);
  const x = place(filled(N * D, 1), [N, D], data, P('data'));
  const y = place(filled(N * K, 1), [N, K], data, P('data'));
  const w = place(filled(D * K, 0.1), [D, K], data, P());
  const b = place(filled(K, 0.1), [K], data, P());
  const jstep = sl.jit(step);
  const xm = place(filled(B * DD, 1), [B, DD], model, P());
  const w1 = place(filled(DD * H, 0.05), [DD, H], model, P(null, 'model'));
  const b1 = place(filled(H, 0.1), [H], model, P('model'));
  const w2 = place(filled(H * O, 0.05), [H, O], model, P('model', null));
  const b2 = place(filled(O, 0.1), [O], model, P());
  const jmlp = sl.jit(mlp);
  // The training step's inputs placed by mlpSpecs over `mesh` (its weights are updated, so not shared with the forward case's).
  const { globalStep, mlpSpecs, shardMapStep } = await import('./mlp_step.mjs');
  const explicit = sl.makeMesh([devices], ['model'], { axisTypes: ['Explicit'] });
  const trainData = [
    [filled(DD * H, 0.05), [DD, H]],
    [filled(H, 0.1), [H]],
    [filled(H * O, 0.05), [H, O]],
    [filled(O, 0.1), [O]],
    [filled(B * DD, 1), [B, DD]],
    [filled(B * O, 1), [B, O]],
  ];
  const trainArgs = (mesh) => trainData.map(([d, shape], i) => place(d, shape, mesh, mlpSpecs('model')[i]));
  const [handArgs, globalArgs] = [trainArgs(model), trainArgs(explicit)];
  const [jhand, jglobal] = [sl.jit(shardMapStep(model)), sl.jit(globalStep)];
  const cases = {
    'data-parallel-step': () => jstep(w, b, x, y, 0.01),
    'tensor-parallel-mlp': () => jmlp(xm, w1, b1, w2, b2),
    'mlp-train-step (shard_map)': () => jhand(...handArgs),
    'mlp-train-step (partitioned)': () => jglobal(...globalArgs),
  };
  for (const f of Object.values(cases)) dispose(await f());
  process.on('message', async (m) => {
    if (m.exit) process.exit(0);
    const t0 = performance.now();
    dispose(await cases[m.case]());
    process.send({ ms: performance.now() - t0 });
  });
  process.send({ ready: true });
}

/** The next message from a forked child; rejects if the child dies first. */
const reply = (kid) =>
  new Promise((resolve, reject) => {
    const died = (code) => reject(new Error(`scale bench: the ${kid.spawnargs.at(-1)}-device child exited with code ${code}`));
    kid.once('exit', died);
    kid.once('message', (m) => {
      kid.off('exit', died);
      resolve(m);
    });
  });

/**
 * The scale rows ({group: 'scale', impl, case, size, unit: 'ms/step', min, median}).
 * The 8-device and the 1-device runtimes live in two child processes at once
 * (a runtime has a fixed number of devices; the idle one sleeps), and every
 * round times one step of each case on each, then the native reference, so
 * that the machine's slow moments fall on all three alike.
 */
export async function scaleRows({ level = 'full' } = {}) {
  execFileSync('cmake', ['--build', 'build/native', '--target', 'scale_bench'], { stdio: 'ignore' });
  const runtimes = [
    { impl: 'wasm-8-devices', devices: 8 },
    { impl: 'wasm-1-device', devices: 1 },
  ];
  const kids = runtimes.map(({ devices }) => fork(fileURLToPath(import.meta.url), ['--child', String(devices)], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] }));
  const samples = new RowSamples(); // ms per round
  const row = (impl, c) => ({ group: 'scale', impl, case: c, size: SIZES[c], unit: 'ms/step' });
  try {
    await Promise.all(kids.map(reply));
    for (let round = 0; round < atLevel(level, { full: 7, quick: 3 }); round++) {
      for (const c of Object.keys(SIZES)) {
        for (const [i, kid] of kids.entries()) {
          kid.send({ case: c });
          samples.add(row(runtimes[i].impl, c), (await reply(kid)).ms);
        }
      }
      for (const r of JSON.parse(execFileSync('build/native/tests/bench/scale_bench', ['1']).toString()).rows) samples.add(row('native-eigen-1-thread', r.case), r.median_ms);
    }
  } finally {
    for (const kid of kids) if (kid.connected) kid.send({ exit: true });
  }
  // By runtime, then case (rounds add them interleaved).
  const order = [...runtimes.map((r) => r.impl), 'native-eigen-1-thread'];
  return samples.rows().sort((a, b) => order.indexOf(a.impl) - order.indexOf(b.impl));
}

if (process.argv[2] === '--child') await child(Number(process.argv[3]));
