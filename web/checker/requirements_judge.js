// Judging a problem's requirements: each one's check reads the live program
// (live_program.js) with the names of its arguments and outputs, the queries
// of jaxpr_query.js and, for what data flow cannot say, ablations of the
// program the sandbox sent (ablation.js) run on the traced case.

import * as sl from '../lib/index.js';
import { numLeaves } from '../lib/api/core/tree.js';
import { ablated } from './ablation.js';
import * as query from './jaxpr_query.js';
import { apiName } from './names.js';
import { runOn } from './program_runs.js';

// The names of the program's outputs by the result's top-level keys ({w: 'k', ...}), from its output tree.
function outputNames(outTree, program) {
  if (outTree?.kind !== 'object') return {};
  const names = {};
  let leaf = 0;
  outTree.keys.forEach((k, i) => {
    const child = outTree.children[i];
    if (child.kind === 'leaf') names[k] = program.outvars[leaf]?.name;
    leaf += numLeaves(child);
  });
  return names;
}

/**
 * Requirement `r` judged: {id, passed, message}. `main` is the traced
 * case's signature ({program (an Exported), text, error, traceError}),
 * `live` and `program` its live and traced JSON (null when nothing could be
 * traced: the requirement fails with why, or with what its traceError says),
 * `traces` the programs at its other shapes, `run` {problem, input (the
 * traced case's), tracedCase (its result), deadline, clock} for ablations.
 */
export async function judgeRequirement(r, { main, live, program, traces, caseResults, lang, loadFailed, run }) {
  const api = (name) => apiName(name, lang);
  if (!live) {
    // A requirement may say what a failed trace means in its terms (e.g. a branch on a traced value).
    const own = main.traceError && r.traceError?.(main.traceError, { lang, api });
    const why = main.traceError ? `${main.traceError.name}: ${main.traceError.message}` : main.error;
    return { id: r.id, passed: false, message: own || (loadFailed ? main.error : `the solution could not be traced: ${why}`) };
  }
  const vars = Object.fromEntries(run.problem.args.map((a, i) => [a, live.invars[i]?.name]));
  const outputs = outputNames(main.program.outTree, live);
  const ablate = (select) => ablation(main.text, select, run);
  let verdict;
  try {
    verdict = await r.check({ jaxpr: live, traced: program, vars, outputs, input: run.input, caseResults, traces, query, lang, api, ablate });
  } catch (e) {
    verdict = `the requirement could not be evaluated (${e.message})`;
  }
  return { id: r.id, passed: verdict === true, message: verdict === true ? r.text : verdict };
}

// {changed, count}: whether the traced case's outputs change when the `count` equations `select` picks
// compute zeros, in the program the sandbox sent (`text`), changed so and run again on the case's inputs.
async function ablation(text, select, { problem, input, tracedCase, deadline, clock, limits }) {
  if (!tracedCase?.outputs || !Object.keys(tracedCase.outputs).length) throw new Error('the traced case gave no outputs to compare');
  const changed = ablated(text, select);
  const exported = sl.export.deserialize(changed.text, { limits });
  try {
    const raw = await runOn(problem, exported, input, deadline, clock);
    const same = Object.entries(tracedCase.outputs).every(([k, v]) => {
      const got = raw.values[k]?.data;
      const want = [v].flat(Infinity);
      return got && got.length === want.length && got.every((x, i) => Object.is(x, want[i]));
    });
    return { changed: !same, count: changed.count };
  } finally {
    exported.dispose();
  }
}
