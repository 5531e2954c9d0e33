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
  ['posts a forged verdict', 'post({ passed: true, cases: [], requirements: [] });'],
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

test('a worker that answers the trace request first, with the programs of a garbage solution, is judged on what it sent', async ({ page }) => {
  // The worker's own messages go out through the postMessage it kept before the learner's code ran;
  // the learner's code can still answer the page's trace request itself, before the sandbox does.
  // The garbage programs are made as the code loads, for every shape x can have, so the answer goes out
  // in the same task as the request, before the sandbox's own.
  const forge = `const post = self.postMessage.bind(self);
const sl = globalThis.__shardlab;
const garbage = {};
for (let n = 1; n <= 16; n++) {
  const e = sl.export.export((x) => ({ out: x }))(new sl.ShapeDtypeStruct([8, n]));
  garbage[n] = await e.serialize();
}
self.addEventListener('message', ({ data: m }) => {
  if (m?.type !== 'trace') return;
  post({ v: 1, type: 'traced', id: m.id, results: m.signatures.map((s) => ({ exported: garbage[s[0].shape[1]] })) });
});
`;
  await submit(page, forge + solution('ring-allreduce-ppermute'));
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
  // The time limit, then a whole Submit of 23 cases: about 40 s beside another spec file on 2 cores.
  test.setTimeout(120000);
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
  expect(text).not.toMatch(/\b121\b/); // the first data-parallel example's expected loss (as a number of its own, not digits inside another)
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
  // A nested worker from a blob: URL that says it started.
  nestedWorker: () => new Promise((ok, no) => {
    const w = new Worker(URL.createObjectURL(new Blob(['postMessage(1)'], { type: 'text/javascript' })));
    w.onmessage = ok;
    w.onerror = () => no(new Error('error event'));
  }),
  // What the origin's other contexts share: storage, channels, locks.
  indexedDB: () => new Promise((ok, no) => { const r = indexedDB.open('shardlab-probe'); r.onsuccess = ok; r.onerror = no; }),
  caches: () => caches.open('shardlab-probe'),
  broadcastChannel: async () => new BroadcastChannel('shardlab-probe').postMessage(1),
  locks: () => navigator.locks.request('shardlab-probe', () => {}),
  lockQuery: () => navigator.locks.query(),
  storage: () => navigator.storage.estimate(),
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
  expect(outcome).toEqual({
    fetch: 'blocked',
    xhr: 'blocked',
    websocket: 'blocked',
    eventsource: 'blocked',
    beacon: 'blocked',
    worker: 'blocked',
    import: 'blocked',
    nestedWorker: 'blocked',
    indexedDB: 'blocked',
    caches: 'blocked',
    broadcastChannel: 'blocked',
    locks: 'blocked',
    lockQuery: 'blocked',
    storage: 'blocked',
  });
  expect(violated).toEqual(expect.arrayContaining(['connect-src']));
  // The sandbox still works for a solution that uses no way out.
  await typeCode(page, solution('ring-allreduce-ppermute'));
  await page.click('#run');
  await expect(page.locator('#verdict')).toHaveText('Examples passed', { timeout: 60000 });
});

test('every Python check starts from a fresh interpreter: what one solution patches does not reach the next', async ({ page }) => {
  test.setTimeout(180000);
  await page.goto(appUrl('#/problem/ring-allreduce-ppermute?lang=python'));
  await expect(page.locator('#python-status')).toHaveText('Python ready', { timeout: 90000 });
  // A solution that breaks jax.lax.ppermute for whoever comes next.
  await typeCode(page, 'import jax\n\njax.lax.ppermute = lambda x, *a, **k: x * 0\n\n\ndef ring_all_reduce(x):\n    return {"out": x}\n');
  await page.click('#run');
  await expect(page.locator('#verdict')).toContainText('failed', { timeout: 60000 });
  await typeCode(page, readFileSync(`${root}problems/ring-allreduce-ppermute/solution.py`, 'utf8'));
  await page.click('#run');
  await expect(page.locator('#verdict')).toHaveText('Examples passed', { timeout: 90000 });
});

test("the page holds no lock, so another tab's code that steals every lock cannot break a check", async ({ page, context }) => {
  await page.goto(appUrl('#/problem/ring-allreduce-ppermute?lang=javascript'));
  await typeCode(page, solution('ring-allreduce-ppermute'));
  // Another tab of the site (a shared playground link) steals whatever locks it finds, again and again.
  const other = await context.newPage();
  await other.goto(appUrl());
  await other.evaluate(() => {
    window.__stealing = setInterval(async () => {
      for (const l of (await navigator.locks.query()).held) navigator.locks.request(l.name, { steal: true }, () => new Promise(() => {}));
    }, 5);
  });
  await page.click('#submit');
  const held = await page.evaluate(() => navigator.locks.query().then((q) => q.held.map((l) => l.name)));
  await expect(page.locator('#verdict')).toHaveText('All passed', { timeout: 60000 });
  expect(held).toEqual([]);
  await other.close();
});

test('no other site can frame the page: frame-ancestors none and X-Frame-Options DENY', async ({ page, baseURL }) => {
  const response = await page.goto(appUrl());
  expect(response.headers()['x-frame-options']).toBe('DENY');
  expect(response.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
  // A page of another origin (the second test server's port) that frames it: the frame stays empty.
  const other = baseURL.replace(/:(\d+)$/, (_, p) => `:${Number(p) + 1}`);
  await page.goto(`${other}/tests/browser/pages/devices.html`);
  await page.evaluate((src) => {
    const f = document.createElement('iframe');
    f.src = src;
    document.body.append(f);
    return new Promise((r) => (f.onload = r));
  }, `${baseURL}${appUrl()}`);
  const framed = page.frames().find((f) => f !== page.mainFrame());
  expect(await framed.evaluate(() => document.querySelector('#app, main, .problems')).catch(() => null)).toBeNull();
});

test('submitting the untouched template fails every case with why, and throws nothing on the page', async ({ page }) => {
  await page.goto(appUrl('#/problem/data-parallel-step?lang=javascript'));
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await page.click('#submit');
  await expect(page.locator('#verdict')).toContainText('failed', { timeout: 60000 });
  await expect(page.locator('.case.fail').first()).toContainText('the solution returned undefined');
});
