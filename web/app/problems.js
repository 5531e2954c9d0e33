// The problems, bundled into the page: the checker's list (web/checker/problems.js)
// with each one's statements in both languages (Python first: statement.md;
// JavaScript: statement.js.md). The reference solutions' sources stay out of
// the bundle: the page never shows them.
import { PROBLEMS as CHECKER_PROBLEMS } from '../checker/problems.js';

const files = import.meta.glob(['../../problems/*/statement.md', '../../problems/*/statement.js.md'], {
  eager: true,
  query: '?raw',
  import: 'default',
});
const file = (id, name) => files[`../../problems/${id}/${name}`];

/** The page's languages, the first the default. */
export const LANGUAGES = ['python', 'javascript'];

/** Each language's name in the page. */
export const LANGUAGE_NAMES = { python: 'Python (JAX)', javascript: 'JavaScript' };

/** Every problem: its data with `statements` {python, javascript}; `hints` per language too. */
export const PROBLEMS = CHECKER_PROBLEMS.map((p) => ({
  ...p,
  hints: Array.isArray(p.hints) ? { python: p.hints, javascript: p.hints } : p.hints,
  statements: { python: file(p.id, 'statement.md'), javascript: file(p.id, 'statement.js.md') ?? file(p.id, 'statement.md') },
}));

/** The problem `id`. */
export function problemById(id) {
  return PROBLEMS.find((p) => p.id === id);
}
