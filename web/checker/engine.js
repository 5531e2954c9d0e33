// The checker engine, the judge: has a solution traced in its sandbox, runs
// the programs it gets back on a problem's examples and generated cases on
// its own devices, compares every output (values, shape, sharding) with the
// problem's float64 reference, evaluates the structural requirements over
// the programs it ran, and returns a report the CLI and the page show.

import * as sl from '../lib/index.js';
import { nestFlat } from '../lib/api/core/tree.js';
import { caseOutput } from './case_output.js';
import { entryMatcher, shapeOf } from './compare.js';
import { liveProgram } from './live_program.js';
import { runOn } from './program_runs.js';
import { judgeRequirement } from './requirements_judge.js';
import { makeRng } from './rng.js';
import { Deadline } from './sandbox.js';
import { inProcessSandbox } from './sandbox_serve.js';
import { solutionClock } from './solution_clock.js';

/** Generated cases per problem. */
export const GENERATED_CASES = 20;

const specEntries = (entries) => {
  const e = entries.map((x) => x ?? null);
  while (e.length && e[e.length - 1] === null) e.pop();
  return JSON.stringify(e);
};

// An input as the solution receives it: each float32 argument rounded to float32 (the float64
// reference then computes from exactly those values, so a result that only moves them is exact).
function received(problem, input) {
  const round = (v) => (Array.isArray(v) ? v.map(round) : Math.fround(v));
  return Object.fromEntries(Object.entries(input).map(([k, v]) => [k, (problem.inputs?.[k]?.dtype ?? 'float32') === 'float32' ? round(v) : v]));
}

/** The problem's cases: its examples and GENERATED_CASES cases from `seed` (or `custom` cases instead), their inputs as the solution receives them. */
export function casesOf(problem, { seed, custom } = {}) {
  const of = (name, raw, expected) => {
    const input = received(problem, raw);
    return { name, input, expected: expected ?? problem.reference(input) };
  };
  if (custom) return custom.map((c, i) => of(`case ${i + 1}`, c.input, c.expected));
  const rng = makeRng(seed);
  return [
    ...problem.examples.map((e, i) => of(`example ${i + 1}`, e.input, e.expected)),
    ...Array.from({ length: GENERATED_CASES }, (_, i) => of(`generated ${i + 1}`, problem.generate(rng))),
  ];
}

// Compares one output (plain data from rawOutputs) with its expected value.
function compareOutput(problem, key, actual, expected) {
  const want = shapeOf(expected);
  if (!actual || actual.notArray) return { message: `output '${key}' is not an array (got ${actual?.notArray ?? 'nothing'})`, maxAbsError: null, diffs: [] };
  if (JSON.stringify(actual.shape) !== JSON.stringify(want)) {
    return { message: `output '${key}' has shape [${actual.shape}] but should have shape [${want}]`, maxAbsError: null, diffs: [] };
  }
  const dtype = problem.outputs[key]?.dtype ?? 'float32';
  if (actual.dtype !== dtype) return { message: `output '${key}' has dtype ${actual.dtype} but should be ${dtype}`, maxAbsError: null, diffs: [] };
  // Integers and booleans are exact: only float outputs get the tolerance.
  const matches = entryMatcher(problem, dtype);
  const spec = problem.outputs[key]?.sharding;
  if (spec && specEntries(actual.spec) !== specEntries(spec)) {
    return {
      message: `output '${key}' is laid out as ${sl.P(...actual.spec)} but should be ${problem.outputs[key].what} (${sl.P(...spec)})`,
      maxAbsError: null,
      diffs: [],
    };
  }
  const flat = [expected].flat(Infinity).map(Number);
  let maxAbsError = 0;
  const diffs = [];
  flat.forEach((e, i) => {
    const err = Math.abs(actual.data[i] - e);
    // NaN (an output that is not a number) propagates: the error is not a number either.
    maxAbsError = Math.max(maxAbsError, err);
    if (!matches(actual.data[i], e) && diffs.length < 5) {
      const index = [];
      let r = i;
      for (let d = want.length - 1; d >= 0; d--) {
        index.unshift(r % want[d]);
        r = Math.floor(r / want[d]);
      }
      const shown = (v) => (dtype === 'bool' ? Boolean(v) : v);
      diffs.push({ output: key, index, expected: shown(e), actual: shown(actual.data[i]) });
    }
  });
  if (diffs.length) return { message: `output '${key}' differs from the expected values`, maxAbsError, diffs };
  return { message: actual.blocks ? checkBlocks(key, actual.blocks, expected, matches) : null, maxAbsError, diffs };
}

