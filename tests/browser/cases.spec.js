// The Cases tab and "Run with my input" in headless Chromium: each case's
// input, expected and actual values side by side as tables (passed cases
// folded, the first failed one open), differing entries marked in both colour and
// words, long axes folded with a way to see all; the learner's own input
// validated against the constraints (the validator's reason, nothing run)
// or run beside the reference's answer. Screenshots in light and dark.
import { expect, test } from './fixtures.js';
import PROBLEMS from '../../problems/index.js';
import { appUrl, root, seriousViolations, solution, typeCode } from './app_page.js';

const shots = `${root}build/test-results/screenshots`;
const problem = PROBLEMS.find((p) => p.id === 'data-parallel-step');
// The reference with b's update doubled: every entry of b differs, w and loss do not.
const wrongB = () => solution('data-parallel-step').replace('b: b.sub(mb.mul(lr))', 'b: b.sub(mb.mul(lr)).mul(2)');

async function openWith(page, code) {
  await page.goto(appUrl('#/problem/data-parallel-step?lang=javascript'));
  await typeCode(page, code);
}

for (const colorScheme of ['light', 'dark']) {
  test(`a solved problem's cases show input, expected and actual tables, folded when passed (${colorScheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme });
    await openWith(page, solution('data-parallel-step'));
    await page.click('#run');
    await expect(page.locator('#verdict')).toHaveText('Examples passed', { timeout: 60000 });
    const items = page.locator('#panel-cases details.case-item');
    await expect(items).toHaveCount(3);
    for (const item of await items.all()) await expect(item).not.toHaveAttribute('open');
    // A passed case's values are built only once it is opened.
    await expect(page.locator('#panel-cases .case-values')).toHaveCount(0);
    const second = items.nth(1);
    await second.locator('summary').first().click();
    const columns = second.locator('.case-col');
    await expect(columns.locator('.col-title')).toHaveText(['Input', 'Expected', 'Actual']);
    await expect(columns.nth(0).locator('figcaption')).toHaveText(['w f32[2,1]', 'b f32[1]', 'x f32[16,2]', 'y f32[16,1]', 'lr f32[]']);
    await expect(columns.nth(1).locator('figcaption')).toHaveText(['w f32[2,1]', 'b f32[1]', 'loss f32[]']);
    await expect(columns.nth(2).locator('figcaption')).toHaveText(['w f32[2,1]', 'b f32[1]', 'loss f32[]']);
    await expect(columns.nth(0).locator('figure', { hasText: 'lr' }).locator('.scalar')).toHaveText('0.1');
    await expect(columns.nth(1).locator('figure', { hasText: 'w' }).locator('tbody td')).toHaveText(['0.072288', '0.239088']);
    await expect(second.locator('.differs')).toHaveCount(0);
    // x has 16 rows: its first and last 4 show, the 8 between are folded; "Show all" builds the whole table.
    const x = columns.nth(0).locator('figure', { hasText: 'x f32[16,2]' });
    await expect(x.locator(':scope > table tbody tr')).toHaveCount(9);
    await expect(x.locator(':scope > table tr.gap')).toHaveText(/8 more rows/);
    await expect(x.locator(':scope > table tbody th')).toHaveText(['0', '1', '2', '3', '⋮', '12', '13', '14', '15']);
    await x.locator('.show-all summary').click();
    await expect(x.locator('.show-all table tbody tr')).toHaveCount(16);
    await expect(x.locator('.show-all table tbody tr').nth(13).locator('td')).toHaveText(['1', '1']);
    await page.screenshot({ path: `${shots}/cases-${colorScheme}.png`, fullPage: true });
  });

  test(`a wrong solution's case opens with the differing entries marked (${colorScheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme });
    await openWith(page, wrongB());
    await page.click('#run');
    await expect(page.locator('#verdict')).toContainText('failed', { timeout: 60000 });
    // Every case fails; only the first opens (each open case builds its tables), the others say why when folded.
    const items = page.locator('#panel-cases details.case-item');
    await expect(items).toHaveCount(3);
    await expect(items.nth(0)).toHaveAttribute('open', '');
    for (const k of [1, 2]) await expect(items.nth(k)).not.toHaveAttribute('open');
    await expect(page.locator('#panel-cases .case-values')).toHaveCount(1);
    const third = items.nth(2);
    await expect(third.locator('summary .case.fail')).toContainText("output 'b' differs");
    await third.locator('summary').first().click();
    await expect(third.locator('.case.fail')).toContainText("output 'b' differs");
    const actual = third.locator('.case-col').nth(2);
    const expected = third.locator('.case-col').nth(1);
    // b's two entries differ, on both sides, said in words too; w and loss match.
    await expect(actual.locator('figure', { hasText: 'b f32[2]' }).locator('td.differs')).toHaveCount(2);
    await expect(expected.locator('figure', { hasText: 'b f32[2]' }).locator('td.differs')).toHaveCount(2);
    await expect(actual.locator('figure', { hasText: 'b f32[2]' }).locator('figcaption')).toContainText('2 entries differ');
    await expect(actual.locator('td.differs').first()).toContainText('(differs)');
    await expect(actual.locator('figure', { hasText: 'w f32[2,2]' }).locator('.differs')).toHaveCount(0);
    await expect(actual.locator('figure', { hasText: 'loss' }).locator('.differs')).toHaveCount(0);
    await expect(expected.locator('figure', { hasText: 'b f32[2]' }).locator('td')).toHaveText(['-0.195125 (differs)', '-0.22975 (differs)']);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `${shots}/cases-wrong-${colorScheme}.png`, fullPage: true });
  });
}

