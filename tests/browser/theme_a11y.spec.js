// The checker page's themes, keyboard shortcuts and accessibility, in
// headless Chromium: dark follows prefers-color-scheme and the header's
// toggle overrides it (kept across a reload); Ctrl+Shift+Enter submits from
// the editor; axe (@axe-core/playwright) finds no serious or critical
// violation on the list, a problem view and its results, in either theme.
// Screenshots of the dark views are kept as artifacts.
import { expect, test } from './fixtures.js';
import { appUrl, root, seriousViolations, solution, typeCode } from './app_page.js';

const shots = `${root}build/test-results/screenshots`;
const background = (page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

test('dark follows the system; the toggle chooses light or dark and is kept', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(appUrl());
  await expect(page.locator('#theme')).toHaveText('Theme: auto');
  expect(await background(page)).toBe('rgb(13, 17, 23)');
  await page.screenshot({ path: `${shots}/list-dark.png`, fullPage: true });
  await page.click('#theme');
  await expect(page.locator('#theme')).toHaveText('Theme: light');
  expect(await background(page)).toBe('rgb(255, 255, 255)');
  await page.reload();
  await expect(page.locator('#theme')).toHaveText('Theme: light');
  expect(await background(page)).toBe('rgb(255, 255, 255)');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.click('#theme');
  await expect(page.locator('#theme')).toHaveText('Theme: dark');
  expect(await background(page)).toBe('rgb(13, 17, 23)');
  await page.click('#theme');
  await expect(page.locator('#theme')).toHaveText('Theme: auto');
  expect(await background(page)).toBe('rgb(255, 255, 255)');
});

test('the shortcuts are shown; Ctrl+Shift+Enter in the editor submits', async ({ page }) => {
  await page.goto(appUrl('#/problem/ema-scan?lang=javascript'));
  await expect(page.locator('.shortcuts')).toHaveText('Ctrl+Enter runs the examples · Ctrl+Shift+Enter submits');
  await expect(page.locator('#submit')).toHaveAttribute('aria-keyshortcuts', 'Control+Shift+Enter');
  await typeCode(page, solution('ema-scan'));
  await page.keyboard.press('Control+Shift+Enter');
  await expect(page.locator('#verdict')).toHaveText('All passed', { timeout: 60000 });
  await page.keyboard.press('Control+Enter');
  await expect(page.locator('#verdict')).toHaveText('Examples passed', { timeout: 60000 });
});

for (const colorScheme of ['light', 'dark']) {
  test(`axe: no serious or critical violation on the list, a problem and its results (${colorScheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme });
    const serious = () => seriousViolations(page);
    await page.goto(appUrl());
    await expect(page.locator('table.list').first()).toBeVisible();
    expect(await serious()).toEqual([]);
    await page.goto(appUrl('#/problem/tensor-parallel-mlp?lang=javascript'));
    await expect(page.locator('.statement h1')).toBeVisible();
    expect(await serious()).toEqual([]);
    await typeCode(page, solution('tensor-parallel-mlp'));
    await page.click('#submit');
    await expect(page.locator('#verdict')).toHaveText('All passed', { timeout: 60000 });
    if (colorScheme === 'dark') await page.screenshot({ path: `${shots}/results-dark.png`, fullPage: true });
    expect(await serious()).toEqual([]);
  });
}
