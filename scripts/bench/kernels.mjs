// Kernel rows of `npm run bench`: float32 matmul GFLOP/s on one thread at
// 256^3 and 1024^3 (tests/bench/matmul_bench.cc, dot_general's kernel),
// built on demand in five variants and run in one go:
//   native         Eigen with the build's flags (-march=native: AVX-512 here)
//   native-sse4.2  Eigen with SSE4.2 and no FMA: the vector width wasm has
//   wasm           our blocked SIMD128 kernel (what dot_general runs in wasm)
//   wasm-eigen     Eigen compiled with -msimd128 (Eigen 3.4 has no packet path for it)
//   wasm-eigen-sse Eigen's SSE path through Emscripten's SSE-to-SIMD128 headers
import { execFileSync } from 'node:child_process';

const VARIANTS = [
  { impl: 'native', build: 'native', target: 'matmul_bench' },
  { impl: 'native-sse4.2', build: 'native', target: 'matmul_bench_sse' },
  { impl: 'wasm', build: 'wasm', target: 'matmul_bench' },
  { impl: 'wasm-eigen', build: 'wasm', target: 'matmul_bench_eigen' },
  { impl: 'wasm-eigen-sse', build: 'wasm', target: 'matmul_bench_sse' },
];

/** The kernel rows ({group: 'kernels', impl, case: 'matmul', size, unit: 'GFLOP/s', min, median}). */
export function kernelRows() {
  for (const build of ['native', 'wasm']) {
    const targets = VARIANTS.filter((v) => v.build === build).map((v) => v.target);
    execFileSync('cmake', ['--build', `build/${build}`, '-j', '2', '--target', ...targets], { stdio: 'ignore' });
  }
  const rows = [];
  for (const v of VARIANTS) {
    const bin = `build/${v.build}/tests/bench/${v.target}`;
    const out = v.build === 'native' ? execFileSync(bin, [v.impl]) : execFileSync(process.execPath, [`${bin}.js`, v.impl]);
    for (const r of JSON.parse(out.toString()).rows) {
      // Higher is better: "min" is the slowest repetition's throughput.
      rows.push({ group: 'kernels', impl: v.impl, case: 'matmul', size: `${r.size}^3`, unit: 'GFLOP/s', min: r.min_gflops, median: r.median_gflops });
    }
  }
  return rows;
}
