// The problems (problems/index.js) as the checker, the CLI and the page read
// them: each one's data with the text of its constraints, and, in Node,
// loading one with its reference solution.

import PROBLEM_DATA from '../../problems/index.js';
import { describeConstraints } from './constraints.js';

/** Every problem, in order, with `constraints`: the text its inputs and dims declare. */
export const PROBLEMS = PROBLEM_DATA.map((p) => ({ ...p, constraints: describeConstraints(p) }));

/** Problem ids, in the order the CLI and the page list them. */
export const PROBLEM_IDS = PROBLEMS.map((p) => p.id);

/** The problem `id`, or undefined if there is none. */
export function problemById(id) {
  return PROBLEMS.find((p) => p.id === id);
}

/** The problem `id` ({..., solution: its reference solution, solutionUrl, statementUrl}), or null if there is none. */
export async function loadProblem(id) {
  const problem = problemById(id);
  if (!problem) return null;
  const base = new URL(`../../problems/${id}/`, import.meta.url);
  const solution = (await import(/* @vite-ignore */ new URL('solution.mjs', base).href)).default;
  return { ...problem, solution, solutionUrl: new URL('solution.mjs', base), statementUrl: new URL('statement.md', base) };
}
