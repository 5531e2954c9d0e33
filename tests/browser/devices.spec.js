// The wasm device runtime in headless Chromium: 8 Web Worker devices run a
// psum, and the page's main thread keeps running while the devices work.
import { expect, test } from './fixtures.js';

test('psum on 8 Web Worker devices matches a serial float32 sum', async ({ page }) => {
  await page.goto('/tests/browser/pages/devices.html');
  await expect(page.locator('#status')).toHaveText('isolated');
  const result = await page.evaluate(async () => {
    const rt = await window.shardlab.loadDevices();
    const mesh = rt.mesh([8], ['data']);
    const n = 1000;
    const host = new Float32Array(8 * n).map((_, i) => Math.sin(i) * 3);
    const x = rt.put(mesh, host, [8 * n], ['data']);
    const y = await rt.collective(mesh, x, { op: 'psum', axisName: 'data' }, []);
    const got = rt.get(y);
    // Serial reference: float32 sum over devices 0..7 in order.
    const want = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      let acc = host[i];
      for (let d = 1; d < 8; d++) acc = Math.fround(acc + host[d * n + i]);
      want[i] = acc;
    }
    const mismatches = got.filter((v, i) => !Object.is(v, want[i])).length;
    return { devices: rt.devices, workers: rt.Module.PThread.runningWorkers.length, mismatches, length: got.length };
  });
  expect(result).toEqual({ devices: 8, workers: 8, mismatches: 0, length: 1000 });
});

test('the main thread stays responsive during a ~300 ms device job', { tag: '@alone' }, async ({ page }) => {
  await page.goto('/tests/browser/pages/devices.html');
  const r = await page.evaluate(async () => {
    const rt = await window.shardlab.loadTestDevices();
    const mesh = rt.mesh([8], ['data']);
    const n = 1 << 18;
    const x = rt.put(mesh, new Float32Array(8 * n).fill(1), [8 * n], ['data']);
    // Grow the job until one takes about 300 ms; the ticks of that job count.
    let reps = 16;
    let ms = 0;
    let ticks = 0;
    let y;
    for (let attempt = 0; attempt < 10 && ms < 250; attempt++) {
      y?.delete();
      if (attempt > 0) reps = Math.ceil(reps * Math.min(16, 300 / Math.max(ms, 1)));
      ticks = 0;
      const timer = setInterval(() => ticks++, 10);
      const t0 = performance.now();
      y = await window.shardlab.repeatedCollective(rt, mesh, x, { op: 'psum', axisName: 'data' }, reps);
      ms = performance.now() - t0;
      clearInterval(timer);
    }
    return { ms, ticks, value: rt.get(y)[0] };
  });
  console.log(`device job ${r.ms.toFixed(0)} ms, 10 ms interval fired ${r.ticks} times`);
  expect(r.value).toBe(8);
  expect(r.ms).toBeGreaterThan(250); // the job really was long enough for the ticks to mean something
  expect(r.ticks).toBeGreaterThanOrEqual(10);
});

test('terminating runtimes while their devices work rejects the jobs and logs no error in the page', async ({ page }) => {
  await page.goto('/tests/browser/pages/devices.html');
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(String(e)));
  const outcomes = await page.evaluate(async () => {
    const seen = new Set();
    // Each runtime is cut off a few ms into 20 queued jobs of 200 psums, on
    // devices in the middle of their work (and, the first times, right after
    // loading, while the threads are still starting). A race: with
    // Emscripten's terminateAllThreads, which frees the threads' memory
    // before their workers stop, this logged "memory access out of bounds"
    // in 3 runs of 4.
    for (const wait of [0, 0, 1, 2, 3, 5, 5, 8, 10, 10, 15, 20]) {
      const rt = await window.shardlab.loadTestDevices();
      const mesh = rt.mesh([8], ['data']);
      const x = rt.put(mesh, new Float32Array(8).fill(1), [8], ['data']);
      const jobs = Array.from({ length: 20 }, () => window.shardlab.repeatedCollective(rt, mesh, x, { op: 'psum', axisName: 'data' }, 200));
      await new Promise((r) => setTimeout(r, wait));
      rt.terminate();
      for (const r of await Promise.allSettled(jobs)) seen.add(r.status === 'fulfilled' ? 'fulfilled' : r.reason.name);
    }
    await new Promise((r) => setTimeout(r, 300)); // late worker errors would show up here
    return [...seen].sort();
  });
  expect(outcomes).toContain('DeviceError');
  expect(outcomes.every((o) => o === 'fulfilled' || o === 'DeviceError')).toBe(true);
  expect(errors).toEqual([]);
});
