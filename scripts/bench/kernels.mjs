// Kernel rows of `npm run bench`: float32 matmul GFLOP/s on one thread at
// 256^3 and 1024^3 (tests/bench/matmul_bench.cc, dot_general's kernel),
// built on demand in six variants:
//   native         Eigen with the build's flags (-march=native: AVX-512 here)
//   native-sse4.2  Eigen with SSE4.2 and no FMA: the vector width wasm has
//   wasm           our blocked SIMD128 kernel (what dot_general runs in
//                  engines without relaxed SIMD: Node 20)
//   wasm-fma       the same blocking with relaxed SIMD's fused multiply-add
//                  (cpp/platform/fused_kernel.js; what dot_general runs in
//                  Chromium and Node >= 22; Node 20 here, with its flag)
//   wasm-eigen     Eigen compiled with -msimd128 (Eigen 3.4 has no packet path for it)
//   wasm-eigen-sse Eigen's SSE path through Emscripten's SSE-to-SIMD128 headers
// and the CPU's three arithmetic ceilings (tests/bench/peak_bench.cc): a
// register tile of 128-bit multiplies and adds (the most a SIMD128 kernel
// can get without fused multiply-adds), of 128-bit FMA (the most with
// relaxed SIMD) and of the widest FMA (native Eigen's).
// The variants run in interleaved rounds, one repetition each per round, so
// that a burst of load on a shared machine hits them all alike and the
// ratios between them hold.
import { execFileSync } from 'node:child_process';
import { atLevel, RowSamples } from './stats.mjs';

const VARIANTS = [
  { impl: 'native', build: 'native', target: 'matmul_bench' },
  { impl: 'native-sse4.2', build: 'native', target: 'matmul_bench_sse' },
  { impl: 'wasm', build: 'wasm', target: 'matmul_bench', fused: false, node: ['--no-experimental-wasm-relaxed-simd'] },
  { impl: 'wasm-fma', build: 'wasm', target: 'matmul_bench', fused: true, node: ['--experimental-wasm-relaxed-simd'] },
  { impl: 'wasm-eigen', build: 'wasm', target: 'matmul_bench_eigen' },
  { impl: 'wasm-eigen-sse', build: 'wasm', target: 'matmul_bench_sse' },
];
const PEAK = { build: 'native', target: 'peak_bench' };

/**
 * Runs one benchmark binary (natively or, for the wasm build, under this
 * Node with the variant's flags) and parses its JSON; checks that the
 * matmul kernel it ran is the variant's (fused multiply-adds or not).
 */
function run({ build, target, impl, fused, node = [] }, args) {
  const bin = `build/${build}/tests/bench/${target}`;
  const out = build === 'native' ? execFileSync(bin, args) : execFileSync(process.execPath, [...node, `${bin}.js`, ...args]);
  const result = JSON.parse(out.toString());
  if (fused !== undefined && result.fused !== fused) {
    throw new Error(`kernels: the ${impl} row ran the ${result.fused ? 'fused' : 'SIMD128'} kernel; this Node ${fused ? 'lacks relaxed SIMD' : 'runs relaxed SIMD by default'}`);
  }
  return result.rows;
}

/** The kernel rows ({group: 'kernels', impl, case: 'matmul' | 'peak', size, unit: 'GFLOP/s', min, median}). */
export function kernelRows({ level = 'full' } = {}) {
  for (const build of ['native', 'wasm']) {
    const targets = [...VARIANTS, PEAK].filter((v) => v.build === build).map((v) => v.target);
    execFileSync('cmake', ['--build', `build/${build}`, '-j', '2', '--target', ...targets], { stdio: 'ignore' });
  }
  const samples = new RowSamples(); // GFLOP/s per round
  const row = (impl, c, size) => ({ group: 'kernels', impl, case: c, size, unit: 'GFLOP/s' });
  for (let round = 0; round < atLevel(level, { full: 5, quick: 2 }); ++round) {
    for (const v of VARIANTS) for (const r of run(v, [v.impl, '1'])) samples.add(row(v.impl, 'matmul', `${r.size}^3`), r.median_gflops);
    for (const r of run(PEAK, [])) samples.add(row(r.impl, 'peak', 'registers'), r.median_gflops);
  }
  // Higher is better: "min" is the slowest round's throughput.
  return samples.rows();
}