test('a 3-D array shows as its 2-D slices', async ({ page }) => {
  await page.goto(appUrl('#/problem/batched-attention-vmap?lang=javascript'));
  await typeCode(page, solution('batched-attention-vmap'));
  await page.click('#run');
  await expect(page.locator('#verdict')).toHaveText('Examples passed', { timeout: 60000 });
  const first = page.locator('#panel-cases details.case-item').first();
  await first.locator('summary').first().click();
  const q = first.locator('.case-col').nth(0).locator('figure').first();
  await expect(q.locator('.slice-index').first()).toHaveText('[0, :, :]');
  await expect(q.locator('.slice table').first()).toBeVisible();
  await page.screenshot({ path: `${shots}/cases-3d.png`, fullPage: true });
});

test('"Run with my input" runs a valid input beside the reference\'s answer', async ({ page }) => {
  await openWith(page, wrongB());
  await page.click('#my-input summary');
  const text = page.locator('#my-input-json');
  expect(JSON.parse(await text.inputValue())).toEqual(problem.examples[0].input);
  const input = { ...problem.examples[2].input, lr: 0.2 };
  await text.fill(JSON.stringify(input));
  await page.click('#run-mine');
  await expect(page.locator('#my-verdict')).toContainText("Your result differs from the reference's answer", { timeout: 60000 });
  const columns = page.locator('#my-result .case-col');
  await expect(columns.locator('.col-title')).toHaveText(['Input', "Reference's answer", 'Your result']);
  await expect(columns.nth(2).locator('figure', { hasText: 'b f32[2]' }).locator('td.differs')).toHaveCount(2);
  await expect(columns.nth(0).locator('figure', { hasText: 'lr' }).locator('.scalar')).toHaveText('0.2');
  // The page's own results are untouched by a run of my input.
  await expect(page.locator('#verdict')).toHaveCount(0);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: `${shots}/my-input-dark.png`, fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);
  // The right code on the same input matches; the input is kept across a reload.
  await page.reload();
  await typeCode(page, solution('data-parallel-step'));
  await page.click('#my-input summary');
  expect(JSON.parse(await text.inputValue())).toEqual(input);
  await page.click('#run-mine');
  await expect(page.locator('#my-verdict')).toHaveText("Your result matches the reference's answer", { timeout: 60000 });
  await expect(page.locator('#my-result .differs')).toHaveCount(0);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.screenshot({ path: `${shots}/my-input-light.png`, fullPage: true });
});

test('"Run with my input" outside the constraints shows the reason and runs nothing', async ({ page }) => {
  await openWith(page, solution('data-parallel-step'));
  // A check starts a sandbox worker (and the devices' on the first): none may start.
  const workers = [];
  page.on('worker', (w) => workers.push(w.url()));
  await page.click('#my-input summary');
  const text = page.locator('#my-input-json');
  const verdict = page.locator('#my-verdict');
  const run = async (input) => {
    await text.fill(typeof input === 'string' ? input : JSON.stringify(input));
    await page.click('#run-mine');
  };
  const { input } = problem.examples[0];
  await run({ ...input, x: input.x.slice(0, 3), y: input.y.slice(0, 3) });
  await expect(verdict).toHaveAttribute('role', 'alert');
  await expect(verdict).toHaveText("Outside the problem's constraints: input x has 3 rows (N); N must be one of 8, 16, 24, 32");
  await run({ ...input, lr: 0.5 });
  await expect(verdict).toContainText('input lr = 0.5 is out of range');
  await run({ ...input, b: [0, 0] });
  await expect(verdict).toContainText('input b has 2 entries (K)');
  await run('{"w": [[0]],');
  await expect(verdict).toContainText('The input is not JSON');
  await expect(page.locator('#my-result .case-values')).toHaveCount(0);
  await expect(page.locator('#run')).toBeEnabled();
  await expect(page.locator('#results')).toBeEmpty();
  expect(workers).toEqual([]);
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: `${shots}/my-input-invalid.png`, fullPage: true });
});
