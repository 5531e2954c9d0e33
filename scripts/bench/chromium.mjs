// The Chromium rows of `npm run bench`: a bench page (scripts/bench/page.html,
// the peers' build/bench/peers/page.html) in headless Chromium (Debian's
// /usr/bin/chromium through Playwright), served from the repository's root
// with the COOP/COEP headers by scripts/serve.mjs. Rows come back with
// "-chromium" appended to their impl.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chromium } from '@playwright/test';

const PORT = Number(process.env.SHARDLAB_BENCH_PORT ?? 8397);

/** The rows of the page at `path` (from the repository's root), with the page's other results (`extra`), or throws with the page's error. */
export async function chromiumPage(path, { level = 'full' } = {}) {
  // --no-csp: the bench page maps 'shardlab' with an inline import map (Chromium has no external ones).
  const server = spawn(process.execPath, ['scripts/serve.mjs', '--port', String(PORT), '--no-csp'], { stdio: ['ignore', 'pipe', 'inherit'] });
  await once(server.stdout, 'data'); // it prints its address once listening
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const page = await browser.newPage();
    page.on('console', (m) => m.type() === 'error' && console.error(`[chromium] ${m.text()}`));
    await page.goto(`http://127.0.0.1:${PORT}/${path}?level=${level}`);
    await page.waitForFunction(() => window.__bench, null, { timeout: 15 * 60_000, polling: 1000 });
    const { error, rows, ...extra } = await page.evaluate(() => window.__bench);
    if (error) throw new Error(`the bench page ${path} failed: ${error}`);
    return { rows: rows.map((r) => ({ ...r, impl: `${r.impl}-chromium` })), extra };
  } finally {
    await browser.close();
    server.kill();
  }
}

/** The rows of scripts/bench/page.html (psum, dispatch, the checker per problem). */
export const chromiumRows = async ({ level = 'full' } = {}) => (await chromiumPage('scripts/bench/page.html', { level })).rows;