// Every device's block (addressableShards) against the slice of the expected array it should hold.
function checkBlocks(key, blocks, expected, matches) {
  for (const b of blocks) {
    const slice = (x, dim) => (dim === b.index.length ? [x] : x.slice(b.index[dim][0], b.index[dim][1]).flatMap((e) => slice(e, dim + 1)));
    const want = slice(expected, 0).flat(Infinity);
    const where = b.index.map(([lo, hi], d) => `${['rows', 'columns'][d] ?? `dim ${d}`} ${lo}..${hi - 1}`).join(', ');
    if (want.length !== b.data.length || want.some((v, i) => !matches(b.data[i], v))) {
      return `device ${b.device}'s block of '${key}' (${where}) does not hold those elements of the array`;
    }
  }
  return null;
}

// Runs case `c` on the judge's devices with `exported` (the program its
// signature traced to), and compares the outputs with the expected ones.
async function runCase(problem, exported, c, deadline, clock) {
  const output = caseOutput();
  const fail = (message) => ({ name: c.name, passed: false, maxAbsError: null, message, diffs: [], output: output.text() });
  if (exported.error) return fail(exported.error);
  // Past the limit nothing more of the solution runs.
  if (deadline.passed) return fail(deadline.error().message);
  let raw;
  try {
    raw = await runOn(problem, exported.program, c.input, deadline, clock, output.add);
  } catch (e) {
    return fail(e.name === 'TimeoutError' ? e.message : `the solution failed: ${e.name}: ${e.message}`);
  }
  const keys = Object.keys(problem.outputs);
  if (raw.kind !== 'object' || keys.some((k) => !raw.keys.includes(k))) {
    const got = raw.kind === 'object' ? `{${raw.keys.join(', ')}}` : raw.kind;
    return fail(`the solution returned ${got}; it should return an object with keys ${keys.join(', ')}`);
  }
  const result = { name: c.name, passed: true, maxAbsError: 0, message: 'ok', diffs: [], output: output.text(), input: c.input, expected: c.expected, outputs: {}, actual: {} };
  for (const k of keys) {
    const cmp = compareOutput(problem, k, raw.values[k], c.expected[k]);
    if (cmp.maxAbsError === null) result.maxAbsError = null;
    else if (result.maxAbsError !== null) result.maxAbsError = Math.max(result.maxAbsError, cmp.maxAbsError);
    if (cmp.message && result.passed) {
      result.passed = false;
      result.message = cmp.message;
    }
    result.diffs.push(...cmp.diffs);
    if (raw.values[k]?.data) {
      result.outputs[k] = nestFlat(raw.values[k].data, raw.values[k].shape);
      result.actual[k] = { dtype: raw.values[k].dtype, shape: raw.values[k].shape, value: result.outputs[k] };
    }
  }
  return result;
}

// The signature the sandbox traces a case at: each argument's name, dtype and shape (`shapes` overrides some).
function signatureOf(problem, input, shapes = {}) {
  return problem.args.map((name) => ({ name, dtype: problem.inputs?.[name]?.dtype ?? 'float32', shape: shapes[name] ?? shapeOf(input[name]) }));
}

/**
 * What a solution's program may need, per run: a problem's programs are
 * small, and a hostile one must not take the judge's memory or time.
 */
export const PROGRAM_LIMITS = Object.freeze({ maxValueBytes: 64 << 20, maxTotalBytes: 512 << 20, maxWork: 5e9 });

/**
 * What the judge takes from a sandbox in one check, every signature's
 * program together: its own work (rebuilding, running, reading) grows with
 * these, so they bound it before any of it is done. Per program the reader
 * of jax.export also bounds the equations (20,000) and constants (8 MiB);
 * the protocol bounds the text of all of them (MAX_TRACED_CHARS).
 */
export const PAYLOAD_LIMITS = Object.freeze({ maxTotalEquations: 60000 });

