// The problems shipped with the package (problems/<id>/): their ids, and
// loading one with its reference solution.

/** Problem ids, in the order the CLI and the page list them. */
export const PROBLEM_IDS = ['device-mesh-named-sharding', 'data-parallel-step', 'tensor-parallel-mlp', 'ring-allreduce-ppermute'];

/** The problem `id` ({..., solution: its reference solution, solutionUrl: its file}), or null if there is none. */
export async function loadProblem(id) {
  if (!PROBLEM_IDS.includes(id)) return null;
  const base = new URL(`../../problems/${id}/`, import.meta.url);
  const problem = (await import(new URL('problem.js', base).href)).default;
  const solution = (await import(new URL('solution.mjs', base).href)).default;
  return { ...problem, solution, solutionUrl: new URL('solution.mjs', base), statementUrl: new URL('statement.md', base) };
}
