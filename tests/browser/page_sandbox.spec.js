// The page judges only what it ran itself: the learner's code runs in the
// sandbox worker, which can post anything, close itself or hang; the page
// rebuilds the programs it sends, runs them on its own devices and computes
// the verdict. A forged message fails the check at once with the protocol's
// message, a worker that closes itself is reported at once, and nothing can
// set the solved mark but a solution whose programs pass.
import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures.js';
import { APP_DIR, appUrl, root, solution, typeCode } from './app_page.js';

// A ring "solution" that returns its input unchanged: wrong on every case.
const GARBAGE = 'export default function solve(x) {\n  return { out: x };\n}\n';

async function submit(page, code) {
  await page.goto(appUrl('#/problem/ring-allreduce-ppermute?lang=javascript'));
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

test("a program whose while_loop never ends is stopped on the page's devices by the time limit; the next check runs", async ({ page }) => {
  const endless = [
    "import * as sl from 'shardlab';",
    'export default function solve(x) {',
    '  return { out: sl.lax.whileLoop((v) => sl.np.greaterEqual(sl.np.sum(sl.np.abs(v)), 0), (v) => sl.np.add(v, 1), x) };',
    '}',
    '',
  ].join('\n');
  await submit(page, endless);
  await expect(page.locator('.case.fail').first()).toContainText('the time limit');
  await typeCode(page, solution('ring-allreduce-ppermute'));
  await page.click('#submit');
  await expect(page.locator('#verdict')).toHaveText('All passed', { timeout: 60000 });
});

test("the sandbox worker's bundle holds no problem data", async () => {
  const { readdirSync } = await import('node:fs');
  const assets = `${root}${APP_DIR}/assets/`;
  const worker = readdirSync(assets).filter((f) => f.startsWith('sandbox_worker') && f.endsWith('.js'));
  expect(worker).toHaveLength(1);
  const text = readFileSync(assets + worker[0], 'utf8');
  for (const id of ['data-parallel-step', 'tensor-parallel-mlp', 'ring-allreduce-ppermute', 'device-mesh-named-sharding']) {
    expect(text).not.toContain(id);
  }
  expect(text).not.toContain('121'); // the first data-parallel example's expected loss
  expect(text).not.toContain('Tensor-Parallel');
});

test('the sandbox worker has a policy of its own: no connection, no nested worker, no import of the site', async ({ page }) => {
  const { readdirSync } = await import('node:fs');
  const { SANDBOX_WORKER_POLICY } = await import('../../web/app/headers.js');
  const worker = readdirSync(`${root}${APP_DIR}/assets/`).find((f) => f.startsWith('sandbox_worker') && f.endsWith('.js'));
  // A chunk of the site that loads anywhere (the page's own would fail in a worker, policy or not).
  const chunk = readdirSync(`${root}${APP_DIR}/assets/`).find((f) => f.startsWith('__vite-browser-external') && f.endsWith('.js'));
  const target = appUrl();
  // The learner's code tries each way out while it loads and reports, through
  // the error its solution throws, what each try did and which directives the
  // worker saw violated; it still traces nothing but that error.
  const probe = `const outcome = {};
const violated = new Set();
self.addEventListener('securitypolicyviolation', (e) => violated.add(e.effectiveDirective));
const event = (make) => () => new Promise((ok, no) => { const s = make(); s.onopen = s.onload = ok; s.onerror = () => no(new Error('error event')); });
const tries = {
  fetch: () => fetch(${JSON.stringify(target)}),
  xhr: event(() => { const x = new XMLHttpRequest(); x.open('GET', ${JSON.stringify(target)}); x.send(); return x; }),
  websocket: event(() => new WebSocket('ws://' + location.host + '/')),
  eventsource: event(() => new EventSource(${JSON.stringify(target)})),
  beacon: async () => { if (!navigator.sendBeacon?.(${JSON.stringify(target)}, 'x')) throw new Error('refused'); },
  worker: event(() => new Worker(URL.createObjectURL(new Blob(['postMessage(1)'], { type: 'text/javascript' })))),
  import: () => import(new URL('/${APP_DIR}/assets/${chunk}', location.href).href),
};
for (const [name, f] of Object.entries(tries)) {
  try {
    await Promise.race([f(), new Promise((_, no) => setTimeout(() => no(new Error('no answer')), 2000))]);
    outcome[name] = 'ok';
  } catch (e) {
    outcome[name] = 'blocked';
  }
}
const report = JSON.stringify({ outcome, violated: [...violated].sort() });
export default function solve(x) {
  throw new Error('PROBE' + report + 'PROBE');
}
`;
  await page.goto(appUrl('#/problem/ring-allreduce-ppermute?lang=javascript'));
  expect(await page.evaluate((url) => fetch(url).then((r) => r.status), target)).toBe(200); // the page itself may
  await typeCode(page, probe);
  await page.click('#run');
  expect(await page.evaluate(async (p) => (await fetch(p)).headers.get('content-security-policy'), `assets/${worker}`)).toBe(SANDBOX_WORKER_POLICY);
  const text = await page.locator('.case.fail').first().textContent({ timeout: 60000 });
  const { outcome, violated } = JSON.parse(text.split('PROBE')[1]);
  expect(outcome).toEqual({ fetch: 'blocked', xhr: 'blocked', websocket: 'blocked', eventsource: 'blocked', beacon: 'blocked', worker: 'blocked', import: 'blocked' });
  expect(violated).toEqual(expect.arrayContaining(['connect-src']));
  // The sandbox still works for a solution that uses no way out.
  await typeCode(page, solution('ring-allreduce-ppermute'));
  await page.click('#run');
  await expect(page.locator('#verdict')).toHaveText('Examples passed', { timeout: 60000 });
});