/** A fresh seed for the generated cases of one check. */
export function freshSeed() {
  return Math.floor(Math.random() * 2 ** 31);
}

/**
 * Checks a solution against `problem`: the solution is traced in `sandbox`
 * (sandbox.js; by default one in this thread over the function `solution`,
 * for trusted code such as the reference solutions), once per argument
 * signature of the cases; each program it sends is rebuilt and checked by
 * the core (jax.export's deserialize) and run here on this realm's devices
 * with the cases' inputs, and the requirements are evaluated on exactly
 * those programs. The examples are fixed; the generated cases come from
 * `seed` (fresh by default, reported). `timeLimitMs` bounds the solution's
 * time in the whole check (solution_clock.js: the sandbox's CPU time where
 * its host measures it, else wall time while it traces; `judgeCpu`, a meter
 * of this process's CPU milliseconds, counts the judge's runs of the
 * solution's programs), with a wall-clock backstop of 3 times the limit.
 * Returns {problem, seed, passed, timeMs, cases, requirements, jaxpr (text),
 * jaxprBodies (its folds: Jaxpr.printedBodies), program (JSON) and outTree
 * (the result's structure: its keys name the program's outputs), null when
 * nothing could be traced, and caseValues: for the page, not the CLI's JSON}
 * where caseValues[i] holds case i's values: {input ({argument: value}),
 * expected ({output: value}), actual ({output: {dtype, shape, value}} for the
 * outputs returned as arrays; null when the case gave none)}, each value
 * a number, boolean or nested array (dtypes of inputs and expected as the
 * problem declares them). `cases` ([{input, expected?}]: the
 * reference computes a missing expected) replace the examples and generated
 * ones. A solution that cannot be loaded (a syntax error, no such
 * function) fails every case and requirement with why. The time limit
 * starts once the sandbox's runtime is up (Python's start is not the
 * solution's time; `startupLimitMs` bounds it). `lang` ('javascript' or
 * 'python') is the solution's language: requirement messages name its API.
 * With `timeline`
 * (the page's Timeline tab) the report's `timeline` is what each device did
 * while running the traced case (profiler.stopTrace's form, with `program`:
 * the lowered program's JSON, Exported.loweredJSON), else null.
 */
