// npm run bench [-- --json FILE] [--svg FILE] [--quick | --smoke] [--groups a,b]: the benchmark suite:
// Python (Pyodide's start, Python checks against JS checks, the page's first
// Python result, a long lax.scan's trace, lowering and run; scripts/bench/python.mjs);
// psum latency and throughput (native, wasm, postMessage, plain-JS Atomics;
// from scripts/bench/collectives.mjs), the judge's stages on a 20,000-equation
// program (scripts/bench/judge.mjs), dispatch per jit call against its two
// references and the checker's time per problem (in Node and, through
// scripts/bench/page.html, in headless Chromium), the large data- and
// tensor-parallel cases on 8 devices vs 1 vs native Eigen, and the matmul
// kernel (wasm vs native, and each against its CPU's arithmetic ceiling), and
// ShardLab against its peers, TensorFlow.js (wasm) and jax-js, on the same
// work (scripts/bench/peers/). Each group runs in a process of its own
// (group.mjs): one that fails or hangs is a row saying so, the others run,
// and the run exits 1 at the end. Prints a table with the ratios, writes the
// rows as JSON ({"level", "ran": [the groups that ran], "failed": [{group,
// error}], "rows": [{group, impl, case, size, unit, min, median}]}) and draws
// an SVG chart of the medians.
// --quick takes fewer rounds; --smoke runs every row once (npm test runs it,
// so the bench cannot rot unseen); --groups runs only those groups. (scripts/bench/ab.mjs times two checkouts
// against each other, for refactors.)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chartSvg } from './chart.mjs';
import { GROUPS } from './group.mjs';

const args = process.argv.slice(2);
const opt = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : null);
const level = args.includes('--smoke') ? 'smoke' : args.includes('--quick') ? 'quick' : 'full';
const jsonFile = opt('--json') ?? 'build/bench/bench.json';
const svgFile = opt('--svg') ?? 'build/bench/bench.svg';
// The longest a group may take before it is counted as hung.
const GROUP_TIMEOUT_MS = { full: 40 * 60_000, quick: 15 * 60_000, smoke: 5 * 60_000 }[level];

const rows = [];
const ran = [];
const failed = [];
const configs = {};
const tmp = mkdtempSync(join(tmpdir(), 'shardlab-bench-'));
const only = opt('--groups')?.split(',');
const unknown = only?.filter((g) => !(g in GROUPS));
if (unknown?.length) {
  console.error(`bench: unknown group(s) ${unknown.join(', ')}; the groups are ${Object.keys(GROUPS).join(', ')}`);
  process.exit(2);
}
for (const name of only ?? Object.keys(GROUPS)) {
  const out = join(tmp, `${name}.json`);
  const t0 = Date.now();
  const r = spawnSync(process.execPath, ['scripts/bench/group.mjs', name, level, out], { stdio: ['ignore', 'inherit', 'inherit'], timeout: GROUP_TIMEOUT_MS });
  const result = existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : null;
  if (r.status === 0 && result?.rows) {
    rows.push(...result.rows);
    ran.push(name);
    if (result.configs) configs[name] = result.configs;
  } else {
    const how = r.error?.code === 'ETIMEDOUT' ? `hung past ${GROUP_TIMEOUT_MS / 60_000} min` : r.signal ? `killed by ${r.signal}` : `exit ${r.status}`;
    failed.push({ group: name, error: (result?.error ?? how).slice(0, 400) });
  }
  process.stderr.write(`bench: ${name} ${failed.at(-1)?.group === name ? 'FAILED' : 'done'} in ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
}

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
  if (r.group === 'scale' && r.case === 'mlp-train-step (partitioned)') {
    // The partitioner's step against the one written with shard_map, on the same runtime (the target: at least 0.8x its speed).
    const hand = find('scale', r.impl, 'mlp-train-step (shard_map)');
    return `${(hand.median / r.median).toFixed(2)}x the shard_map step's speed (target >= 0.8x)`;
  }
  if (r.group === 'scale' && r.impl !== 'wasm-8-devices') {
    const eight = find('scale', 'wasm-8-devices', r.case);
    return r.impl === 'wasm-1-device'
      ? `8 devices are ${(r.median / eight.median).toFixed(2)}x faster`
      : `8 wasm devices take ${(eight.median / r.median).toFixed(2)}x its time`;
  }
  if (r.group === 'judge') {
    // Each stage at 20,000 equations against itself at 5,000 (linear is 4x) and against the 0.5 s a stage may take.
    if (r.size !== '20000 equations') return '';
    const small = find('judge', r.impl, r.case, '5000 equations');
    return `${(r.median / small.median).toFixed(1)}x its 5,000-equation time; ${((r.median / 500) * 100).toFixed(0)}% of the 0.5 s bound`;
  }
  if (r.group === 'python') {
    // A Python check against the JS check of the same problem; the page's first result against the 8 s target.
    if (r.impl === 'node-python-check') return `${(r.median / find('python', 'node-js-check', r.case).median).toFixed(2)}x the JS check`;
    if (r.case === 'first-python-result') return `${((r.median / 8000) * 100).toFixed(0)}% of the 8 s target`;
    if (r.case === 'later-python-run') return `${((r.median / 1000) * 100).toFixed(0)}% of the 1 s target`;
    if (r.impl === 'node-scan') {
      // Trace and lower (a first call's time over a later one's) against the 50 ms target; each size against T=10,000.
      const ten = find('python', 'node-scan', r.case, 'T=10000');
      const vs = r.size === 'T=10000' ? '' : `${(r.median / ten.median).toFixed(2)}x T=10,000; `;
      if (r.case !== 'scan-first-call') return vs.replace(/; $/, '');
      const extra = r.median - find('python', 'node-scan', 'scan-later-call', r.size).median;
      return `${vs}trace + lower ${extra.toFixed(1)} ms, ${((extra / 50) * 100).toFixed(0)}% of the 50 ms target`;
    }
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
// A ratio against a row of a group that failed has nothing to compare with: it is left out.
const ratioOf = (r) => {
  try {
    return ratio(r);
  } catch {
    return '';
  }
};
console.log(['group', 'impl', 'case', 'size', 'unit', 'min', 'median', 'ratio'].join('\t'));
for (const r of rows) console.log([r.group, r.impl, r.case, r.size, r.unit, r.min.toFixed(1), r.median.toFixed(1), ratioOf(r)].join('\t'));
for (const f of failed) console.log([f.group, 'FAILED', '', '', '', '', '', f.error].join('\t'));
spawnSync('mkdir', ['-p', 'build/bench']);
writeFileSync(jsonFile, `${JSON.stringify({ level, ran, failed, rows }, null, 1)}\n`);
writeFileSync(svgFile, chartSvg(rows));
const ranAs = (c) => Object.entries(c ?? {}).map(([p, x]) => `${p}: ${x.backend}`).join('; ');
if (configs.peers || configs['peers-chromium']) console.log(`\npeers ran as, in Node: ${ranAs(configs.peers)}; in Chromium: ${ranAs(configs['peers-chromium'])}`);
console.log(`\nrows: ${jsonFile}\nchart: ${svgFile}`);
if (failed.length) console.log(`\n${failed.length} group(s) failed: ${failed.map((f) => f.group).join(', ')}`);
process.exit(failed.length ? 1 : 0);
