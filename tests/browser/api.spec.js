// The shardlab API in headless Chromium: the data-parallel example on 8 Web
// Worker devices while the page's timer keeps ticking, the API inside a
// module Web Worker, the package bundled by Vite into a static app, the
// lockstep fallback, and products with fused multiply-adds.
import { mkdirSync, symlinkSync, existsSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from './fixtures.js';
import { build } from 'vite';
import { longestTasks, mainThreadTasksDuring } from './main_thread.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

test('the data-parallel example runs while the main thread keeps ticking', { tag: '@alone' }, async ({ browser, page }) => {
  await page.goto('/tests/browser/pages/api.html');
  await expect(page.locator('#status')).toHaveText('isolated');
  await page.evaluate(async () => {
    const { sl } = window;
    const { P, lax } = sl;
    await sl.init();
    const mesh = sl.makeMesh([8], ['data']);
    window.step = sl.jit((w, b, x, y, lr) => {
      const local = (w, b, x, y) => {
        const loss = (w, b) => x.matmul(w).add(b).sub(y).square().sum().div(x.shape[0]);
        const [l, [gw, gb]] = sl.valueAndGrad(loss, { argnums: [0, 1] })(...lax.pcast([w, b], 'data', { to: 'varying' }));
        const [mw, mb, ml] = lax.pmean([gw, gb, l], 'data');
        return [w.sub(mw.mul(lr)), b.sub(mb.mul(lr)), ml];
      };
      const [nw, nb, loss] = sl.shardMap(local, { mesh, inSpecs: [P(), P(), P('data'), P('data')], outSpecs: [P(), P(), P()] })(w, b, x, y);
      return { w: nw, b: nb, loss };
    });
    window.x = sl.array([[1], [2], [3], [4], [5], [6], [7], [8]]);
    window.y = sl.array([[3], [5], [7], [9], [11], [13], [15], [17]]);
    // Tracing is synchronous main-thread work (as in JAX); trace before the
    // clock starts, so what follows measures waiting on the devices only.
    await window.step(sl.array([[0]]), sl.array([0]), window.x, window.y, 0);
  });
  let r;
  const tasks = await mainThreadTasksDuring(browser, page, async () => {
    r = await page.evaluate(async () => {
      const { sl, step, x, y } = window;
      let ticks = 0;
      const timer = setInterval(() => ticks++, 5);
      const t0 = performance.now();
      let out;
      let w = sl.array([[0]]);
      let b = sl.array([0]);
      // Many steps, so the run lasts long enough for the ticks to mean something.
      for (let i = 0; i < 200; i++) {
        out = await step(w, b, x, y, i === 0 ? 0.01 : 0);
        if (i === 0) [w, b] = [out.w, out.b];
      }
      const ms = performance.now() - t0;
      clearInterval(timer);
      return { w: await out.w.tolist(), b: await out.b.tolist(), ms, ticks };
    });
  });
  console.log(`200 steps in ${r.ms.toFixed(0)} ms; the 5 ms timer fired ${r.ticks} times; longest main-thread tasks ${longestTasks(tasks)}`);
  expect(r.w[0][0]).toBeCloseTo(1.11, 5);
  expect(r.b[0]).toBeCloseTo(0.2, 5);
  expect(r.ticks).toBeGreaterThanOrEqual(Math.floor(r.ms / 5 / 4));
  // The steps run on the devices: the main thread only dispatches them and reads the results back.
  expect(tasks[0][0], `the longest main-thread tasks take ${longestTasks(tasks)}`).toBeLessThan(50);
});

test('the API works inside a module Web Worker', async ({ page }) => {
  await page.goto('/tests/browser/pages/api.html');
  const r = await page.evaluate(
    () =>
      new Promise((resolve) => {
        const w = new Worker('/tests/browser/pages/api_worker.js', { type: 'module' });
        w.onmessage = (e) => {
          resolve(e.data);
          w.terminate();
        };
        w.onerror = (e) => resolve({ ok: false, error: e.message });
        w.postMessage('go');
      }),
  );
  expect(r).toEqual({ ok: true, value: [204] });
});

test('the package bundled by Vite finds its wasm and worker files, with and without threads', async ({ page, baseURL }) => {
  const app = `${root}tests/browser/vite-app`;
  const modules = `${app}/node_modules`;
  if (existsSync(modules)) rmSync(modules, { recursive: true });
  mkdirSync(modules);
  symlinkSync(root, `${modules}/shardlab`);
  const outDir = `${root}build/test-results/vite-app`;
  try {
    await build({ root: app, base: './', logLevel: 'error', build: { outDir, emptyOutDir: true, target: 'es2022' } });
  } finally {
    rmSync(modules, { recursive: true });
  }
  await page.goto('/build/test-results/vite-app/index.html');
  await expect(page.locator('#result')).toHaveText('[4.5]', { timeout: 30000 });
  await page.screenshot({ path: `${root}build/test-results/vite-app.png` });
  // Served without the headers, the bundle's lockstep worker takes over.
  const port = Number(new URL(baseURL).port) + 1;
  await page.goto(`http://127.0.0.1:${port}/build/test-results/vite-app/index.html`);
  await expect(page.locator('#result')).toHaveText('[4.5]', { timeout: 30000 });
});

test('without the two headers the page falls back to the lockstep worker, says so, and gives the same numbers', async ({ page, baseURL }) => {
  const warnings = [];
  page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
  const port = Number(new URL(baseURL).port) + 1;
  await page.goto(`http://127.0.0.1:${port}/tests/browser/pages/api.html`);
  await expect(page.locator('#status')).toHaveText('not isolated');
  const r = await page.evaluate(async () => {
    const { sl } = window;
    const info = await sl.init();
    const mesh = sl.makeMesh([8], ['data']);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const f = sl.jit((x) => sl.shardMap((b) => sl.lax.pmean(b.square(), 'data'), { mesh, inSpecs: sl.P('data'), outSpecs: sl.P() })(x));
    let y;
    for (let i = 0; i < 20; i++) y = await f(sl.array([1, 2, 3, 4, 5, 6, 7, 8]));
    clearInterval(timer);
    return { info, value: await y.tolist(), ticks };
  });
  expect(r.info).toEqual({ devices: 8, threads: false, executor: 'lockstep' });
  expect(r.value).toEqual([25.5]);
  expect(warnings.join('\n')).toMatch(/Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp/);
});

// In Chromium (relaxed SIMD, on these machines' FMA CPUs) a float32 product
// rounds each multiply-add once, as XLA's CPU dot does with FMA: with
// a = [1, 1 + 2^-23] and b = [-(1 + 2^-22), 1 + 2^-23], the exact a.b is
// 2^-46; rounding the second product first would give 0. Threaded devices
// and the lockstep fallback (no COOP/COEP headers) alike.
test('a float32 matmul rounds each multiply-add once, with and without threads', async ({ page, baseURL }) => {
  const isolated = Number(new URL(baseURL).port); // the next port serves without COOP/COEP
  for (const port of [isolated, isolated + 1]) {
    await page.goto(`http://127.0.0.1:${port}/tests/browser/pages/api.html`);
    const r = await page.evaluate(async () => {
      const { sl } = window;
      const info = await sl.init();
      const mesh = sl.makeMesh([8], ['data']);
      const e = 2 ** -23;
      const a = sl.array(Array.from({ length: 8 }, () => [1, 1 + e]));
      const b = sl.array([[-(1 + 2 * e)], [1 + e]]);
      const perDevice = sl.jit((a, b) => sl.shardMap((x, y) => x.matmul(y), { mesh, inSpecs: [sl.P('data'), sl.P()], outSpecs: sl.P('data') })(a, b));
      return { threads: info.threads, sharded: await perDevice(a, b).then((y) => y.tolist()), whole: await a.matmul(b).tolist() };
    });
    const exact = Array.from({ length: 8 }, () => [2 ** -46]);
    expect(r).toEqual({ threads: port === isolated, sharded: exact, whole: exact });
  }
});
