// The page's solution worker: the learner's code runs here, never in the
// page. It loads the code as a module (its imports of 'shardlab' get this
// worker's instance), runs it on the inputs it is sent and posts the outputs
// back; the page computes the verdict and never sends expected values.

import * as sl from 'shardlab';
import { rawOutputs, solutionArgs, traceSolution } from '../checker/run_solution.js';
import { problemById } from './problems.js';

globalThis.__shardlab = sl;

// `import * as sl from 'shardlab'` and `import { P } from 'shardlab'` become
// reads of this worker's instance (a module from a blob cannot import by name).
function bindImports(code) {
  return code
    .replace(/import\s+\*\s+as\s+(\w+)\s+from\s+['"]shardlab['"];?/g, 'const $1 = globalThis.__shardlab;')
    .replace(/import\s+\{([^}]*)\}\s+from\s+['"]shardlab['"];?/g, (_, names) => `const {${names.replace(/\s+as\s+/g, ': ')}} = globalThis.__shardlab;`);
}

let problem;
let solution;
let f;

self.onmessage = async ({ data }) => {
  if (data.init) {
    problem = problemById(data.init.problemId);
    try {
      const url = URL.createObjectURL(new Blob([bindImports(data.init.code)], { type: 'text/javascript' }));
      solution = (await import(/* @vite-ignore */ url)).default;
      URL.revokeObjectURL(url);
    } catch (e) {
      self.postMessage({ loadError: `your code does not load: ${e.name}: ${e.message}` });
      return;
    }
    if (typeof solution !== 'function') {
      self.postMessage({ loadError: 'your code has no default export: write `export default function solve(...) { ... }`' });
      return;
    }
    await sl.init();
    f = sl.jit(solution);
    self.postMessage({ ready: true });
    return;
  }
  try {
    if (data.kind === 'trace') self.postMessage({ ok: true, ...traceSolution(problem, solution, data.input) });
    else self.postMessage({ ok: true, raw: await rawOutputs(problem, await f(...solutionArgs(problem, data.input))) });
  } catch (e) {
    self.postMessage({ ok: false, error: { name: e?.name ?? 'Error', message: e?.message ?? String(e) } });
  }
};
