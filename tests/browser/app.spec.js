// The checker page in headless Chromium: every problem solved by typing its
// reference solution into the editor and submitting; a known-wrong solution
// shows the failing requirement's message; an endless loop is stopped and the
// page stays usable; the sharding picture shows 8 blocks for a split array.
// Screenshots of the problem view and the results are kept as artifacts.
import { expect, test } from './fixtures.js';
import PROBLEMS from '../../problems/index.js';
import { APP_DIR, appUrl, root, solution, typeCode } from './app_page.js';

const shots = `${root}build/test-results/screenshots`;

// What the list should show, from problems/index.js: the topics in the order
// their first problems come, and which problems a filter keeps (every word of
// it in the title, id, topic or difficulty, as the filter's box says), in
// the list's order.
const TOPICS = [...new Set(PROBLEMS.map((p) => p.topic))];
const matching = (text) => {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  const listed = TOPICS.flatMap((t) => PROBLEMS.filter((p) => p.topic === t)); // the list's order
  return listed.filter((p) => words.every((w) => `${p.title} ${p.id} ${p.topic} ${p.difficulty}`.toLowerCase().includes(w)));
};

test('the list shows every problem, grouped by topic; the filter narrows it', async ({ page }) => {
  await page.goto(appUrl());
  await expect(page.locator('table.list tbody tr')).toHaveCount(PROBLEMS.length);
  const heads = TOPICS.map((t) => new RegExp(`^${t} 0 of ${PROBLEMS.filter((p) => p.topic === t).length} solved`));
  await expect(page.locator('section.topic h2')).toHaveText(heads);
  await page.screenshot({ path: `${shots}/list.png`, fullPage: true });
  const visible = page.locator('table.list tbody tr:visible');
  for (const text of ['vmap', 'control MEDIUM', 'HARD']) {
    const kept = matching(text);
    expect(kept.length, `the filter '${text}' keeps some problems and drops others`).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(PROBLEMS.length);
    await page.fill('#filter', text);
    await expect(visible.locator('a')).toHaveText(kept.map((p) => p.title));
    await expect(page.locator('section.topic:visible h2')).toHaveText([...new Set(kept.map((p) => p.topic))].map((t) => new RegExp(`^${t}`)));
  }
  await page.fill('#filter', 'no such problem');
  await expect(visible).toHaveCount(0);
  await expect(page.locator('#no-match')).toBeVisible();
  await page.fill('#filter', '');
  await expect(visible).toHaveCount(PROBLEMS.length);
  await expect(page.locator('#no-match')).toBeHidden();
  await expect(page.locator('#notice')).toBeHidden();
});

for (const { id } of PROBLEMS) {
  test(`${id}: the reference solution typed into the editor passes Submit`, async ({ page }) => {
    await page.goto(appUrl(`#/problem/${id}?lang=javascript`));
    await expect(page.locator('.statement h1')).toBeVisible();
    await expect(page.locator('.katex').first()).toBeVisible();
    await typeCode(page, solution(id));
    await page.screenshot({ path: `${shots}/${id}-problem.png`, fullPage: true });
    await page.click('#submit');
    await expect(page.locator('#verdict')).toHaveText('All passed', { timeout: 60000 });
    await expect(page.locator('.case.fail')).toHaveCount(0);
    await expect(page.locator('.req.fail')).toHaveCount(0);
    await page.screenshot({ path: `${shots}/${id}-results.png`, fullPage: true });
  });
}

