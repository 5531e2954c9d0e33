// The page's judge runs off its main thread (web/app/judge_worker.js), and the
// report is drawn a panel per task (report.js): no task of the main thread
// takes over 100 ms during a check (a long-task observer), for the references
// in both languages and for a solution of 20,000 equations, whose programs
// take the judge seconds to rebuild and read.
import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures.js';
import { appUrl, root, solution, typeCode } from './app_page.js';

// The longest main-thread tasks while `run` goes on, in ms (the long-task API reports tasks over 50 ms).
async function longTasksDuring(page, run) {
  await page.evaluate(() => {
    window.__long = [];
    new PerformanceObserver((list) => window.__long.push(...list.getEntries().map((e) => Math.round(e.duration)))).observe({ type: 'longtask' });
  });
  await run();
  await page.waitForTimeout(200);
  return page.evaluate(() => window.__long);
}

const HUGE = `import * as sl from 'shardlab';
export default function solve(x) {
  const mesh = sl.makeMesh([8], ['data']);
  return { out: sl.shardMap((b) => { let y = b; for (let i = 0; i < 19990; i++) y = y.add(0); return y; }, { mesh, inSpecs: sl.P('data'), outSpecs: sl.P('data') })(x) };
}
`;

test('no main-thread task over 100 ms during any check: JavaScript, Python, and a 20,000-equation program', { tag: '@alone' }, async ({ page }) => {
  test.setTimeout(240000);
  for (const [id, lang, code, verdict] of [
    ['data-parallel-step', 'javascript', solution('data-parallel-step'), 'All passed'],
    ['tensor-parallel-mlp', 'python', readFileSync(`${root}problems/tensor-parallel-mlp/solution.py`, 'utf8'), 'All passed'],
    ['ring-allreduce-ppermute', 'javascript', HUGE, /failed/],
  ]) {
    await page.goto(appUrl(`#/problem/${id}?lang=${lang}`));
    if (lang === 'python') await expect(page.locator('#python-status')).toHaveText('Python ready', { timeout: 90000 });
    await typeCode(page, code);
    const long = await longTasksDuring(page, async () => {
      // The page's count of reports drawn, awaited in the page (a polling assertion would add its own work to the main thread).
      const before = Number((await page.locator('#results').getAttribute('data-reports')) ?? 0);
      const drawn = page.evaluate((n) => {
        const results = document.getElementById('results');
        return new Promise((resolve) => {
          const check = () => Number(results.dataset.reports ?? 0) > n && resolve();
          new MutationObserver(check).observe(results, { attributes: true });
          check();
        });
      }, before);
      await page.click('#submit');
      await drawn;
    });
    await expect(page.locator('#verdict')).toHaveText(verdict);
    expect(Math.max(0, ...long), `${id} (${lang}): main-thread tasks of ${long.join(', ')} ms`).toBeLessThan(100);
  }
});
