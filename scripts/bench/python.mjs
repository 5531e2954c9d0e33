// Python rows of `npm run bench` (group 'python'): Pyodide's start with the
// jax package in Node (a fresh process each time) and in the page; a Python
// check of each problem against the JS check of the same problem, both with
// their runtime already up (Node, in-process sandboxes, interleaved); and in
// the checker page (build/app in headless Chromium) the time from opening a
// problem in Python to its first result, Pyodide's start included, and the
// later Runs; and a lax.scan of 1,000 to 100,000 steps traced, called first
// and called again (scanRows). Returns rows {group, impl, case, size, unit, min, median}.
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { atLevel, RowSamples, stats } from './stats.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const PORT = Number(process.env.SHARDLAB_BENCH_PY_PORT ?? 8398);
const PROBLEM_IDS = ['device-mesh-named-sharding', 'data-parallel-step', 'tensor-parallel-mlp', 'ring-allreduce-ppermute'];

// The milliseconds a fresh Node process takes to start Python with the package.
function nodeStartMs() {
  const dir = mkdtempSync(join(tmpdir(), 'shardlab-py-start-'));
  const script = join(dir, 'start.mjs');
  writeFileSync(
    script,
    `import { startNodePython } from '${root}web/python/node_python.js';
const t0 = performance.now();
const py = await startNodePython();
py.runPython('import jax');
console.log(performance.now() - t0);
process.exit(0);
`,
  );
  return Number(execFileSync(process.execPath, [script], { encoding: 'utf8' }).trim());
}

/** Per problem, JS and Python check times (ms) with both runtimes up, interleaved. */
export async function nodeCheckRows(rounds) {
  const sl = await import('../../web/lib/index.js');
  const { checkSolution } = await import('../../web/checker/engine.js');
  const { loadProblem } = await import('../../web/checker/problems.js');
  const { startNodePython } = await import('../../web/python/node_python.js');
  const { pythonSolution } = await import('../../web/python/solution.js');
  await sl.init();
  const py = await startNodePython();
  const rows = [];
  for (const id of PROBLEM_IDS) {
    const problem = await loadProblem(id);
    const source = readFileSync(`${root}problems/${id}/solution.py`, 'utf8');
    const js = [];
    const python = [];
    for (let r = 0; r < rounds + 1; r++) {
      const t0 = performance.now();
      await checkSolution(problem, problem.solution, { seed: r });
      const t1 = performance.now();
      const fn = pythonSolution(py, source, 'solution.py', problem.functionName);
      await checkSolution(problem, fn, { seed: r, lang: 'python' });
      const t2 = performance.now();
      fn.dispose();
      if (r === 0) continue; // the first round warms both up
      js.push(t1 - t0);
      python.push(t2 - t1);
    }
    rows.push({ group: 'python', impl: 'node-js-check', case: id, size: '23 cases', unit: 'ms/check', ...stats(js) });
    rows.push({ group: 'python', impl: 'node-python-check', case: id, size: '23 cases', unit: 'ms/check', ...stats(python) });
  }
  return rows;
}

