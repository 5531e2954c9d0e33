// npm run bench [-- --json FILE] [--svg FILE] [--quick]: the benchmark suite:
// Python (Pyodide's start, Python checks against JS checks, the page's first
// Python result; scripts/bench/python.mjs);
// psum latency and throughput (native, wasm, postMessage, plain-JS Atomics;
// from scripts/bench/collectives.mjs), dispatch per jit call against its two
// references and the checker's time per problem (in Node and, through
// scripts/bench/page.html, in headless Chromium), the large data- and
// tensor-parallel cases on 8 devices vs 1 vs native Eigen, and the matmul
// kernel (wasm vs native, and each against its CPU's arithmetic ceiling), and
// ShardLab against its peers, TensorFlow.js (wasm) and jax-js, on the same
// work (scripts/bench/peers/). Prints a table with the
// ratios, writes the rows as JSON ({"rows": [{group, impl, case, size, unit,
// min, median}]}) and draws an SVG chart of the medians. (scripts/bench/ab.mjs
// times two checkouts against each other, for refactors.)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dispatchRows } from './dispatch.mjs';
import { kernelRows } from './kernels.mjs';
import { scaleRows } from './scale.mjs';
import { chartSvg } from './chart.mjs';
import { chromiumRows } from './chromium.mjs';
import { pythonRows } from './python.mjs';
import { peerChromiumRows, peerRows } from './peers/index.mjs';

const args = process.argv.slice(2);
const opt = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : null);
const quick = args.includes('--quick');
const jsonFile = opt('--json') ?? 'build/bench/bench.json';
const svgFile = opt('--svg') ?? 'build/bench/bench.svg';

const tmp = join(mkdtempSync(join(tmpdir(), 'shardlab-bench-')), 'collectives.json');
execFileSync(process.execPath, ['scripts/bench/collectives.mjs', '--json', tmp, ...(quick ? ['--quick'] : [])], { stdio: ['ignore', 'ignore', 'inherit'] });
const collectives = JSON.parse(readFileSync(tmp, 'utf8')).rows.map((r) => ({
  group: 'collectives',
  impl: r.impl,
  case: r.op,
  size: String(r.floats_per_device),
  unit: 'us/psum',
  min: r.min_us,
  median: r.median_us,
}));
const rows = [
  ...collectives,
  ...(await dispatchRows({ quick })),
  ...(await chromiumRows({ quick })),
  ...(await scaleRows({ quick })),
  ...kernelRows({ quick }),
  ...(await pythonRows({ quick })),
];
// The peers in Node, then in Chromium: what each library ran is printed with the table.
const peers = await peerRows({ quick });
const peersChromium = await peerChromiumRows({ quick });
rows.push(...peers.rows, ...peersChromium.rows);

