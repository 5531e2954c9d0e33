// The problems, bundled into the page: their data, statements and reference solutions.
const modules = import.meta.glob('../../problems/*/problem.js', { eager: true });
const statements = import.meta.glob('../../problems/*/statement.md', { eager: true, query: '?raw', import: 'default' });
const solutions = import.meta.glob('../../problems/*/solution.mjs', { eager: true, query: '?raw', import: 'default' });

const ORDER = ['device-mesh-named-sharding', 'data-parallel-step', 'tensor-parallel-mlp', 'ring-allreduce-ppermute'];

/** Every problem: its data with `statement` (markdown) and `solutionCode` (the reference's source). */
export const PROBLEMS = Object.entries(modules)
  .map(([path, m]) => {
    const dir = path.slice(0, path.lastIndexOf('/') + 1);
    return { ...m.default, statement: statements[`${dir}statement.md`], solutionCode: solutions[`${dir}solution.mjs`] };
  })
  .sort((a, b) => ORDER.indexOf(a.id) - ORDER.indexOf(b.id));

/** The problem `id`. */
export function problemById(id) {
  return PROBLEMS.find((p) => p.id === id);
}
