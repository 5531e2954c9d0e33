// The collectives are listed once, in the core's primitive registry: the
// program JSON marks each collective equation from it, and the page's
// pictures list exactly the marked equations (they keep no list of their
// own). The program uses every collective the registry has, so a new one
// must be added here to pass.
import { expect, test } from './fixtures.js';

test('the registry, the program JSON and the pictures agree on which primitives are collectives', async ({ page }) => {
  await page.goto('/tests/browser/pages/pictures.html');
  const r = await page.evaluate(() => window.__pictures());
  const sorted = (xs) => [...xs].sort();
  expect(r.registry.length).toBeGreaterThanOrEqual(7);
  expect(sorted(r.marked)).toEqual(sorted(r.registry));
  expect(sorted(r.used.filter((p) => r.registry.includes(p)))).toEqual(sorted(r.registry)); // every collective is in the program
  expect(sorted(new Set(r.pictured))).toEqual(sorted(r.registry));
  expect(r.pictured.length).toBe(8); // all_gather twice
});
