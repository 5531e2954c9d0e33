// No correct solution is rejected for how it is written (issue 33): every
// problem's reference, in both languages, still passes every case and
// requirement when the learner wraps it in their own jit, in a
// functools.partial, or returns its result dict with the keys in another
// order (a Python dict flattens by sorted keys, a JS object in insertion
// order: the judge finds each output by its key, never by position).
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, test } from 'vitest';
import * as sl from '../../web/lib/index.js';
import { checkSolution } from '../../web/checker/engine.js';
import { loadProblem, PROBLEM_IDS } from '../../web/checker/problems.js';
import { failures } from './known_solutions.js';
import { pythonFunction, warmPython } from './python_env.js';

beforeAll(async () => {
  await sl.init();
  await warmPython();
}, 120000);

// The result with its keys in reverse order.
const reversedKeys = (out) => Object.fromEntries(Object.entries(out).reverse());

const JS_VARIANTS = {
  'in sl.jit': (f) => sl.jit(f),
  'returning its keys reversed': (f) => (...args) => reversedKeys(f(...args)),
  'in sl.jit, returning its keys reversed': (f) => sl.jit((...args) => reversedKeys(f(...args))),
};

// Each variant: Python appended to the reference, rebinding the problem's function `name`.
const PY_VARIANTS = {
  'in jax.jit': (name) => `${name} = jax.jit(${name})`,
  'in functools.partial(jax.jit)': (name) => `${name} = functools.partial(jax.jit)(${name})`,
  'as a functools.partial': (name) => `${name} = functools.partial(${name})`,
  'in jax.jit, returning its keys reversed': (name) =>
    `_reference = ${name}\n\n@jax.jit\ndef ${name}(*args):\n    out = _reference(*args)\n    return dict(reversed(list(out.items())))`,
};

describe.each(PROBLEM_IDS)('%s', (id) => {
  test.each(Object.keys(JS_VARIANTS))('the JavaScript reference %s passes', async (variant) => {
    const problem = await loadProblem(id);
    const report = await checkSolution(problem, JS_VARIANTS[variant](problem.solution), { seed: 21 });
    expect(failures(report).messages).toEqual([]);
  });

  test.each(Object.keys(PY_VARIANTS))('the Python reference %s passes', async (variant) => {
    const problem = await loadProblem(id);
    const reference = readFileSync(new URL(`../../problems/${id}/solution.py`, import.meta.url), 'utf8');
    const source = `import functools\nimport jax\n${reference}\n\n${PY_VARIANTS[variant](problem.functionName)}\n`;
    const fn = await pythonFunction(source, problem.functionName, 'variant.py');
    try {
      const report = await checkSolution(problem, fn, { lang: 'python', seed: 21 });
      expect(failures(report).messages).toEqual([]);
    } finally {
      fn.dispose();
    }
  });
});
