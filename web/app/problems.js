// The problems, bundled into the page: the checker's list (web/checker/problems.js)
// with each one's statement and the source of its reference solution.
import { PROBLEMS as CHECKER_PROBLEMS } from '../checker/problems.js';

const statements = import.meta.glob('../../problems/*/statement.md', { eager: true, query: '?raw', import: 'default' });
const solutions = import.meta.glob('../../problems/*/solution.mjs', { eager: true, query: '?raw', import: 'default' });

/** Every problem: its data with `statement` (markdown) and `solutionCode` (the reference's source). */
export const PROBLEMS = CHECKER_PROBLEMS.map((p) => ({
  ...p,
  statement: statements[`../../problems/${p.id}/statement.md`],
  solutionCode: solutions[`../../problems/${p.id}/solution.mjs`],
}));

/** The problem `id`. */
export function problemById(id) {
  return PROBLEMS.find((p) => p.id === id);
}
