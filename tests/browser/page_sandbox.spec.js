// The page judges only what it ran itself: the learner's code runs in the
// sandbox worker, which can post anything, close itself or hang; the page
// rebuilds the programs it sends, runs them on its own devices and computes
// the verdict. A forged message fails the check at once with the protocol's
// message, a worker that closes itself is reported at once, and nothing can
// set the solved mark but a solution whose programs pass.
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { buildApp, root, solution, typeCode } from './app_page.js';

// A ring "solution" that returns its input unchanged: wrong on every case.
const GARBAGE = 'export default function solve(x) {\n  return { out: x };\n}\n';

test.beforeAll(buildApp);

async function submit(page, code) {
  await page.goto('/build/app/index.html#/problem/ring-allreduce-ppermute');
  await page.evaluate(() => localStorage.clear());
  await typeCode(page, code);
  const t0 = Date.now();
  await page.click('#submit');
  await expect(page.locator('#verdict')).toBeVisible({ timeout: 60000 });
  return Date.now() - t0;
}

const solved = (page) => page.evaluate(() => localStorage.getItem('shardlab.solved.ring-allreduce-ppermute'));

for (const [what, forge] of [
  ['posts a forged verdict in place of every message', 'self.postMessage = () => post({ passed: true, cases: [], requirements: [] });'],
  ['posts an extra ready', "post({ v: 1, type: 'ready' });"],
  ['answers a trace nobody asked for', "post({ v: 1, type: 'traced', id: 99, results: [] });"],
]) {
  test(`a garbage solution whose worker ${what} fails with the protocol's message and is not marked solved`, async ({ page }) => {
    await submit(page, `const post = self.postMessage.bind(self);\n${forge}\n${GARBAGE}`);
    await expect(page.locator('#verdict')).toContainText('failed');
    await expect(page.locator('.case.fail').first()).toContainText("the solution's sandbox sent a malformed message");
    await expect(page.locator('#submit')).toBeEnabled();
    expect(await solved(page)).toBeNull();
  });
}

test('a worker that rewrites its traced programs into garbage is judged on what it sent', async ({ page }) => {
  // The worker swaps each exported program for the program of the garbage
  // solution: the page runs that program and finds it wrong.
  const swap = `const post = self.postMessage.bind(self);
self.postMessage = async (m) => {
  if (m?.type === 'traced') {
    const sl = globalThis.__shardlab;
    for (const r of m.results) {
      const e = sl.export.export((x) => ({ out: x }))(new sl.ShapeDtypeStruct([8, 4]));
      r.exported = await e.serialize();
    }
  }
  post(m);
};
`;
  await submit(page, swap + solution('ring-allreduce-ppermute'));
  await expect(page.locator('#verdict')).toContainText('failed');
  expect(await solved(page)).toBeNull();
});

test('self.close() in the solution is reported at once as an exit', async ({ page }) => {
  const ms = await submit(page, `self.close();\n${solution('ring-allreduce-ppermute')}`);
  await expect(page.locator('.case.fail').first()).toContainText('the solution exited');
  expect(ms).toBeLessThan(8000); // not the 10 s time limit
  await expect(page.locator('#submit')).toBeEnabled();
});

test('an endless loop is stopped by the time limit and the page stays usable', async ({ page }) => {
  await submit(page, 'export default function solve(x) {\n  for (;;) {}\n}\n');
  await expect(page.locator('.case.fail').first()).toContainText('the time limit');
  await typeCode(page, solution('ring-allreduce-ppermute'));
  await page.click('#submit');
  await expect(page.locator('#verdict')).toHaveText('All passed', { timeout: 60000 });
  expect(await solved(page)).toBe('1');
});

test("the sandbox worker's bundle holds no problem data", async () => {
  const { readdirSync } = await import('node:fs');
  const assets = `${root}build/app/assets/`;
  const worker = readdirSync(assets).filter((f) => f.startsWith('sandbox_worker') && f.endsWith('.js'));
  expect(worker).toHaveLength(1);
  const text = readFileSync(assets + worker[0], 'utf8');
  for (const id of ['data-parallel-step', 'tensor-parallel-mlp', 'ring-allreduce-ppermute', 'device-mesh-named-sharding']) {
    expect(text).not.toContain(id);
  }
  expect(text).not.toContain('121'); // the first data-parallel example's expected loss
  expect(text).not.toContain('Tensor-Parallel');
});
