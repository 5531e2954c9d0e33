// The page's judge runs off its main thread (web/app/judge_worker.js), and the
// report is drawn a panel per task (report.js), one failed case open: no
// task of the main thread uses over 50 ms of the processor during a check
// (main_thread.js), for the references in both languages and for a wrong
// solution of 20,000 equations, whose programs take the judge seconds to
// rebuild and read and whose 23 failed cases hold thousands of table cells.
import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures.js';
import { appUrl, root, solution, typeCode } from './app_page.js';
import { longestTasks, mainThreadTasksDuring } from './main_thread.js';

const HUGE = `import * as sl from 'shardlab';
export default function solve(x) {
  const mesh = sl.makeMesh([8], ['data']);
  return { out: sl.shardMap((b) => { let y = b; for (let i = 0; i < 19990; i++) y = y.add(0); return y; }, { mesh, inSpecs: sl.P('data'), outSpecs: sl.P('data') })(x) };
}
`;

test('no main-thread task over 50 ms of processor time during any check: JavaScript, Python, and a 20,000-equation program', { tag: '@alone' }, async ({ browser, page }) => {
  test.setTimeout(240000);
  for (const [id, lang, code, verdict] of [
    ['data-parallel-step', 'javascript', solution('data-parallel-step'), 'All passed'],
    ['tensor-parallel-mlp', 'python', readFileSync(`${root}problems/tensor-parallel-mlp/solution.py`, 'utf8'), 'All passed'],
    ['ring-allreduce-ppermute', 'javascript', HUGE, /failed/],
  ]) {
    await page.goto(appUrl(`#/problem/${id}?lang=${lang}`));
    if (lang === 'python') await expect(page.locator('#python-status')).toHaveText('Python ready', { timeout: 90000 });
    await typeCode(page, code);
    const tasks = await mainThreadTasksDuring(browser, page, async () => {
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
    expect(tasks.length, `${id} (${lang}): the trace holds the main thread's tasks`).toBeGreaterThan(0);
    expect(tasks[0][0], `${id} (${lang}): the longest main-thread tasks take ${longestTasks(tasks)}`).toBeLessThan(50);
  }
});
