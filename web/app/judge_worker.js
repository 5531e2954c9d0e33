// The page's judge, off its main thread: a module worker that owns the
// devices the page judges on, starts each check's sandbox worker (nested in
// it: page_sandbox.js), rebuilds and runs what the sandbox traced, and posts
// the report back. Rebuilding and reading a large program takes hundreds of
// milliseconds in one call; here that never freezes the page.
//
// page -> judge   {warm: true}                                  start the next Python interpreter
//                 {check: {id, problem, lang, code, cases, timeLimitMs}}
// judge -> page   {status: {stage, fraction?}}                  the next Python interpreter's start
//                 {id, report} | {id, error}                    a check's report (its program's text, pictures
//                                                               and timeline left out past MAX_SHOWN_EQUATIONS:
//                                                               report.unshown), or why there is none

import { checkSolution } from '../checker/engine.js';
import { allEquations } from '../checker/jaxpr_query.js';
import { problemById } from '../checker/problems.js';
import { PythonSandboxes, startPageSandbox } from './page_sandbox.js';

/** The largest traced program the page prints and draws: beyond it, reading the report alone would freeze the page. */
export const MAX_SHOWN_EQUATIONS = 4000;

// The report as the page gets it: a program too large to show goes without its text, pictures and timeline.
function shown(report) {
  const size = report.program ? allEquations(report.program).length : 0;
  if (size <= MAX_SHOWN_EQUATIONS) return report;
  return { ...report, jaxpr: null, jaxprBodies: null, program: null, outTree: null, timeline: null, unshown: { equations: size, limit: MAX_SHOWN_EQUATIONS } };
}

const pythons = new PythonSandboxes((status) => self.postMessage({ status }));

self.onmessage = async ({ data }) => {
  if (data?.warm) {
    pythons.warm();
    return;
  }
  const { id, problem: problemId, lang, code, cases, timeLimitMs } = data?.check ?? {};
  if (id === undefined) return;
  try {
    const problem = problemById(problemId);
    const sandbox = lang === 'python' ? pythons.sandbox(code, problem.functionName) : startPageSandbox(code);
    const report = await checkSolution(problem, null, { sandbox, cases, timeLimitMs, lang, timeline: true });
    self.postMessage({ id, report: shown(report) });
  } catch (e) {
    self.postMessage({ id, error: `${e.name}: ${e.message}` });
  }
};
