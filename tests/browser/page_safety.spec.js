// What the checker page shows of a learner's code is text, never markup: a
// mesh axis name (from an ordinary, untampered program), an error message
// and every string of a report come out
// literally, with no element or event handler added, and no script run (the
// __pwned flag stays unset, also after hovering the pictures). And the built,
// minified page names the API's errors by their classes (ValueError, ...).
import { expect, test } from './fixtures.js';
import { appUrl, solution, typeCode } from './app_page.js';

const IMG = '<img src=x onerror=window.__pwned=1>';

// Fires mouseover on every element of the results (and really hovers each
// picture), then looks for what markup injection leaves behind: an <img>, an
// on... attribute, or the flag an injected handler sets. The pictures are in
// the Sharding tab, opened first.
async function expectNoInjection(page) {
  if (await page.locator('#tab-sharding').count()) await page.click('#tab-sharding');
  for (const svg of await page.locator('#results svg:visible').all()) await svg.hover();
  const found = await page.evaluate(async () => {
    const all = [...document.querySelectorAll('#results *')];
    for (const el of all) el.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
    await new Promise((r) => setTimeout(r, 200)); // an injected <img> fails to load and fires onerror
    return {
      pwned: window.__pwned ?? null,
      images: document.querySelectorAll('#results img').length,
      handlers: all.flatMap((el) => [...el.attributes].filter((a) => /^on/i.test(a.name)).map((a) => `${el.tagName} ${a.name}`)),
    };
  });
  expect(found).toEqual({ pwned: null, images: 0, handlers: [] });
}

const ariaLabels = (page) => page.locator('#results figure.array svg').evaluateAll((svgs) => svgs.map((s) => s.getAttribute('aria-label')));

