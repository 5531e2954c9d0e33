// The playground (#/playground) in headless Chromium: a Python script and a
// JavaScript one run eagerly in the playground's worker, showing what they
// print (as text, markup included; jax.debug.print per device in device order), the programs their jit and make_jaxpr
// calls trace, the last one's sharding and the run's timeline; the code survives a reload and
// travels in a shared URL (a corrupt one is reported); an endless loop is
// stopped and the next run works; without isolation both languages run on
// the lockstep executor; axe finds no serious or critical violation after a
// run, light and dark. Screenshots are kept as artifacts.
import { expect, test, watchPageErrors } from './fixtures.js';
import { appUrl, root, seriousViolations, typeCode } from './app_page.js';

const shots = `${root}build/test-results/screenshots`;
const RUN_MS = 90000; // the first Python run starts Pyodide

const PYTHON = `import jax
import jax.numpy as jnp
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((8,), ("x",), axis_types=(AxisType.Auto,))

@jax.jit
def total(a):
    return jax.shard_map(lambda b: jax.lax.psum(jnp.sum(b), "x"), mesh=mesh, in_specs=P("x"), out_specs=P())(a)

print("hello from python")
print("total", int(total(jnp.arange(16.0))))
jax.shard_map(lambda b: jax.debug.print("block {}", b) or b, mesh=mesh, in_specs=P("x"), out_specs=P("x"))(jnp.arange(8.0))
print(jax.make_jaxpr(jax.shard_map(lambda b: b * 2, mesh=mesh, in_specs=P("x"), out_specs=P("x")))(jnp.ones(8)))
print("<img src=x onerror=window.__injected=1>")
`;

const JAVASCRIPT = `import * as sl from 'shardlab';
const { P, lax, np } = sl;

const mesh = sl.makeMesh([8], ['x']);
const total = sl.jit((a) => sl.shardMap((b) => lax.psum(np.sum(b), 'x'), { mesh, inSpecs: P('x'), outSpecs: P() })(a));
console.log('hello from js', await (await total(np.arange(16).astype('float32'))).item());
console.error('a warning');
`;

async function run(page, text, { timeout = RUN_MS } = {}) {
  await page.click('#run');
  await expect(page.locator('#run-status')).toHaveText(text, { timeout });
}