// In the built page: Pyodide's start, the first Python result after opening a problem, and later Runs.
async function pageRows(rounds) {
  execFileSync('npx', ['vite', 'build', '--config', 'web/app/vite.config.js', '--logLevel', 'error'], { cwd: root, stdio: 'inherit' });
  const server = spawn(process.execPath, ['scripts/serve.mjs', '--port', String(PORT)], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  await once(server.stdout, 'data');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  const code = readFileSync(`${root}problems/data-parallel-step/solution.py`, 'utf8');
  const start = [];
  const first = [];
  const later = [];
  try {
    for (let r = 0; r < rounds; r++) {
      const page = await browser.newPage();
      // The learner's code is in the editor already (as localStorage keeps it), so opening the problem is all it takes.
      await page.goto(`http://127.0.0.1:${PORT}/build/app/index.html`);
      await page.evaluate((c) => localStorage.setItem('shardlab.code.data-parallel-step.python', c), code);
      const t0 = Date.now();
      await page.goto(`http://127.0.0.1:${PORT}/build/app/index.html#/problem/data-parallel-step?lang=python`);
      await page.click('#run');
      const ready = page.locator('#python-status').filter({ hasText: 'Python ready' }).waitFor({ timeout: 120000 }).then(() => Date.now() - t0);
      await page.locator('#results[data-reports="1"]').waitFor({ timeout: 120000 });
      first.push(Date.now() - t0);
      start.push(await ready);
      // Each check has a fresh interpreter: a later Run is timed once the next one is ready, as a learner
      // editing between Runs finds it. The page counts the reports it draws: the next one is the Run's.
      for (let k = 0; k < 3; k++) {
        await page.locator('#python-status').filter({ hasText: 'Python ready' }).waitFor({ timeout: 120000 });
        const drawn = Number((await page.locator('#results').getAttribute('data-reports')) ?? 0);
        const t1 = Date.now();
        await page.click('#run');
        await page.locator(`#results[data-reports="${drawn + 1}"]`).waitFor({ timeout: 60000 });
        later.push(Date.now() - t1);
      }
      await page.close();
    }
  } finally {
    await browser.close();
    server.kill();
  }
  const row = (c, xs) => ({ group: 'python', impl: 'page', case: c, size: 'data-parallel-step', unit: 'ms', ...stats(xs) });
  return [row('pyodide-start', start), row('first-python-result', first), row('later-python-run', later)];
}

// A scan of T steps in Python: tracing it (make_jaxpr), a jit's first call
// (trace, lower to a while over the steps, run) and a later call (run only).
// Lowering keeps the program the size of the body, so the first call's extra
// over a later one (trace + lower) must not grow with T; the runs grow linearly.
const SCAN_SOURCE = `
import time, jax, jax.numpy as jnp
def ema(xs):
    def step(c, x):
        c = 0.9 * c + jnp.sin(x)
        return c, c * c
    return jax.lax.scan(step, jnp.zeros(()), xs)
def scan_times(T):
    xs = jnp.linspace(0.0, 1.0, T)
    t0 = time.perf_counter()
    jax.make_jaxpr(ema)(xs)
    t1 = time.perf_counter()
    f = jax.jit(ema)
    float(f(xs)[0])
    t2 = time.perf_counter()
    float(f(xs)[0])
    t3 = time.perf_counter()
    return [(t1 - t0) * 1000, (t2 - t1) * 1000, (t3 - t2) * 1000]
`;
/** The scan rows: `rounds` (after a warm-up) in a fresh Node process whose engine blocks, as `shardlab run`'s. */
export function scanRows(rounds) {
  const dir = mkdtempSync(join(tmpdir(), 'shardlab-py-scan-'));
  const script = join(dir, 'scan.mjs');
  writeFileSync(
    script,
    `import * as sl from '${root}web/lib/index.js';
import { startNodePython } from '${root}web/python/node_python.js';
await sl.init({ blocking: true }); // Python reads results synchronously
const py = await startNodePython();
py.runPython(${JSON.stringify(SCAN_SOURCE)});
const samples = [];
for (let r = 0; r < ${rounds + 1}; r++)
  for (const T of [1000, 10000, 100000]) {
    const times = py.runPython('scan_times(' + T + ')').toJs();
    if (r > 0) samples.push([T, ...times]); // the first round warms up
  }
console.log(JSON.stringify(samples));
process.exit(0);
`,
  );
  const rows = new RowSamples();
  for (const [T, trace, first, later] of JSON.parse(execFileSync(process.execPath, [script], { encoding: 'utf8' }).trim().split('\n').at(-1))) {
    const row = (c) => ({ group: 'python', impl: 'node-scan', case: c, size: `T=${T}`, unit: 'ms' });
    rows.add(row('scan-trace'), trace);
    rows.add(row('scan-first-call'), first);
    rows.add(row('scan-later-call'), later);
  }
  return rows.rows();
}

/** The Python rows. */
export async function pythonRows({ level = 'full' } = {}) {
  const starts = Array.from({ length: atLevel(level, { full: 4, quick: 2 }) }, nodeStartMs);
  return [
    { group: 'python', impl: 'node', case: 'pyodide-start', size: 'jax package', unit: 'ms', ...stats(starts) },
    ...(await nodeCheckRows(atLevel(level, { full: 4, quick: 2 }))),
    ...scanRows(atLevel(level, { full: 4, quick: 2 })),
    ...(await pageRows(atLevel(level, { full: 3, quick: 1 }))),
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const r of await pythonRows({ level: process.argv.includes('--quick') ? 'quick' : 'full' })) console.log(JSON.stringify(r));
  process.exit(0);
}
