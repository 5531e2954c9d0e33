// The checker engine: runs a solution under jit on a problem's examples and
// generated cases, compares every output (values, shape, sharding) with the
// problem's float64 reference, evaluates the structural requirements over
// the traced program, and returns a report the CLI and the page show.

import * as sl from '../lib/index.js';
import { makeRng } from './rng.js';

/** Generated cases per problem. */
export const GENERATED_CASES = 20;

const shapeOf = (x) => (Array.isArray(x) ? [x.length, ...shapeOf(x[0])] : []);
const specEntries = (entries) => {
  const e = entries.map((x) => x ?? null);
  while (e.length && e[e.length - 1] === null) e.pop();
  return JSON.stringify(e);
};

/** The problem's cases: its examples and GENERATED_CASES cases from `seed` (or `custom` cases instead). */
export function casesOf(problem, { seed, custom } = {}) {
  if (custom) return custom.map((c, i) => ({ name: `case ${i + 1}`, input: c.input, expected: c.expected ?? problem.reference(c.input) }));
  const rng = makeRng(seed);
  return [
    ...problem.examples.map((e, i) => ({ name: `example ${i + 1}`, input: e.input, expected: e.expected })),
    ...Array.from({ length: GENERATED_CASES }, (_, i) => {
      const input = problem.generate(rng);
      return { name: `generated ${i + 1}`, input, expected: problem.reference(input) };
    }),
  ];
}

/** The solution's arguments for a case: arrays from nested lists, numbers as JS numbers. */
export function argsOf(problem, input) {
  return problem.args.map((name) => (typeof input[name] === 'number' ? input[name] : sl.array(input[name])));
}

// Compares one output with its expected value: null when it matches, else a message and the first diffs.
async function compareOutput(problem, key, actual, expected) {
  const tol = problem.tolerance ?? { atol: 1e-4, rtol: 1e-4 };
  const want = shapeOf(expected);
  if (!(actual instanceof sl.Array)) return { message: `output '${key}' is not an array (got ${typeof actual})`, maxAbsError: null, diffs: [] };
  if (JSON.stringify(actual.shape) !== JSON.stringify(want)) {
    return { message: `output '${key}' has shape [${actual.shape}] but should have shape [${want}]`, maxAbsError: null, diffs: [] };
  }
  const spec = problem.outputs[key]?.sharding;
  if (spec && specEntries(actual.sharding.spec.entries) !== specEntries(spec)) {
    return {
      message: `output '${key}' is laid out as ${actual.sharding.spec} but should be ${problem.outputs[key].what} (${sl.P(...spec)})`,
      maxAbsError: null,
      diffs: [],
    };
  }
  const got = await actual.data();
  const flat = [expected].flat(Infinity);
  let maxAbsError = 0;
  const diffs = [];
  flat.forEach((e, i) => {
    const err = Math.abs(got[i] - e);
    maxAbsError = Math.max(maxAbsError, Number.isNaN(err) ? Infinity : err);
    if (!(err <= tol.atol + tol.rtol * Math.abs(e)) && diffs.length < 5) {
      const index = [];
      let r = i;
      for (let d = want.length - 1; d >= 0; d--) {
        index.unshift(r % want[d]);
        r = Math.floor(r / want[d]);
      }
      diffs.push({ output: key, index, expected: e, actual: got[i] });
    }
  });
  return { message: diffs.length ? `output '${key}' differs from the expected values` : null, maxAbsError, diffs };
}

async function runCase(problem, f, c) {
  let out;
  try {
    out = await f(...argsOf(problem, c.input));
  } catch (e) {
    return { name: c.name, passed: false, maxAbsError: null, message: `the solution failed: ${e.name}: ${e.message}`, diffs: [] };
  }
  const keys = Object.keys(problem.outputs);
  if (out === null || typeof out !== 'object' || Array.isArray(out) || keys.some((k) => !(k in out))) {
    const got = out === null || typeof out !== 'object' ? typeof out : Array.isArray(out) ? `an array of ${out.length}` : `{${Object.keys(out).join(', ')}}`;
    return { name: c.name, passed: false, maxAbsError: null, message: `the solution returned ${got}; it should return an object with keys ${keys.join(', ')}`, diffs: [] };
  }
  const result = { name: c.name, passed: true, maxAbsError: 0, message: 'ok', diffs: [], input: c.input, expected: c.expected, outputs: {} };
  for (const k of keys) {
    const cmp = await compareOutput(problem, k, out[k], c.expected[k]);
    if (cmp.maxAbsError === null) result.maxAbsError = null;
    else if (result.maxAbsError !== null) result.maxAbsError = Math.max(result.maxAbsError, cmp.maxAbsError);
    if (cmp.message && result.passed) {
      result.passed = false;
      result.message = cmp.message;
    }
    result.diffs.push(...cmp.diffs);
    if (out[k] instanceof sl.Array) result.outputs[k] = await out[k].tolist();
  }
  return result;
}

/**
 * Checks `solution` (a function of the problem's arguments) against
 * `problem`: returns {problem, seed, passed, timeMs, cases, requirements,
 * jaxpr (text, or null)}.
 */
export async function checkSolution(problem, solution, { seed = 20261130, cases: custom } = {}) {
  await sl.init();
  const t0 = performance.now();
  const cases = casesOf(problem, { seed, custom });
  // The program is traced on a generated case (or the first one) for the requirements.
  const traced = cases.find((c) => c.name.startsWith('generated')) ?? cases[0];
  let jaxpr = null;
  let text = null;
  let traceError = null;
  try {
    const j = sl.makeJaxpr(solution)(...argsOf(problem, traced.input));
    jaxpr = j.toJSON();
    text = j.toString();
  } catch (e) {
    traceError = e;
  }
  const f = sl.jit(solution);
  const results = [];
  for (const c of cases) results.push(await runCase(problem, f, c));
  const vars = jaxpr ? Object.fromEntries(problem.args.map((a, i) => [a, jaxpr.invars[i]?.name])) : {};
  const requirements = problem.requirements.map((r) => {
    if (traceError) return { id: r.id, passed: false, message: `the solution could not be traced: ${traceError.name}: ${traceError.message}` };
    let verdict;
    try {
      verdict = r.check({ jaxpr, vars, input: traced.input, caseResults: results });
    } catch (e) {
      verdict = `the requirement could not be evaluated (${e.message})`;
    }
    return { id: r.id, passed: verdict === true, message: verdict === true ? r.text : verdict };
  });
  const publicCases = results.map(({ name, passed, maxAbsError, message, diffs }) => ({ name, passed, maxAbsError, message, diffs }));
  return {
    problem: problem.id,
    seed,
    passed: publicCases.every((c) => c.passed) && requirements.every((r) => r.passed),
    timeMs: Math.round(performance.now() - t0),
    cases: publicCases,
    requirements,
    jaxpr: text,
  };
}