test('a Python script prints, traces under a shard_map and shows the program and its sharding; markup stays text', async ({ page }) => {
  test.setTimeout(150000);
  await page.goto(appUrl());
  await page.getByRole('link', { name: 'Playground' }).first().click();
  await expect(page).toHaveURL(/#\/playground$/);
  await expect(page.locator('#language')).toHaveValue('python');
  await typeCode(page, PYTHON);
  await page.locator('.cm-content').press('Control+Enter');
  await expect(page.locator('#run-status')).toHaveText(/^Done in \d+ ms$/, { timeout: RUN_MS });
  const output = page.locator('#output');
  // jax.debug.print in a shard_map body: each device's block, in device order.
  const blocks = Array.from({ length: 8 }, (_, d) => `block [${d}.]\n`).join('');
  await expect(output).toContainText(`hello from python\ntotal 120\n${blocks}`);
  await expect(output).toContainText('<img src=x onerror=window.__injected=1>');
  await expect(page.locator('#output img')).toHaveCount(0);
  expect(await page.evaluate(() => window.__injected ?? null)).toBeNull();
  await expect(page.locator('#programs .traced')).toHaveCount(2);
  await expect(page.locator('#programs h3').first()).toHaveText('1. jax.jit');
  await expect(page.locator('#programs .traced').first()).toContainText('psum');
  await expect(page.locator('#programs h3').nth(1)).toHaveText('2. jax.make_jaxpr');
  await expect(page.locator('#programs .traced').nth(1)).toContainText('shard_map');
  await expect(page.locator('#sharding svg').first()).toBeVisible();
  // The timeline of the run: the jitted shard_map ran once, one psum on each of the 8 devices.
  await expect(page.locator('#timeline svg.timeline')).toBeVisible();
  for (let d = 0; d < 8; d++) await expect(page.locator(`#timeline rect[data-device="${d}"][data-kind="collective"][data-name="psum"]`)).toHaveCount(1);
  await page.screenshot({ path: `${shots}/playground-python.png`, fullPage: true });
  // An exception is printed as Python prints it, after what was printed before it.
  await typeCode(page, 'print("before")\n1 / 0\n');
  await run(page, /^Ended with an error in \d+ ms$/);
  await expect(page.locator('#output')).toContainText(/^before\nTraceback[\s\S]*line 2[\s\S]*ZeroDivisionError: division by zero/);
  await expect(page.locator('#output .stderr')).toContainText('ZeroDivisionError');
});

test('a JavaScript script runs with shardlab importable; its console is the output', async ({ page }) => {
  await page.goto(appUrl('#/playground'));
  await page.locator('#language').selectOption('javascript');
  await expect(page).toHaveURL(/#\/playground\?lang=javascript$/);
  await expect(page.locator('.cm-content')).toContainText("import * as sl from 'shardlab'");
  await typeCode(page, JAVASCRIPT);
  await run(page, /^Done in \d+ ms$/);
  await expect(page.locator('#output')).toHaveText('hello from js 120\na warning\n');
  await expect(page.locator('#output .stderr')).toHaveText('a warning\n');
  await expect(page.locator('#programs h3')).toHaveText(['1. sl.jit']);
  await expect(page.locator('#python-status')).toHaveCount(0);
  await expect(page.locator('#sharding svg').first()).toBeVisible();
  await page.screenshot({ path: `${shots}/playground-javascript.png`, fullPage: true });
  // What its callbacks throw and its unawaited promises' failures are its output too, as is the error that ends it.
  await typeCode(
    page,
    'setTimeout(() => { throw new RangeError("from a timer"); });\nPromise.reject(new RangeError("not awaited"));\nawait new Promise((r) => setTimeout(r, 300));\nnull.f();\n',
  );
  await run(page, /^Ended with an error/);
  await expect(page.locator('#output')).toHaveText(
    /^Uncaught RangeError: from a timer\nUncaught \(in promise\) RangeError: not awaited\nTypeError: .* \(line 4, column \d+\)\n$/,
  );
  await expect(page.locator('#output span:not(.stderr)')).toHaveCount(0);
});

test('the code survives a reload, per language', async ({ page }) => {
  await page.goto(appUrl('#/playground?lang=javascript'));
  await typeCode(page, 'console.log("kept js");\n');
  await page.locator('#language').selectOption('python');
  await typeCode(page, 'print("kept python")\n');
  await page.reload();
  await expect(page.locator('.cm-content')).toHaveText('print("kept python")');
  await page.locator('#language').selectOption('javascript');
  await expect(page.locator('.cm-content')).toHaveText('console.log("kept js");');
});

test('a shared URL opened in a fresh page loads the code and runs it; a corrupt one is reported', async ({ page, browser }) => {
  test.setTimeout(150000);
  const code = 'print("shared", 6 * 7)  # é ∑ 😀\n';
  await page.goto(appUrl('#/playground?lang=python'));
  await typeCode(page, code);
  await page.click('#share');
  // The link is written once the code is compressed (asynchronously): wait for it.
  const link = /#\/playground\?lang=python&code=[\w-]+$/;
  await expect(page.locator('#share-link')).toHaveValue(link);
  const url = await page.locator('#share-link').inputValue();
  expect(page.url()).toBe(url);
  const fresh = await browser.newContext();
  const errors = watchPageErrors(fresh);
  const other = await fresh.newPage();
  try {
    await other.goto(url);
    await expect(other.locator('.cm-content')).toHaveText(code.trimEnd());
    await expect(other.locator('.play-notice')).toContainText('shared link');
    await other.click('#run');
    await expect(other.locator('#run-status')).toHaveText(/^Done/, { timeout: RUN_MS });
    await expect(other.locator('#output')).toHaveText('shared 42\n');
    // Edited, the code is saved and the link's code leaves the address.
    await other.locator('.cm-content').press('End');
    await other.keyboard.type('# mine');
    await expect(other).toHaveURL(/#\/playground\?lang=python$/);
    await other.goto(url.replace(/code=.*/, 'code=not-deflate_data'));
    await expect(other.locator('.play-notice[role=alert]')).toContainText("The shared link's code cannot be read: its compressed data is cut short or corrupt");
    await expect(other.locator('.cm-content')).toContainText('# mine');
    await other.goto(url.replace(/code=.*/, 'code=%%%'));
    await expect(other.locator('.play-notice[role=alert]')).toContainText('it is not base64url text');
    expect(errors, 'uncaught errors on the fresh page').toEqual([]);
  } finally {
    await fresh.close();
  }
});

test('an endless loop is stopped, the page stays responsive, and the next run works', async ({ page }) => {
  test.setTimeout(180000);
  for (const [lang, loop, after, printed] of [
    ['python', 'print("looping")\nwhile True:\n    pass\n', 'print("after")\n', 'after\n'],
    ['javascript', 'console.log("looping");\nwhile (true) {}\n', 'console.log("after");\n', 'after\n'],
  ]) {
    await page.goto(appUrl(`#/playground?lang=${lang}`));
    await typeCode(page, loop);
    await page.click('#run');
    await expect(page.locator('#output')).toHaveText('looping\n', { timeout: RUN_MS });
    await expect(page.locator('#run-status')).toHaveText('Running…');
    // The page answers while the script loops.
    const t0 = Date.now();
    expect(await page.evaluate(() => new Promise((r) => setTimeout(() => r(1), 10)))).toBe(1);
    expect(Date.now() - t0).toBeLessThan(2000);
    await page.click('#stop');
    await expect(page.locator('#run-status')).toHaveText('Stopped');
    await expect(page.locator('#stop')).toBeDisabled();
    await typeCode(page, after);
    await run(page, /^Done/);
    await expect(page.locator('#output')).toHaveText(printed);
  }
});

test('without cross-origin isolation both languages run on the lockstep executor in the worker', async ({ page, baseURL }) => {
  test.setTimeout(150000);
  const port = Number(new URL(baseURL).port) + 1; // the server without COOP/COEP
  await page.goto(`http://127.0.0.1:${port}${appUrl('#/playground?lang=javascript')}`);
  await expect(page.locator('#runtime')).toHaveText('8 devices: lockstep worker');
  await typeCode(page, JAVASCRIPT);
  await run(page, /^Done/);
  await expect(page.locator('#output')).toHaveText('hello from js 120\na warning\n');
  await page.locator('#language').selectOption('python');
  await typeCode(page, PYTHON);
  await run(page, /^Done/);
  await expect(page.locator('#output')).toContainText('hello from python\ntotal 120\n');
  await expect(page.locator('#programs .traced')).toHaveCount(2);
});

for (const colorScheme of ['light', 'dark']) {
  test(`axe: no serious or critical violation on the playground after a run (${colorScheme})`, async ({ page }) => {
    test.setTimeout(120000);
    await page.emulateMedia({ colorScheme });
    await page.goto(appUrl('#/playground?lang=python'));
    await typeCode(page, PYTHON);
    await run(page, /^Done/);
    await page.click('#share');
    await expect(page.locator('#share-link')).toBeVisible();
    await page.screenshot({ path: `${shots}/playground-${colorScheme}.png`, fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);
    if (colorScheme === 'light') {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: `${shots}/playground-phone.png`, fullPage: true });
      // Nothing (pictures, timeline, programs) widens the page past a phone's width.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    }
  });
}
