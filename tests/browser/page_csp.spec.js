// The checker page is sent with its Content-Security-Policy and the two
// isolation headers (one definition, web/app/headers.js) by scripts/serve.mjs
// and by Vite's preview and dev servers, and works under it: a solution is
// checked on the devices with no violation reported, while a script or an
// event-handler attribute added to the page as markup does not run.
import { once } from 'node:events';
import { createServer as netServer } from 'node:net';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from './fixtures.js';
import PROBLEMS from '../../problems/index.js';
import { createServer, preview } from 'vite';
import { APP_DIR, appUrl } from './app_page.js';
import { CONTENT_SECURITY_POLICY, DEV_SANDBOX_WORKER_POLICY, PAGE_HEADERS, SANDBOX_WORKER_POLICY } from '../../web/app/headers.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const configFile = `${root}web/app/vite.config.js`;
// The built sandbox worker's script, relative to the built page.
const builtWorker = () => `assets/${readdirSync(`${root}${APP_DIR}/assets/`).find((f) => f.startsWith('sandbox_worker') && f.endsWith('.js'))}`;
const solution = (id) => readFileSync(`${root}problems/${id}/solution.mjs`, 'utf8');

// Every violation the page's document reports, from before its first script.
test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.effectiveDirective} ${e.blockedURI}`));
  });
});

async function freePort() {
  const probe = netServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address();
  await new Promise((r) => probe.close(r));
  return port;
}

async function typeCode(page, code) {
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(code);
}

// Opens the ring problem at `url`, checks the headers of the page's response
// (`isolated`: the two isolation headers too), runs the reference solution
// and expects it to pass with no violation reported, the sandbox worker's
// script having come with `workerPolicy`.
async function expectWorksUnderPolicy(page, url, { isolated = true, workerPolicy = SANDBOX_WORKER_POLICY, workerPath = builtWorker() } = {}) {
  const response = await page.goto(`${url}#/problem/ring-allreduce-ppermute?lang=javascript`);
  const headers = response.headers();
  expect(headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
  for (const name of ['Cross-Origin-Opener-Policy', 'Cross-Origin-Embedder-Policy']) {
    expect(headers[name.toLowerCase()]).toBe(isolated ? PAGE_HEADERS[name] : undefined);
  }
  await typeCode(page, solution('ring-allreduce-ppermute'));
  await page.click('#run');
  await expect(page.locator('#verdict')).toHaveText('Examples passed', { timeout: 90000 });
  // Asked for directly (relative to the page): a worker's own response is not always reported to the page.
  expect(await page.evaluate(async (p) => (await fetch(p)).headers.get('content-security-policy'), workerPath)).toBe(workerPolicy);
  await expect(page.locator('.katex').first()).toBeVisible();
  expect(await page.evaluate(() => window.__violations)).toEqual([]);
}

test('scripts/serve.mjs sends the policy with the built page, which works under it', async ({ page }) => {
  await expectWorksUnderPolicy(page, appUrl());
});

test('without isolation serve.mjs still sends the policy, and the fallback works under it', async ({ page, baseURL }) => {
  const port = Number(new URL(baseURL).port) + 1;
  await expectWorksUnderPolicy(page, `http://127.0.0.1:${port}/${APP_DIR}/index.html`, { isolated: false });
});

test('under the policy an inline script or event handler added to the page does not run', async ({ page }) => {
  await page.goto(appUrl());
  await expect(page.locator('table.list tbody tr')).toHaveCount(PROBLEMS.length);
  const r = await page.evaluate(async () => {
    const script = document.createElement('script');
    script.textContent = 'window.__ran = "inline script"';
    document.body.append(script);
    const button = document.createElement('button');
    button.setAttribute('onclick', 'window.__ran = "onclick"');
    document.body.append(button);
    button.click();
    document.getElementById('main').insertAdjacentHTML('beforeend', '<img src="data:," onload="window.__ran = \'onload\'">');
    await new Promise((r) => setTimeout(r, 300));
    return { ran: window.__ran ?? null, violations: window.__violations.map((v) => v.split(' ')[0]) };
  });
  expect(r.ran).toBeNull();
  expect(r.violations).toEqual(expect.arrayContaining(['script-src-elem', 'script-src-attr']));
});

test("Vite's preview server sends the policy and the page works under it", async ({ page }) => {
  const port = await freePort();
  const server = await preview({ configFile, logLevel: 'error', build: { outDir: `${root}${APP_DIR}` }, preview: { host: '127.0.0.1', port, strictPort: true } });
  try {
    await expectWorksUnderPolicy(page, `http://127.0.0.1:${port}/`);
  } finally {
    await new Promise((r) => server.httpServer.close(r));
  }
});

test("Vite's dev server sends the policy and the page works under it", async ({ page }) => {
  test.setTimeout(180000);
  const port = await freePort();
  const server = await createServer({
    configFile,
    logLevel: 'error',
    cacheDir: `${root}build/test-results/vite-dev-cache`, // not the shared node_modules/.vite
    server: { host: '127.0.0.1', port, strictPort: true },
  });
  await server.listen();
  try {
    await expectWorksUnderPolicy(page, `http://127.0.0.1:${port}/`, { workerPolicy: DEV_SANDBOX_WORKER_POLICY, workerPath: 'sandbox_worker.js?worker_file&type=module' });
  } finally {
    await server.close();
  }
});
