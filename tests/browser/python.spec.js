// The checker page in Python (its first language), in headless Chromium:
// every problem solved by typing its Python reference into the editor; a
// known-wrong Python solution shows the requirement's message in Python's
// terms; the language selector and ?lang= open a problem in either
// language; a syntax error or a failed import is a verdict with its line;
// the page stays responsive while Pyodide loads. Each check runs in a fresh
// Python worker, the next one started ahead. Screenshots are kept as artifacts.
import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures.js';
import PROBLEMS from '../../problems/index.js';
import { appUrl, root, typeCode } from './app_page.js';

const shots = `${root}build/test-results/screenshots`;
const pythonSolution = (id) => readFileSync(`${root}problems/${id}/solution.py`, 'utf8');

test('every problem solved in Python; a wrong solution shows the message; a syntax or import error is a verdict with its line', async ({ page }) => {
  test.setTimeout(120000 + 30000 * PROBLEMS.length);
  await page.goto(appUrl('#/problem/data-parallel-step'));
  await expect(page.locator('#language')).toHaveValue('python');
  await expect(page.locator('.statement h1')).toBeVisible();
  await expect(page.locator('#python-status')).toHaveText('Python ready', { timeout: 90000 });
  for (const { id } of PROBLEMS) {
    await page.goto(appUrl(`#/problem/${id}?lang=python`));
    await typeCode(page, pythonSolution(id));
    await page.click('#submit');
    await expect(page.locator('#verdict')).toHaveText('All passed', { timeout: 60000 });
    await expect(page.locator('.req.fail')).toHaveCount(0);
    await page.screenshot({ path: `${shots}/python-${id}-results.png`, fullPage: true });
  }
  await page.goto(appUrl('#/problem/data-parallel-step?lang=python'));
  await typeCode(page, pythonSolution('data-parallel-step').replace('jax.lax.pcast((w, b), "data", to="varying")', '(w, b)'));
  await page.click('#submit');
  await expect(page.locator('#verdict')).toContainText('failed', { timeout: 60000 });
  await expect(page.locator('.req.fail')).toContainText('jax.lax.pcast w and b to varying');
  await typeCode(page, 'import jax\n\ndef step(w, b, x, y, lr):\n    if lr > 0:\n        pass\n    return {"w": w, "b": b, "loss": lr}\n');
  await page.click('#submit');
  const branch = page.locator('.req.fail').filter({ hasText: 'branches on a traced value' });
  await expect(branch).toHaveCount(1, { timeout: 60000 });
  await page.click('#tab-requirements');
  await expect(branch).toBeVisible();
  await expect(page.locator('.case.fail').first()).toContainText('line 4, in step');
  // A learner's syntax error or failed import is a verdict naming the error and its line, as in the CLI.
  await typeCode(page, 'def step(w, b, x, y, lr):\n    return {"w": w +}\n');
  await page.click('#submit');
  await expect(page.locator('#verdict')).toContainText('failed', { timeout: 60000 });
  await expect(page.locator('.case.fail').first()).toContainText(/the solution could not be loaded:[\s\S]*line 2[\s\S]*SyntaxError: invalid syntax/);
  await typeCode(page, 'import numpy_that_is_not_here\n\ndef step(w, b, x, y, lr):\n    return {}\n');
  await page.click('#submit');
  await expect(page.locator('.case.fail').first()).toContainText(/line 1[\s\S]*ModuleNotFoundError: No module named 'numpy_that_is_not_here'/, { timeout: 60000 });
});

test('an endless Python loop is stopped by the time limit; the warm worker is replaced and the next run works', async ({ page }) => {
  test.setTimeout(180000);
  await page.goto(appUrl('#/problem/ring-allreduce-ppermute?lang=python'));
  await expect(page.locator('#python-status')).toHaveText('Python ready', { timeout: 90000 });
  await typeCode(page, 'def ring_all_reduce(x):\n    while True:\n        pass\n');
  await page.click('#run');
  await expect(page.locator('.case.fail').first()).toContainText('ran longer than 10 s', { timeout: 40000 });
  await typeCode(page, pythonSolution('ring-allreduce-ppermute'));
  await page.click('#run');
  await expect(page.locator('#verdict')).toHaveText('Examples passed', { timeout: 90000 });
});