test('a known-wrong solution shows the failing requirement', async ({ page }) => {
  await page.goto(appUrl('#/problem/data-parallel-step?lang=javascript'));
  await typeCode(page, solution('data-parallel-step').replace("lax.pcast([w, b], 'data', { to: 'varying' })", '[w, b]'));
  await page.click('#submit');
  await expect(page.locator('#verdict')).toContainText('failed', { timeout: 60000 });
  await expect(page.locator('.req.fail')).toContainText('8 times the mean gradient');
  // The results are tabs; the first with a failure is open (8 times the gradient fails the cases too), the arrow keys move between them.
  await expect(page.locator('[role=tab]')).toHaveText(['Cases (0/23)', 'Requirements (5/6)', 'Program', 'Sharding', 'Timeline']);
  await expect(page.locator('#tab-cases')).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('.case.fail').first()).toBeVisible();
  await expect(page.locator('#panel-requirements')).toBeHidden();
  await page.focus('#tab-cases');
  await page.keyboard.press('ArrowRight');
  await expect(page.locator('#tab-requirements')).toBeFocused();
  await expect(page.locator('.req.fail')).toBeVisible();
  await page.keyboard.press('ArrowRight');
  await expect(page.locator('pre.jaxpr')).toBeVisible();
  await page.keyboard.press('End');
  await expect(page.locator('#tab-timeline')).toBeFocused();
  await expect(page.locator('#panel-timeline svg.timeline')).toBeVisible();
  await page.keyboard.press('ArrowLeft');
  await expect(page.locator('#panel-sharding figure').first()).toBeVisible();
  await page.keyboard.press('Home');
  await expect(page.locator('#tab-cases')).toBeFocused();
  await expect(page.locator('#panel-cases')).toBeVisible();
});

test("at a phone's width the statement stacks above the editor", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(appUrl('#/problem/ema-scan?lang=javascript'));
  const statement = await page.locator('.statement').boundingBox();
  const editor = await page.locator('#editor').boundingBox();
  expect(editor.y).toBeGreaterThan(statement.y + statement.height - 1);
  expect(editor.width).toBeLessThanOrEqual(390);
  await page.screenshot({ path: `${shots}/phone.png`, fullPage: true });
});

test('an endless loop is stopped after the time limit and the next run works', async ({ page }) => {
  test.setTimeout(90000);
  await page.goto(appUrl('#/problem/ring-allreduce-ppermute?lang=javascript'));
  await typeCode(page, 'export default function solve(x) {\n  for (;;) {}\n}\n');
  await page.click('#run');
  await expect(page.locator('.case.fail').first()).toContainText('ran longer than 10 s', { timeout: 40000 });
  await typeCode(page, solution('ring-allreduce-ppermute'));
  await page.click('#run');
  await expect(page.locator('#verdict')).toHaveText('Examples passed', { timeout: 60000 });
});

test('the sharding picture shows 8 blocks for an array split over 8 devices', async ({ page }) => {
  await page.goto(appUrl('#/problem/tensor-parallel-mlp?lang=javascript'));
  await typeCode(page, solution('tensor-parallel-mlp'));
  await page.click('#run');
  await expect(page.locator('#verdict')).toHaveText('Examples passed', { timeout: 60000 });
  const split = page.locator('figure.array', { hasText: "P('model', None)" }).first();
  await expect(split.locator('g.block')).toHaveCount(8);
});

test('the traced program folds the shard_map body, printed before the program as JAX prints a long one', async ({ page }) => {
  await page.goto(appUrl('#/problem/ring-allreduce-ppermute?lang=javascript'));
  await typeCode(page, solution('ring-allreduce-ppermute'));
  await page.click('#run');
  await expect(page.locator('#verdict')).toHaveText('Examples passed', { timeout: 60000 });
  const body = page.locator('details.body');
  // Of more than 10 equations, it prints before the program, as JAX 0.11's `let jaxpr = { ... } in`.
  await expect(body.locator('summary')).toHaveText('jaxpr (14 equations)');
  await expect(body).toContainText(/ppermute\[\s+axis_name=/);
});

test('without the two headers the page says so and still checks through the fallback', async ({ page, baseURL }) => {
  const port = Number(new URL(baseURL).port) + 1;
  await page.goto(`http://127.0.0.1:${port}/${APP_DIR}/index.html#/problem/ring-allreduce-ppermute?lang=javascript`);
  await expect(page.locator('#notice')).toContainText('Cross-Origin-Embedder-Policy: require-corp');
  await typeCode(page, solution('ring-allreduce-ppermute'));
  await page.click('#run');
  await expect(page.locator('#verdict')).toHaveText('Examples passed', { timeout: 60000 });
});

