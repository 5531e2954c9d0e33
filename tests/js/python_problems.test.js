// Every problem's known Python solutions (tests/solutions/<id>/*.py) are
// judged exactly as each says it is (known_solutions.js), with messages in
// Python's terms. One warm Python serves the file
// (python_env.js); the references pass in python.test.js.
import { beforeAll, describe, expect, test } from 'vitest';
import * as sl from '../../web/lib/index.js';
import { checkSolution } from '../../web/checker/engine.js';
import { loadProblem, PROBLEM_IDS } from '../../web/checker/problems.js';
import { expectAsDeclared, knownSolutions } from './known_solutions.js';
import { pythonFunction, warmPython } from './python_env.js';

beforeAll(async () => {
  await sl.init();
  await warmPython();
}, 120000);

const withKnown = PROBLEM_IDS.filter((id) => knownSolutions(id, 'python').length);

describe.each(withKnown)('%s', (id) => {
  test.each(knownSolutions(id, 'python').map((w) => [w.name, w]))('%s is judged as it says', async (_, w) => {
    const problem = await loadProblem(id);
    const fn = await pythonFunction(w.source, problem.functionName, w.name);
    let report;
    try {
      report = await checkSolution(problem, fn, { lang: 'python', seed: 13 });
    } finally {
      fn.dispose();
    }
    expectAsDeclared(report, w);
  });
});
