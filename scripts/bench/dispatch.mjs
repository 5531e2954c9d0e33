// Dispatch and checker rows of `npm run bench` (in Node, and in Chromium
// through scripts/bench/page.html): the time per awaited call of the cached
// jit seed programs (the problems' reference solutions) against two
// references measured in the same run (a jit call holding one 1-float psum:
// the floor of a round trip to the devices; the same math in plain JS on one
// thread), and the time to check one submission of each problem. Returns
// rows {group, impl, case, size, unit, min, median}.
import * as sl from '../../web/lib/index.js';
import { checkSolution } from '../../web/checker/engine.js';
import { loadProblem, PROBLEM_IDS } from '../../web/checker/problems.js';
import stepSolution from '../../problems/data-parallel-step/solution.mjs';
import mlpSolution from '../../problems/tensor-parallel-mlp/solution.mjs';
import { atLevel, stats } from './stats.mjs';

const { P, lax } = sl;
// Where the rows are measured: Node, or a page (scripts/bench/page.html).
const env = typeof window === 'undefined' ? 'node' : 'page';
const disposeAll = (tree) => Object.values(tree).forEach((o) => o.dispose());

// Per-call microseconds of each case: `samples` rounds, each timing `reps`
// awaited calls of every case in turn, so that the machine's slow and fast
// moments fall on all cases alike and their ratios stay meaningful. The
// figures are for the steady state, as a training loop sees it: the cases
// are first called in turn for at least `warmUpMs`. For seconds after a
// module loads the engine still compiles in the background (its wasm
// tiers and the JS): in Node, its helper threads used about 80 µs of CPU
// per call over the first 3,000 calls and 3 µs later, and the psum call
// went from 240 to 150 µs; with 20 calls of warm-up Chromium still timed
// baseline code and put the step at 2x the psum call.
const WARM_UP_CALLS = 200;
async function timeInterleaved(cases, { reps, samples, warmUpMs }) {
  const t0 = performance.now();
  for (let round = 0; round < WARM_UP_CALLS || performance.now() - t0 < warmUpMs; round++) {
    for (const c of cases) await c.f();
  }
  const out = cases.map(() => []);
  for (let s = 0; s < samples; s++) {
    for (const [j, c] of cases.entries()) {
      const n = reps * (c.repeat ?? 1);
      const t1 = performance.now();
      for (let i = 0; i < n; i++) await c.f();
      out[j].push(((performance.now() - t1) * 1000) / n);
    }
  }
  return out.map(stats);
}

const rand = (n, seed) => Array.from({ length: n }, (_, i) => Math.sin(seed * 97 + i * 1.7));
const mat = (r, c, seed) => Array.from({ length: r }, (_, i) => rand(c, seed + i));

/** The dispatch rows. */
export async function dispatchRows({ level = 'full' } = {}) {
  await sl.init();
  // Many short samples: their median shrugs off the host's bursts better than few long ones.
  const reps = atLevel(level, { full: 100, quick: 40, smoke: 5 });
  const samples = atLevel(level, { full: 15, quick: 5 });
  const warmUpMs = atLevel(level, { full: 5000, quick: 1500, smoke: 200 });
  const mesh = sl.makeMesh([8], ['data']);
  const rows = [];
  const add = (impl, name, size, st) => rows.push({ group: 'dispatch', impl, case: name, size, unit: 'us/call', min: st.min, median: st.median });

  const psum = sl.jit((x) => sl.shardMap((b) => lax.psum(b, 'data'), { mesh, inSpecs: P(), outSpecs: P() })(x));
  const one = sl.array([1]);
  const [n, d, k] = [32, 4, 3];
  const step = sl.jit(stepSolution);
  const dp = { w: mat(d, k, 1), b: rand(k, 2), x: mat(n, d, 3), y: mat(n, k, 4) };
  const dpArgs = [sl.array(dp.w), sl.array(dp.b), sl.array(dp.x), sl.array(dp.y)];
  const [bb, dd, hh, oo] = [4, 5, 32, 4];
  const mlp = sl.jit(mlpSolution);
  const tp = { x: mat(bb, dd, 5), w1: mat(dd, hh, 6), b1: rand(hh, 7), w2: mat(hh, oo, 8), b2: rand(oo, 9) };
  const tpArgs = Object.values(tp).map((v) => sl.array(v));
  const dpSize = `N=${n},D=${d},K=${k}`;
  const tpSize = `B=${bb},D=${dd},H=${hh},O=${oo}`;
  const cases = [
    { impl: 'wasm-jit', name: 'psum-1-float', size: '1', f: async () => (await psum(one)).dispose() },
    { impl: 'wasm-jit', name: 'data-parallel-step', size: dpSize, f: async () => disposeAll(await step(...dpArgs, 0.1)) },
    { impl: 'plain-js', name: 'data-parallel-step', size: dpSize, f: async () => plainStep(dp, 0.1), repeat: 10 },
    { impl: 'wasm-jit', name: 'tensor-parallel-mlp', size: tpSize, f: async () => disposeAll(await mlp(...tpArgs)) },
    { impl: 'plain-js', name: 'tensor-parallel-mlp', size: tpSize, f: async () => plainMlp(tp), repeat: 10 },
  ];
  const times = await timeInterleaved(cases, { reps, samples, warmUpMs });
  cases.forEach((c, i) => add(c.impl, c.name, c.size, times[i]));

  for (const id of PROBLEM_IDS) {
    const problem = await loadProblem(id);
    const times = [];
    for (let s = 0; s < atLevel(level, { full: 5, quick: 2 }); s++) times.push((await checkSolution(problem, problem.solution, { seed: s })).timeMs * 1000);
    const st = stats(times);
    rows.push({ group: 'checker', impl: env, case: id, size: '23 cases', unit: 'us/check', min: st.min, median: st.median });
  }
  return rows;
}

// The data-parallel step in plain JS on one thread (float64 math).
function plainStep({ w, b, x, y }, lr) {
  const n = x.length;
  const gw = w.map((r) => r.map(() => 0));
  const gb = b.map(() => 0);
  let loss = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < b.length; j++) {
      let p = b[j];
      for (let t = 0; t < w.length; t++) p += x[i][t] * w[t][j];
      const e = p - y[i][j];
      loss += (e * e) / n;
      gb[j] += (2 * e) / n;
      for (let t = 0; t < w.length; t++) gw[t][j] += (2 * e * x[i][t]) / n;
    }
  }
  return { w: w.map((r, t) => r.map((v, j) => v - lr * gw[t][j])), b: b.map((v, j) => v - lr * gb[j]), loss };
}

// The MLP in plain JS on one thread.
function plainMlp({ x, w1, b1, w2, b2 }) {
  const hidden = x.map((row) => b1.map((bj, j) => Math.max(0, row.reduce((s, v, i) => s + v * w1[i][j], bj))));
  return { out: hidden.map((h) => b2.map((bk, kk) => h.reduce((s, v, j) => s + v * w2[j][kk], bk))), hidden };
}