test("jax.debug.print in the body shows in the Output tab: each example's devices in device order, as text", async ({ page }) => {
  test.setTimeout(180000);
  await page.goto(appUrl('#/problem/data-parallel-step?lang=python'));
  await expect(page.locator('#python-status')).toHaveText('Python ready', { timeout: 90000 });
  const pmean = '        mw, mb, ml = jax.lax.pmean((gw, gb, l), "data")\n';
  const printing = '        jax.debug.print("device {d} <b>{d}</b> {n}", d=jax.lax.axis_index("data"), n=x.shape[0])\n';
  expect(pythonSolution('data-parallel-step')).toContain(pmean);
  await typeCode(page, pythonSolution('data-parallel-step').replace(pmean, printing + pmean));
  await page.click('#run');
  await expect(page.locator('#verdict')).toHaveText('Examples passed', { timeout: 90000 });
  await page.click('#tab-output');
  const first = page.locator('#panel-output section.case-output').first();
  await expect(first.locator('h4')).toHaveText(/^(example|case) 1$/); // the first case's name
  // Each device's line in device order; the learner's markup stays text.
  await expect(first.locator('pre')).toHaveText(/^device 0 <b>0<\/b> \d+\ndevice 1 <b>1<\/b> \d+\n[^]*device 7 <b>7<\/b> \d+$/);
  const lines = (await first.locator('pre').textContent()).split('\n');
  expect(lines.map((l) => l.replace(/ \d+$/, ''))).toEqual(Array.from({ length: 8 }, (_, d) => `device ${d} <b>${d}</b>`));
  await expect(page.locator('#panel-output b')).toHaveCount(0);
  await page.locator('#panel-output').screenshot({ path: `${shots}/python-debug-print-output.png` });
});

test('the language selector and ?lang= choose the language; code is kept per language', async ({ page }) => {
  await page.goto(appUrl('#/problem/ring-allreduce-ppermute?lang=javascript'));
  await expect(page.locator('#language')).toHaveValue('javascript');
  await expect(page.locator('.cm-content')).toContainText('export default function solve(x)');
  await expect(page.locator('.statement')).toContainText('sl.lax');
  await page.locator('#language').selectOption('python');
  await expect(page).toHaveURL(/#\/problem\/ring-allreduce-ppermute\?lang=python$/);
  await expect(page.locator('.cm-content')).toContainText('def ring_all_reduce(x):');
  await expect(page.locator('.statement')).toContainText('jax.shard_map');
  await typeCode(page, '# mine\ndef ring_all_reduce(x):\n    return {"out": x}\n');
  await page.locator('#language').selectOption('javascript');
  await expect(page.locator('.cm-content')).toContainText('export default function solve(x)');
  await page.locator('#language').selectOption('python');
  await expect(page.locator('.cm-content')).toContainText('# mine');
});

test('the page stays responsive while Python loads', { tag: '@alone' }, async ({ page }) => {
  test.setTimeout(120000);
  await page.goto(appUrl());
  // Count main-thread timer ticks from opening a Python problem until Python is ready.
  await page.evaluate(() => {
    window.__ticks = [];
    const tick = () => {
      window.__ticks.push(performance.now());
      if (window.__ticking) setTimeout(tick, 20);
    };
    window.__ticking = true;
    tick();
  });
  await page.goto(appUrl('#/problem/tensor-parallel-mlp?lang=python'));
  await expect(page.locator('#python-status')).toContainText(/Loading Python|Starting Python|Python ready/);
  await expect(page.locator('#python-status')).toHaveText('Python ready', { timeout: 90000 });
  const ticks = await page.evaluate(() => {
    window.__ticking = false;
    return window.__ticks;
  });
  const gaps = ticks.slice(1).map((t, i) => t - ticks[i]);
  expect(ticks.length).toBeGreaterThan(20);
  expect(Math.max(...gaps)).toBeLessThan(1000); // never frozen for a second
});
