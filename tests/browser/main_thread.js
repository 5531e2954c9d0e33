// What the page's main thread did while a test ran, from Chromium's trace.
// A task's processor time (the trace's thread time, `tdur`) is the page's own
// work; its wall time also holds how long the system left the thread waiting
// for a core, which on 2 cores shared with 8 device threads is the machine's
// load, not the page. Tests bound the first and report the second.

/** The main thread's tasks while `run` goes on, each as [processor ms, wall ms], most processor time first. */
export async function mainThreadTasksDuring(browser, page, run) {
  await browser.startTracing(page, { categories: ['toplevel', 'disabled-by-default-devtools.timeline'] });
  await run();
  await page.waitForTimeout(200);
  const { traceEvents } = JSON.parse(await browser.stopTracing());
  const main = new Set(traceEvents.filter((e) => e.name === 'thread_name' && e.args.name === 'CrRendererMain').map((e) => `${e.pid}/${e.tid}`));
  return traceEvents
    .filter((e) => e.name === 'RunTask' && main.has(`${e.pid}/${e.tid}`) && e.tdur !== undefined)
    .map((e) => [Math.round(e.tdur / 1000), Math.round(e.dur / 1000)])
    .sort((a, b) => b[0] - a[0]);
}

/** The longest of `tasks` (mainThreadTasksDuring's), as a message names them. */
export const longestTasks = (tasks) => tasks.slice(0, 5).map(([cpu, wall]) => `${cpu} ms (${wall} ms wall)`).join(', ');
