// The Chromium rows of `npm run bench`: scripts/bench/page.html in headless
// Chromium (Debian's /usr/bin/chromium through Playwright), served with the
// COOP/COEP headers by scripts/serve.mjs. Rows come back with "-chromium"
// appended to their impl.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chromium } from '@playwright/test';

const PORT = Number(process.env.SHARDLAB_BENCH_PORT ?? 8397);

/** The page's rows, or throws with the page's error. */
export async function chromiumRows({ quick = false } = {}) {
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
    await page.goto(`http://127.0.0.1:${PORT}/scripts/bench/page.html${quick ? '?quick' : ''}`);
    await page.waitForFunction(() => window.__bench, null, { timeout: 15 * 60_000, polling: 1000 });
    const result = await page.evaluate(() => window.__bench);
    if (result.error) throw new Error(`the bench page failed: ${result.error}`);
    return result.rows.map((r) => ({ ...r, impl: `${r.impl}-chromium` }));
  } finally {
    await browser.close();
    server.kill();
  }
}
