// The problem view's layout in headless Chromium at 1280x800: the statement
// left, the editor right, the results in tabs below the editor; the divider
// between the panes resizes them by pointer and by keyboard and is kept
// across a reload; the editor resizes vertically; results arriving shift
// nothing above them (no layout shift). And a solved problem's every tab
// shows what it should. Screenshots are kept.
import { expect, test } from './fixtures.js';
import { appUrl, root, solution, typeCode } from './app_page.js';

const shots = `${root}build/test-results/screenshots`;

test.use({ viewport: { width: 1280, height: 800 } });

test('statement left, editor right, results below; the divider resizes the panes and is kept', async ({ page }) => {
  await page.goto(appUrl('#/problem/ema-scan?lang=javascript'));
  const box = (sel) => page.locator(sel).boundingBox();
  const [statement, editor] = [await box('.statement'), await box('#editor')];
  expect(statement.x + statement.width).toBeLessThan(editor.x);
  expect((await box('#run')).y).toBeGreaterThan(editor.y + editor.height - 1);
  const bar = page.getByRole('separator', { name: 'Resize the statement and the editor' });
  await expect(bar).toHaveAttribute('aria-valuenow', '45');
  // Dragged to 30% of the panes' width, the statement narrows and the editor widens.
  const panes = await box('.problem');
  const handle = await bar.boundingBox();
  await page.mouse.move(handle.x + handle.width / 2, handle.y + 40);
  await page.mouse.down();
  await page.mouse.move(panes.x + panes.width * 0.3, handle.y + 60, { steps: 5 });
  await page.mouse.up();
  await expect(bar).toHaveAttribute('aria-valuenow', '30');
  expect((await box('.statement')).width).toBeLessThan(statement.width - 100);
  expect((await box('#editor')).width).toBeGreaterThan(editor.width + 100);
  // The keyboard: arrows by 5, End to the most.
  await bar.focus();
  await page.keyboard.press('ArrowRight');
  await expect(bar).toHaveAttribute('aria-valuenow', '35');
  await page.keyboard.press('End');
  await expect(bar).toHaveAttribute('aria-valuenow', '80');
  await page.keyboard.press('ArrowLeft');
  await page.reload();
  await expect(page.getByRole('separator')).toHaveAttribute('aria-valuenow', '75');
  // The editor's height is the learner's to change (CSS resize).
  expect(await page.locator('#editor').evaluate((e) => getComputedStyle(e).resize)).toBe('vertical');
});

test('results arriving shift nothing: the editor and buttons stay put, no layout shift is reported', async ({ page }) => {
  await page.goto(appUrl('#/problem/ring-allreduce-ppermute?lang=javascript'));
  await typeCode(page, solution('ring-allreduce-ppermute'));
  // Layout shifts from here on, as Chromium reports them (CLS's entries).
  await page.evaluate(() => {
    window.__shifts = [];
    new PerformanceObserver((list) => window.__shifts.push(...list.getEntries().map((e) => e.value))).observe({ type: 'layout-shift' });
  });
  const before = await page.locator('#run').boundingBox();
  await page.click('#submit');
  await expect(page.locator('#verdict')).toHaveText('All passed', { timeout: 60000 });
  await page.waitForTimeout(300); // the observer's last entries
  expect(await page.locator('#run').boundingBox()).toEqual(before);
  const shift = await page.evaluate(() => window.__shifts.reduce((a, b) => a + b, 0));
  expect(shift).toBeLessThan(0.01);
});

test("a solved problem's tabs: cases, requirements, program, sharding and timeline", async ({ page }) => {
  await page.goto(appUrl('#/problem/device-mesh-named-sharding?lang=javascript'));
  await typeCode(page, solution('device-mesh-named-sharding'));
  await page.click('#submit');
  await expect(page.locator('#verdict')).toHaveText('All passed', { timeout: 60000 });
  const tabs = ['cases', 'requirements', 'program', 'sharding', 'timeline'];
  await expect(page.locator('[role=tab]')).toHaveCount(tabs.length);
  const shown = {
    cases: async (panel) => {
      await expect(panel.locator('.case.fail')).toHaveCount(0);
      await expect(panel.locator('.case.pass').first()).toBeVisible();
    },
    requirements: async (panel) => {
      await expect(panel.locator('.req.fail')).toHaveCount(0);
      expect(await panel.locator('.req.pass').count()).toBeGreaterThan(0);
    },
    program: async (panel) => await expect(panel.locator('pre.jaxpr')).toContainText('shard_map'),
    sharding: async (panel) => await expect(panel.locator('figure').first()).toBeVisible(),
    timeline: async (panel) => {
      await expect(panel.locator('svg.timeline')).toBeVisible();
      await expect(panel.locator('.tl-table tbody tr')).toHaveCount(8);
    },
  };
  for (const id of tabs) {
    await page.click(`#tab-${id}`);
    const panel = page.locator(`#panel-${id}`);
    await expect(panel).toBeVisible();
    await shown[id](panel);
    await page.screenshot({ path: `${shots}/solved-${id}.png`, fullPage: true });
  }
});
