// Every problem's known-wrong Python solutions (tests/solutions/<id>/*.py)
// fail on the checker exactly as each says it does (known_solutions.js),
// with messages in Python's terms. One warm Python serves the file
// (python_env.js); the references pass in python.test.js.
import { beforeAll, describe, expect, test } from 'vitest';
import * as sl from '../../web/lib/index.js';
import { checkSolution } from '../../web/checker/engine.js';
import { loadProblem, PROBLEM_IDS } from '../../web/checker/problems.js';
import { expectFailsAsDeclared, wrongSolutions } from './known_solutions.js';
import { pythonFunction, warmPython } from './python_env.js';

beforeAll(async () => {
  await sl.init();
  await warmPython();
}, 120000);

const withWrong = PROBLEM_IDS.filter((id) => wrongSolutions(id, 'python').length);

describe.each(withWrong)('%s', (id) => {
  test.each(wrongSolutions(id, 'python').map((w) => [w.name, w]))('%s fails as it says', async (_, w) => {
    const problem = await loadProblem(id);
    const fn = await pythonFunction(w.source, problem.functionName, w.name);
    let report;
    try {
      report = await checkSolution(problem, fn, { lang: 'python', seed: 13 });
    } finally {
      fn.dispose();
    }
    expectFailsAsDeclared(report, w);
  });
});
