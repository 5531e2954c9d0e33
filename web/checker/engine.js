// The checker engine: runs a solution under jit on a problem's examples and
// generated cases, compares every output (values, shape, sharding) with the
// problem's float64 reference, evaluates the structural requirements over
// the traced program, and returns a report the CLI and the page show.

import * as sl from '../lib/index.js';
import { makeRng } from './rng.js';
import { portRunner } from './port_runner.js';
import { rawOutputs, solutionArgs, traceSolution } from './run_solution.js';

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

/** Runs the solution in this thread (a function; the tests use it). */
export function inProcessRunner(problem, solution) {
  const f = sl.jit(solution);
  return {
    trace: async (input) => traceSolution(problem, solution, input),
    run: async (input) => rawOutputs(problem, await f(...solutionArgs(problem, input))),
    close() {},
  };
}

/**
 * Runs the solution module at `solutionUrl` (the problem's reference when
 * null) in a worker_thread that is terminated when one call takes longer
 * than `timeLimitMs`; its console output goes to `stdout`. Rejects with a
 * LoadError when the module cannot be loaded or has no default export.
 */
export async function workerRunner(problem, solutionUrl, { timeLimitMs = 10000, stdout = process.stderr } = {}) {
  const { Worker } = await import('node:worker_threads');
  const worker = new Worker(new URL('./solution_worker.js', import.meta.url), {
    workerData: { problemId: problem.id, solutionUrl },
    stdout: true,
  });
  worker.stdout.pipe(stdout);
  return portRunner(
    {
      post: (m) => worker.postMessage(m),
      onMessage: (f) => worker.on('message', f),
      onError: (f) => worker.on('error', f),
      terminate: () => worker.terminate(),
    },
    { timeLimitMs },
  );
}

// Compares one output (plain data from rawOutputs) with its expected value.
function compareOutput(problem, key, actual, expected) {
  const tol = problem.tolerance ?? { atol: 1e-4, rtol: 1e-4 };
  const want = shapeOf(expected);
  if (!actual || actual.notArray) return { message: `output '${key}' is not an array (got ${actual?.notArray ?? 'nothing'})`, maxAbsError: null, diffs: [] };
  if (JSON.stringify(actual.shape) !== JSON.stringify(want)) {
    return { message: `output '${key}' has shape [${actual.shape}] but should have shape [${want}]`, maxAbsError: null, diffs: [] };
  }
  const dtype = problem.outputs[key]?.dtype ?? 'float32';
  if (actual.dtype !== dtype) return { message: `output '${key}' has dtype ${actual.dtype} but should be ${dtype}`, maxAbsError: null, diffs: [] };
  const spec = problem.outputs[key]?.sharding;
  if (spec && specEntries(actual.spec) !== specEntries(spec)) {
    return {
      message: `output '${key}' is laid out as ${sl.P(...actual.spec)} but should be ${problem.outputs[key].what} (${sl.P(...spec)})`,
      maxAbsError: null,
      diffs: [],
    };
  }
  const flat = [expected].flat(Infinity);
  let maxAbsError = 0;
  const diffs = [];
  flat.forEach((e, i) => {
    const err = Math.abs(actual.data[i] - e);
    maxAbsError = Math.max(maxAbsError, Number.isNaN(err) ? Infinity : err);
    if (!(err <= tol.atol + tol.rtol * Math.abs(e)) && diffs.length < 5) {
      const index = [];
      let r = i;
      for (let d = want.length - 1; d >= 0; d--) {
        index.unshift(r % want[d]);
        r = Math.floor(r / want[d]);
      }
      diffs.push({ output: key, index, expected: e, actual: actual.data[i] });
    }
  });
  if (diffs.length) return { message: `output '${key}' differs from the expected values`, maxAbsError, diffs };
  return { message: actual.blocks ? checkBlocks(key, actual.blocks, expected, tol) : null, maxAbsError, diffs };
}

// Every device's block (addressableShards) against the slice of the expected array it should hold.
function checkBlocks(key, blocks, expected, tol) {
  for (const b of blocks) {
    const slice = (x, dim) => (dim === b.index.length ? [x] : x.slice(b.index[dim][0], b.index[dim][1]).flatMap((e) => slice(e, dim + 1)));
    const want = slice(expected, 0).flat(Infinity);
    const where = b.index.map(([lo, hi], d) => `${['rows', 'columns'][d] ?? `dim ${d}`} ${lo}..${hi - 1}`).join(', ');
    if (want.length !== b.data.length || want.some((v, i) => !(Math.abs(v - b.data[i]) <= tol.atol + tol.rtol * Math.abs(v)))) {
      return `device ${b.device}'s block of '${key}' (${where}) does not hold those elements of the array`;
    }
  }
  return null;
}

// Reshapes flat data into nested lists of `shape`.
function nest(data, shape) {
  if (!shape.length) return data[0];
  const stride = shape.slice(1).reduce((a, b) => a * b, 1);
  return Array.from({ length: shape[0] }, (_, i) => nest(data.slice(i * stride, (i + 1) * stride), shape.slice(1)));
}

async function runCase(problem, runner, c) {
  let raw;
  try {
    raw = await runner.run(c.input);
  } catch (e) {
    return { name: c.name, passed: false, maxAbsError: null, message: e.name === 'TimeoutError' || /^not run|could not run/.test(e.message) ? e.message : `the solution failed: ${e.name}: ${e.message}`, diffs: [] };
  }
  const keys = Object.keys(problem.outputs);
  if (raw.kind !== 'object' || keys.some((k) => !raw.keys.includes(k))) {
    const got = raw.kind === 'object' ? `{${raw.keys.join(', ')}}` : raw.kind;
    return { name: c.name, passed: false, maxAbsError: null, message: `the solution returned ${got}; it should return an object with keys ${keys.join(', ')}`, diffs: [] };
  }
  const result = { name: c.name, passed: true, maxAbsError: 0, message: 'ok', diffs: [], input: c.input, expected: c.expected, outputs: {} };
  for (const k of keys) {
    const cmp = compareOutput(problem, k, raw.values[k], c.expected[k]);
    if (cmp.maxAbsError === null) result.maxAbsError = null;
    else if (result.maxAbsError !== null) result.maxAbsError = Math.max(result.maxAbsError, cmp.maxAbsError);
    if (cmp.message && result.passed) {
      result.passed = false;
      result.message = cmp.message;
    }
    result.diffs.push(...cmp.diffs);
    if (raw.values[k]?.data) result.outputs[k] = nest(raw.values[k].data, raw.values[k].shape);
  }
  return result;
}

/**
 * Checks `solution` (a function of the problem's arguments, run in this
 * thread) or the solution behind `runner` (workerRunner) against `problem`:
 * returns {problem, seed, passed, timeMs, cases, requirements, jaxpr (text)
 * and program (JSON), both null when the solution could not be traced}.
 */
export async function checkSolution(problem, solution, { seed = 20261130, cases: custom, runner } = {}) {
  const t0 = performance.now();
  if (!runner) await sl.init();
  const run = runner ?? inProcessRunner(problem, solution);
  const cases = casesOf(problem, { seed, custom });
  // The program is traced on a generated case (or the first one) for the requirements.
  const traced = cases.find((c) => c.name.startsWith('generated')) ?? cases[0];
  let jaxpr = null;
  let text = null;
  let traceError = null;
  try {
    ({ jaxpr, text } = await run.trace(traced.input));
  } catch (e) {
    traceError = e;
  }
  const results = [];
  for (const c of cases) results.push(await runCase(problem, run, c));
  run.close();
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
    program: jaxpr,
  };
}