for (const axis of ['data" onmouseover="window.__pwned=1', 'd" onmouseover=window.__pwned=1 x="', IMG]) {
  test(`the mesh axis name ${axis} is shown as text in the pictures, the program and the mesh line`, async ({ page }) => {
    await page.goto(appUrl('#/problem/data-parallel-step?lang=javascript'));
    await typeCode(page, solution('data-parallel-step').replaceAll("'data'", JSON.stringify(axis)));
    await page.click('#run');
    await expect(page.locator('#verdict')).toHaveText('Examples passed', { timeout: 60000 });
    await expect(page.locator('figure.mesh figcaption')).toHaveText(`Mesh ${axis} = 8: 8 devices`);
    await expect(page.locator('figure.array figcaption', { hasText: `x f32[8,1] P('${axis}') · input of shard_map` })).toHaveCount(1);
    expect((await ariaLabels(page)).filter((l) => l.includes(`P('${axis}')`))).toHaveLength(2); // x and y
    const jaxpr = await page.locator('pre.jaxpr').textContent();
    expect(jaxpr.replace(/\[\s+/g, '[')).toContain(`psum[axes=('${axis}',)`); // its parameters one per line past 80 columns
    expect(jaxpr).toContain(`mesh=Mesh('${axis}': 8)`);
    await expectNoInjection(page);
  });
}

test("an error message thrown by the learner's code is shown as text", async ({ page }) => {
  await page.goto(appUrl('#/problem/ring-allreduce-ppermute?lang=javascript'));
  await typeCode(page, `export default function solve(x) {\n  throw new Error(${JSON.stringify(IMG)});\n}\n`);
  await page.click('#run');
  await expect(page.locator('.case.fail').first()).toContainText(`the solution failed: Error: ${IMG}`, { timeout: 60000 });
  await expectNoInjection(page);
});

test('an error thrown while loading the code is shown as text', async ({ page }) => {
  await page.goto(appUrl('#/problem/ring-allreduce-ppermute?lang=javascript'));
  await typeCode(page, `throw new Error(${JSON.stringify(IMG)});\nexport default function solve(x) {}\n`);
  await page.click('#run');
  await expect(page.locator('#results')).toContainText(`your code does not load: Error: ${IMG}`, { timeout: 60000 });
  await expectNoInjection(page);
});

test("a custom function's and its rule's names (the learner's) are shown as text in the traced program", async ({ page }) => {
  await page.goto(appUrl('#/problem/ring-allreduce-ppermute?lang=javascript'));
  const code = solution('ring-allreduce-ppermute')
    .replace(
      'export default function',
      `const id = sl.customJvp((v) => v, { name: ${JSON.stringify(IMG)} });\nid.defjvp((p, t) => [id(p[0]), t[0]], { name: ${JSON.stringify(IMG)} });\nexport default function`,
    )
    .replace('let sum = block;', 'let sum = id(block);');
  await typeCode(page, code);
  await page.click('#run');
  await expect(page.locator('#verdict')).toHaveText('Examples passed', { timeout: 60000 });
  const jaxpr = await page.locator('pre.jaxpr').textContent();
  expect(jaxpr).toContain(`name=${IMG}`);
  expect(jaxpr).toContain(`jvp=${IMG}`);
  await expectNoInjection(page);
});

test('every string of a report is rendered as text (report.js on a hostile report)', async ({ page }) => {
  await page.goto('/tests/browser/pages/report.html');
  const x = await page.waitForFunction(() => window.__hostile).then((h) => h.jsonValue());
  await expect(page.locator('.case.fail')).toHaveText(`✗ ${x}: ${x}`);
  await expect(page.locator('.case.pass')).toHaveText(`✓ ${x} (max abs error 0.0e+0)`);
  await expect(page.locator('.diff')).toHaveText(`${x}[${x}] expected ${x}, got ${x}`);
  await expect(page.locator('.diff .actual')).toHaveText(x);
  await expect(page.locator('.req.fail')).toHaveText(`✗ ${x}`);
  await expect(page.locator('#results > p').nth(1)).toHaveText(`2 cases in ${x} ms (seed ${x})`);
  await expect(page.locator('details.body')).toContainText(`psum[axes=(${x},)]`);
  await expect(page.locator('details.body summary')).toHaveText(`jaxpr (${x} equations)`); // the parameter holding it
  expect(await page.locator('pre.jaxpr').textContent()).toContain(`in (b,) }\n${x}`);
  await expect(page.locator('figure.mesh figcaption')).toHaveText(`Mesh ${x} = 8: 8 devices`);
  await expect(page.locator('figure.array figcaption code').first()).toHaveText(x);
  await expect(page.locator('figure.array figcaption').first()).toContainText(`f32[8,4]${x} P('${x}', None) · input of shard_map`);
  const layout = `f32[8,4]${x} P('${x}', None)`;
  expect(await ariaLabels(page)).toEqual([`${x}: ${layout}, input of shard_map; each block on one device`, `${x}: ${layout}, output of shard_map and of the program; each block on one device`]);
  await expect(page.locator('figure.collective figcaption')).toContainText(`psum over ${x}: 1 group of 8`);
  await expect(page.locator('figure.collective figcaption')).toContainText(`block f32[8,4]${x} = 128 B per device; each device sends 896 B (${x})`);
  await expect(page.locator('figure.collective figcaption')).toContainText(`${x}; block f32[8,4]`);
  await expect(page.locator('figure.collective g.hub text')).toHaveText(x);
  // What a case printed (jax.debug.print's text, from the sandbox's format): text in the Output tab.
  await page.click('#tab-output');
  await expect(page.locator('#panel-output h4')).toHaveText(x);
  await expect(page.locator('#panel-output pre')).toHaveText(`${x}\n${x}`);
  await expectNoInjection(page);
});

test("the page's own HTML (a statement) keeps its formatting and loses whatever could run script (dom.js markup)", async ({ page }) => {
  await page.goto('/tests/browser/pages/report.html');
  await page.waitForFunction(() => window.__hostile);
  await page.locator('#markup a').first().click();
  const found = await page.evaluate(async () => {
    await new Promise((r) => setTimeout(r, 200)); // an <img> that fails to load fires its onerror by now
    const all = [...document.querySelectorAll('#markup *')];
    return {
      pwned: window.__pwned ?? null,
      active: document.querySelectorAll('#markup :is(script, iframe)').length,
      handlers: all.flatMap((el) => [...el.attributes].filter((a) => /^on/i.test(a.name)).map((a) => `${el.tagName} ${a.name}`)),
      scriptUrls: all.flatMap((el) => [...el.attributes].filter((a) => /script:/i.test(a.value)).map((a) => `${el.tagName} ${a.name}`)),
      kept: document.querySelector('#markup b')?.textContent ?? null,
    };
  });
  expect(found).toEqual({ pwned: null, active: 0, handlers: [], scriptUrls: [], kept: 'kept' });
});

test('the built (minified) page names the API errors by their classes', async ({ page }) => {
  test.setTimeout(120000);
  await page.goto(appUrl('#/problem/ring-allreduce-ppermute?lang=javascript'));
  const cases = {
    ValueError: "sl.makeMesh([8], ['data', 'model'])",
    ShapeError: 'x.matmul(sl.array([[1], [2], [3]]))',
    ShardingError: "sl.shardMap((b) => b, { mesh: sl.makeMesh([8], ['data']), inSpecs: P(null, 'data'), outSpecs: P(null, 'data') })(x)",
    VmaError: "sl.shardMap((b) => b, { mesh: sl.makeMesh([8], ['data']), inSpecs: P('data'), outSpecs: P() })(x)",
  };
  for (const [name, call] of Object.entries(cases)) {
    await typeCode(page, `import * as sl from 'shardlab';\nconst { P } = sl;\nexport default function solve(x) {\n  return { out: ${call} };\n}\n`);
    await page.click('#run');
    await expect(page.locator('.case.fail').first()).toContainText(`the solution failed: ${name}: `, { timeout: 20000 });
  }
});
