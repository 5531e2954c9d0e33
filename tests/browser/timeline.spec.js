// The Timeline tab in headless Chromium: after the ring all-reduce is
// submitted, each of the 8 device rows shows 7 ppermute rounds (and the 7
// adds between them) inside one shard_map body, with the waits at the
// barriers drawn; hovering a bar names its equation; the data-parallel step's
// pmean is one round per device. On the page without cross-origin isolation
// (the lockstep worker) the same rounds show, with no waits. Screenshots of
// both themes are kept.
import { expect, test } from './fixtures.js';
import { APP_DIR, appUrl, root, seriousViolations, solution, typeCode } from './app_page.js';

const shots = `${root}build/test-results/screenshots`;
const bars = (page, d, kind, name) => page.locator(`#panel-timeline rect[data-device="${d}"][data-kind="${kind}"]${name ? `[data-name="${name}"]` : ''}`);

async function submit(page, url, id) {
  await page.goto(url);
  await typeCode(page, solution(id));
  await page.click('#submit');
  await expect(page.locator('#verdict')).toHaveText('All passed', { timeout: 60000 });
  await page.click('#tab-timeline');
  await expect(page.locator('#panel-timeline')).toBeVisible();
}

test('the ring all-reduce: 7 ppermute rounds per device, waits shown, bars named', async ({ page }) => {
  await submit(page, appUrl('#/problem/ring-allreduce-ppermute?lang=javascript'), 'ring-allreduce-ppermute');
  for (let d = 0; d < 8; d++) {
    await expect(bars(page, d, 'collective', 'ppermute')).toHaveCount(7);
    await expect(bars(page, d, 'equation', 'add')).toHaveCount(7);
    await expect(bars(page, d, 'body')).toHaveCount(1);
  }
  expect(await page.locator('#panel-timeline rect[data-kind="wait"]').count()).toBeGreaterThan(0);
  // The hover text (an SVG <title>) is the equation as the program prints it.
  const title = await bars(page, 3, 'collective', 'ppermute').first().locator('title').textContent();
  expect(title).toMatch(/^device 3: \w+ = ppermute\[axis_name=data\] \w+ \(/);
  await expect(page.locator('.tl-table tbody tr')).toHaveCount(8);
  await expect(page.locator('.tl-table tbody tr').first()).toContainText('ppermute ×7');
  await page.screenshot({ path: `${shots}/timeline-ring.png`, fullPage: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: `${shots}/timeline-ring-dark.png`, fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);
});

test('the data-parallel step: its all-reduce is one round, the same on every device', async ({ page }) => {
  await submit(page, appUrl('#/problem/data-parallel-step?lang=javascript'), 'data-parallel-step');
  const names = (d) => page.locator(`#panel-timeline rect[data-device="${d}"][data-kind="collective"]`).evaluateAll((rs) => rs.map((r) => r.dataset.name));
  const first = await names(0);
  expect(first).toEqual(['psum']); // the reference's one lax.pmean of its gradients and loss, which runs as a psum and a division
  for (let d = 1; d < 8; d++) expect(await names(d)).toEqual(first);
  // Named from the program that ran (lowered), not the traced one, whose equation there is a pmean.
  const title = await page.locator('#panel-timeline rect[data-device="2"][data-kind="collective"] title').textContent();
  expect(title).toMatch(/^device 2: \w+ \w+ \w+ = psum\[axes=data\] \w+ \w+ \w+ \(/);
});

test('the lockstep fallback shows the same rounds and no waits', async ({ page }) => {
  const port = Number(process.env.SHARDLAB_TEST_PORT ?? 8391) + 1;
  await submit(page, `http://127.0.0.1:${port}/${APP_DIR}/index.html#/problem/ring-allreduce-ppermute?lang=javascript`, 'ring-allreduce-ppermute');
  for (let d = 0; d < 8; d++) await expect(bars(page, d, 'collective', 'ppermute')).toHaveCount(7);
  await expect(page.locator('#panel-timeline rect[data-kind="wait"]')).toHaveCount(0);
  await expect(page.locator('.tl-legend')).toContainText('lockstep');
});
