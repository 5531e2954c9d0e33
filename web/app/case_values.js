// The pure part of showing a case's values (case_tables.js builds the
// elements): which entries of a long axis are shown, how an entry reads,
// an array's type as a jaxpr prints it, counting the entries that differ,
// and an input written as JSON a person can edit.

/** An axis longer than this is folded. */
export const FOLD_AT = 12;
/** How many entries a folded axis shows at each end (NumPy shows 3: one more fits, and 4 + 4 < FOLD_AT). */
export const EDGE = 4;

/**
 * The indices of an axis of length `n` to show, in order: all of them, or
 * when n > `at` the first and last `edge` with {gap: how many are hidden}
 * between them.
 */
export function foldAxis(n, { at = FOLD_AT, edge = EDGE } = {}) {
  const range = (from, to) => Array.from({ length: to - from }, (_, i) => from + i);
  if (n <= at) return range(0, n);
  return [...range(0, edge), { gap: n - 2 * edge }, ...range(n - edge, n)];
}

/** An entry as text: bools as true/false, floats in at most 6 significant digits, nan and inf as NumPy writes them. */
export function formatEntry(v, dtype) {
  if (dtype === 'bool') return String(Boolean(v));
  if (typeof v !== 'number') return String(v);
  if (Number.isNaN(v)) return 'nan';
  if (!Number.isFinite(v)) return v > 0 ? 'inf' : '-inf';
  return dtype === 'float32' ? String(Number(v.toPrecision(6))) : String(v);
}

const SHORT = { float32: 'f32', int32: 'i32', bool: 'bool' };
/** An array's type as a jaxpr writes it: f32[16,2], i32[]. */
export const typeLabel = (dtype, shape) => `${SHORT[dtype] ?? dtype}[${shape.join(',')}]`;

/** The entry of nested array `value` at index `path` (a scalar's path is []). */
export const entryAt = (value, path) => path.reduce((v, i) => v[i], value);

/** How many entries of `actual` do not match `expected` (nested arrays of one shape) under `matches(actual, expected)`. */
export function countDiffs(expected, actual, matches) {
  if (!Array.isArray(expected)) return matches(actual, expected) ? 0 : 1;
  let n = 0;
  for (let i = 0; i < expected.length; i++) n += countDiffs(expected[i], actual[i], matches);
  return n;
}

/** `value` (an input: an object of numbers, booleans and nested arrays) as JSON with each innermost array on one line, for editing. */
export function inputJson(value, indent = '') {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const isArray = Array.isArray(value);
  if (isArray && !value.some((v) => v !== null && typeof v === 'object')) return `[${value.map((v) => JSON.stringify(v)).join(', ')}]`;
  const inner = `${indent}  `;
  const items = isArray ? value.map((v) => inner + inputJson(v, inner)) : Object.entries(value).map(([k, v]) => `${inner}${JSON.stringify(k)}: ${inputJson(v, inner)}`);
  if (!items.length) return '{}';
  return `${isArray ? '[' : '{'}\n${items.join(',\n')}\n${indent}${isArray ? ']' : '}'}`;
}

/** How the leading axes of a 3-D or higher array fold: into its 2-D slices, at most 4 shown. */
export const SLICES = { at: 4, edge: 2 };

/** Whether an array of `shape` shows folded (some axis longer than it folds at). */
export const isFolded = (shape) => shape.some((n, d) => n > (d < shape.length - 2 ? SLICES.at : FOLD_AT));
