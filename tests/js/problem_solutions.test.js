// Every problem's JavaScript solutions on the checker: the reference passes
// every case and requirement, and each known solution
// (tests/solutions/<id>/*.mjs) is judged exactly as it says it is
// (known_solutions.js). The Python ones: python_problems.test.js.
import { beforeAll, describe, expect, test } from 'vitest';
import * as sl from '../../web/lib/index.js';
import { checkSolution } from '../../web/checker/engine.js';
import { loadProblem, PROBLEM_IDS } from '../../web/checker/problems.js';
import { makeRng } from '../../web/checker/rng.js';
import { validateCases } from '../../web/checker/validate_cases.js';
import { expectAsDeclared, failures, knownSolutions, wrongSolutions } from './known_solutions.js';

beforeAll(() => sl.init());

// The first four problems' known-wrong solutions are written out in checker.test.js and python.test.js.
const SEEDS = new Set(['device-mesh-named-sharding', 'data-parallel-step', 'tensor-parallel-mlp', 'ring-allreduce-ppermute']);

describe.each(PROBLEM_IDS)('%s', (id) => {
  test("its examples' expected outputs are the float64 reference's (to the 6 decimals they are written with)", async () => {
    const problem = await loadProblem(id);
    for (const { input, expected } of problem.examples) {
      const ref = problem.reference(input);
      expect(Object.keys(expected).sort()).toEqual(Object.keys(problem.outputs).sort());
      for (const key of Object.keys(problem.outputs)) {
        const [got, want] = [[expected[key]].flat(Infinity), [ref[key]].flat(Infinity)];
        expect(got.length, key).toBe(want.length);
        // Booleans and integers exactly; floats to half a unit of the sixth decimal.
        got.forEach((v, i) => expect(typeof v === 'number' ? Math.abs(v - want[i]) <= 5.0001e-7 * Math.max(1, Math.abs(want[i])) : v === want[i], `${key}[${i}]: ${v} vs ${want[i]}`).toBe(true));
      }
    }
  });

  test('the JavaScript reference passes', async () => {
    const problem = await loadProblem(id);
    const f = failures(await checkSolution(problem, problem.solution, { seed: 13 }));
    expect(f.messages).toEqual([]);
  });

  test('the JavaScript reference passes cases drawn from the whole of every declared range (the ends included)', async () => {
    const problem = await loadProblem(id);
    const rng = makeRng(7);
    const cases = [];
    // A generated case's shapes and integers, its float arrays redrawn over their ranges: half at the ends, half anywhere.
    for (let k = 0; cases.length < 8 && k < 200; k++) {
      const g = problem.generate(rng);
      const input = { ...g };
      for (const [name, a] of Object.entries(problem.inputs)) {
        const r = a.values;
        if (a.dtype !== 'float32' || !a.shape.length) continue;
        const [lo, hi] = [r.ge ?? r.gt, r.le ?? r.lt];
        const draw = () => (k % 2 ? lo + (hi - lo) * rng.uniform(0, 1) : rng.pick([lo, hi]));
        const redraw = (v) => (Array.isArray(v) ? v.map(redraw) : draw());
        input[name] = redraw(g[name]);
      }
      // Some problems restrict their values further (validate: a vector of signs, a norm's relation).
      if (!validateCases(problem, [{ input }])) cases.push({ input });
    }
    expect(cases.length).toBeGreaterThan(0);
    expect(failures(await checkSolution(problem, problem.solution, { cases })).messages).toEqual([]);
  });

  test.each(knownSolutions(id, 'javascript').map((w) => [w.name, w]))('%s is judged as it says', async (_, w) => {
    const problem = await loadProblem(id);
    const solution = (await import(w.file.href)).default;
    expectAsDeclared(await checkSolution(problem, solution, { seed: 13 }), w);
  });

  test('has at least two known-wrong solutions in each language', () => {
    if (SEEDS.has(id)) return;
    expect(wrongSolutions(id, 'javascript').length).toBeGreaterThanOrEqual(2);
    expect(wrongSolutions(id, 'python').length).toBeGreaterThanOrEqual(2);
  });
});