export async function checkSolution(
  problem,
  solution,
  { seed = freshSeed(), cases: custom, sandbox, timeLimitMs = 10000, startupLimitMs = 120000, lang = 'javascript', timeline: record = false, judgeCpu = null } = {},
) {
  const t0 = performance.now();
  await sl.init();
  const box = sandbox ?? inProcessSandbox(solution);
  let startError = null;
  try {
    await box.started(new Deadline(startupLimitMs));
  } catch (e) {
    startError = e;
  }
  const clock = solutionClock({ sandboxCpu: box.cpuMeter, judgeCpu });
  const deadline = new Deadline(timeLimitMs, { used: clock.used, backstopMs: 3 * timeLimitMs });
  const cases = casesOf(problem, { seed, custom });
  // The requirements read the program traced for a generated case (or the first one).
  const traced = cases.find((c) => c.name.startsWith('generated')) ?? cases[0];
  // One trace per distinct signature: key -> {sig, program (an Exported), error}.
  const signatures = new Map();
  const keyOf = (sig) => {
    const key = JSON.stringify(sig);
    if (!signatures.has(key)) signatures.set(key, { sig, program: null, error: null });
    return key;
  };
  const keys = cases.map((c) => keyOf(signatureOf(problem, c.input)));
  // The shapes requirements compare programs at (traceAt), traced in the same batch: requirement id -> label -> key.
  const variants = new Map(
    problem.requirements.map((r) => [
      r.id,
      Object.fromEntries(Object.entries(r.traceAt?.(traced.input) ?? {}).map(([label, shapes]) => [label, keyOf(signatureOf(problem, traced.input, shapes))])),
    ]),
  );
  const entries = [...signatures.values()];
  try {
    let traces = [];
    let loadFailed = false;
    try {
      if (startError) throw startError;
      traces = await clock.tracing(box.trace(entries.map((e) => e.sig), deadline));
    } catch (e) {
      // A traceback starts on a line of its own.
      const loadError = () => `the solution could not be loaded:${e.message.includes('\n') ? '\n' : ' '}${e.message.trimEnd()}`;
      for (const x of entries) x.error = e.name === 'LoadError' ? loadError() : e.message;
      loadFailed = e.name === 'LoadError';
    }
    // The payload's budget, spent signature by signature: past it, the rest is rejected unread.
    let equations = PAYLOAD_LIMITS.maxTotalEquations;
    const overBudget = `the solution's programs together are larger than the judge takes in one check (${PAYLOAD_LIMITS.maxTotalEquations} equations over all ${traces.length} argument signatures)`;
    traces.forEach((r, i) => {
      if (r.error) {
        entries[i].error = `the solution failed: ${r.error.name}: ${r.error.message}`;
        entries[i].traceError = r.error;
        return;
      }
      if (equations <= 0) {
        entries[i].error = overBudget;
        return;
      }
      try {
        const limits = { ...PROGRAM_LIMITS, maxEquations: Math.min(sl.export.DEFAULT_LIMITS.maxEquations, equations) };
        entries[i].program = sl.export.deserialize(r.exported, { limits });
        entries[i].text = r.exported;
        equations -= entries[i].program.numEquations;
      } catch (e) {
        entries[i].error = e.name === 'ResourceError' && equations < sl.export.DEFAULT_LIMITS.maxEquations ? overBudget : `the solution's program was rejected: ${e.name}: ${e.message}`;
      }
    });
    const caseResults = [];
    let timeline = null;
    for (const [i, c] of cases.entries()) {
      const entry = signatures.get(keys[i]);
      // The timeline is the traced case's run: what the devices did with the program the requirements read.
      // A recording already under way (the caller's own) is left alone: the check goes on without one.
      const recorded = record && c === traced && !entry.error && !sl.profiler.tracing();
      if (recorded) await sl.profiler.startTrace();
      try {
        caseResults.push(await runCase(problem, entry.error ? { error: entry.error } : entry, c, deadline, clock));
      } finally {
        // With the program it ran (lowered), whose equations the spans index.
        if (recorded) timeline = { ...(await sl.profiler.stopTrace()), program: entry.program.loweredJSON() };
      }
    }
    const mainKey = keys[cases.indexOf(traced)];
    const main = signatures.get(mainKey);
    const jaxpr = main.program ? main.program.jaxpr() : null;
    // Each signature's program as JSON: {jaxpr (live: what the requirements read), traced (as traced), error}, made once.
    const programs = new Map();
    const programOf = (key) => {
      const e = signatures.get(key);
      if (!programs.has(key)) {
        const json = e.program ? (key === mainKey ? jaxpr : e.program.jaxpr()).toJSON() : null;
        programs.set(key, { jaxpr: json && liveProgram(json), traced: json, error: e.program ? null : e.error });
      }
      return programs.get(key);
    };
    const { jaxpr: live, traced: program } = programOf(mainKey);
    const run = { problem, input: traced.input, tracedCase: caseResults[cases.indexOf(traced)], deadline, clock, limits: PROGRAM_LIMITS };
    const requirements = [];
    for (const r of problem.requirements) {
      const traces = Object.fromEntries(Object.entries(variants.get(r.id)).map(([label, key]) => [label, programOf(key)]));
      requirements.push(await judgeRequirement(r, { main, live, program, traces, caseResults, lang, loadFailed, run }));
    }
    const publicCases = caseResults.map(({ name, passed, maxAbsError, message, diffs, output }) => ({ name, passed, maxAbsError, message, diffs, output }));
    return {
      problem: problem.id,
      seed,
      passed: publicCases.every((c) => c.passed) && requirements.every((r) => r.passed),
      timeMs: Math.round(performance.now() - t0),
      cases: publicCases,
      // The same arrays the cases ran with and returned, shared rather than copied.
      caseValues: cases.map((c, i) => ({ input: c.input, expected: c.expected, actual: caseResults[i].actual ?? null })),
      requirements,
      jaxpr: jaxpr ? jaxpr.toString() : null,
      jaxprBodies: jaxpr ? jaxpr.printedBodies() : null,
      program,
      outTree: main.program ? main.program.outTree : null,
      timeline,
    };
  } finally {
    box.close();
    for (const e of entries) e.program?.dispose();
  }
}
