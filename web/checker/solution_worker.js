// Runs a solution in a worker the checker can terminate (an endless loop is
// stopped by the time limit): it traces the solution, runs it on each case's
// inputs and posts the outputs back. It never sees the expected values; the
// verdict is computed outside (engine.js).

import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { register } from 'node:module';
import { rawOutputs, traceSolution, solutionArgs } from './run_solution.js';

if (!isMainThread) {
  register('./resolve_hooks.mjs', import.meta.url);
  const { problemId, solutionUrl } = workerData;
  const { loadProblem } = await import('./problems.js');
  const sl = await import('../lib/index.js');
  const problem = await loadProblem(problemId);
  let solution = problem.solution;
  if (solutionUrl) {
    try {
      solution = (await import(solutionUrl)).default;
    } catch (e) {
      parentPort.postMessage({ loadError: `cannot load the solution ${new URL(solutionUrl).pathname}: ${e.message}` });
    }
    if (typeof solution !== 'function') {
      parentPort.postMessage({ loadError: `${new URL(solutionUrl).pathname} has no default export (export default function solution(...))` });
    }
  }
  await sl.init();
  const f = sl.jit(solution);
  parentPort.on('message', async ({ kind, input }) => {
    try {
      if (kind === 'trace') {
        parentPort.postMessage({ ok: true, ...traceSolution(problem, solution, input) });
      } else {
        parentPort.postMessage({ ok: true, raw: await rawOutputs(problem, await f(...solutionArgs(problem, input))) });
      }
    } catch (e) {
      parentPort.postMessage({ ok: false, error: { name: e?.name ?? 'Error', message: e?.message ?? String(e) } });
    }
  });
  parentPort.postMessage({ ready: true });
}