const find = (group, impl, c, size) => rows.find((r) => r.group === group && r.impl === impl && r.case === c && (size === undefined || r.size === size));
const ratio = (r) => {
  if (r.group === 'collectives' && r.impl !== 'wasm') {
    const w = find('collectives', 'wasm', r.case, r.size);
    return w ? `${(r.median / w.median).toFixed(2)}x wasm` : '';
  }
  if (r.group === 'dispatch' && r.case !== 'psum-1-float') {
    // Against the floor measured in the same environment.
    const floor = find('dispatch', r.impl.endsWith('-chromium') ? 'wasm-jit-chromium' : 'wasm-jit', 'psum-1-float');
    return `${(r.median / floor.median).toFixed(2)}x the 1-float psum call`;
  }
  if (r.group === 'scale' && r.impl !== 'wasm-8-devices') {
    const eight = find('scale', 'wasm-8-devices', r.case);
    return r.impl === 'wasm-1-device'
      ? `8 devices are ${(r.median / eight.median).toFixed(2)}x faster`
      : `8 wasm devices take ${(eight.median / r.median).toFixed(2)}x its time`;
  }
  if (r.group === 'python') {
    // A Python check against the JS check of the same problem; the page's first result against the 8 s target.
    if (r.impl === 'node-python-check') return `${(r.median / find('python', 'node-js-check', r.case).median).toFixed(2)}x the JS check`;
    if (r.case === 'first-python-result') return `${((r.median / 8000) * 100).toFixed(0)}% of the 8 s target`;
    if (r.case === 'later-python-run') return `${((r.median / 1000) * 100).toFixed(0)}% of the 1 s target`;
    return '';
  }
  if (r.group === 'peers') {
    // ShardLab against the fastest peer in the same engine (higher GFLOP/s, fewer ms or us, is faster).
    const engine = r.impl.endsWith('-chromium') ? '-chromium' : '';
    const same = rows.filter((x) => x.group === 'peers' && x.case === r.case && x.impl.endsWith(engine) && (engine || !x.impl.endsWith('-chromium')));
    const speed = (x) => (x.unit === 'GFLOP/s' ? x.median : 1 / x.median);
    const ours = same.find((x) => x.impl === `shardlab${engine}`);
    const best = same.filter((x) => x !== ours).sort((a, b) => speed(b) - speed(a))[0];
    if (!ours || !best) return '';
    return r === ours ? `${(speed(ours) / speed(best)).toFixed(2)}x the fastest peer (${best.impl})` : `ShardLab is ${(speed(ours) / speed(r)).toFixed(2)}x as fast`;
  }
  if (r.group === 'kernels') {
    // Against native Eigen, and against the ceiling of the arithmetic each one
    // uses: 128-bit multiply-then-add (SIMD128), 128-bit FMA (relaxed SIMD), the widest FMA (native).
    const peak = (impl) => find('kernels', impl, 'peak');
    const [mulAdd128, fma128] = [peak('native-peak-128bit-mul-add'), peak('native-peak-128bit-fma')];
    const wide = rows.find((x) => x.group === 'kernels' && x.case === 'peak' && /^native-peak-avx.*-fma$/.test(x.impl));
    // The median round against the ceiling's median, then the best round (what the target counts).
    const pct = (p) => (p ? `${((r.median / p.median) * 100).toFixed(0)}% of ${p.impl} (best round ${((r.max / p.median) * 100).toFixed(0)}%)` : '');
    if (r.case === 'peak') return r !== wide && wide ? `${(r.median / wide.median).toFixed(2)}x ${wide.impl}` : '';
    if (r.impl === 'native') return pct(wide);
    if (!r.impl.startsWith('wasm')) return pct(mulAdd128);
    const [avx, sse] = ['native', 'native-sse4.2'].map((i) => find('kernels', i, r.case, r.size));
    const ceiling = r.impl === 'wasm-fma' ? fma128 : mulAdd128;
    return `${(r.median / avx.median).toFixed(2)}x native, ${(r.median / sse.median).toFixed(2)}x native-sse4.2, ${pct(ceiling)}`;
  }
  return '';
};
console.log(['group', 'impl', 'case', 'size', 'unit', 'min', 'median', 'ratio'].join('\t'));
for (const r of rows) console.log([r.group, r.impl, r.case, r.size, r.unit, r.min.toFixed(1), r.median.toFixed(1), ratio(r)].join('\t'));
execFileSync('mkdir', ['-p', 'build/bench']);
writeFileSync(jsonFile, `${JSON.stringify({ rows }, null, 1)}\n`);
writeFileSync(svgFile, chartSvg(rows));
const ranAs = (configs) => Object.entries(configs).map(([p, c]) => `${p}: ${c.backend}`).join('; ');
console.log(`\npeers ran as, in Node: ${ranAs(peers.configs)}; in Chromium: ${ranAs(peersChromium.configs)}`);
console.log(`\nrows: ${jsonFile}\nchart: ${svgFile}`);
process.exit(0);
