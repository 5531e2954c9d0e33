// A case's values as the page shows them, built as elements (dom.js: values
// and names can come from the learner's code): the input, the expected and
// the actual outputs side by side; scalars as text, vectors and matrices as
// small tables folded at their edges (case_values.js), higher ranks as their
// 2-D slices; each entry that differs from the expected one marked by a
// class and in words, not by colour alone. The Cases tab (report.js) and
// "Run with my input" (my_input.js) both show values through caseValuesView.

import { entryMatcher, shapeOf, toleranceOf } from '../checker/compare.js';
import { countDiffs, EDGE, entryAt, FOLD_AT, foldAxis, formatEntry, isFolded, SLICES, typeLabel } from './case_values.js';
import { h } from './dom.js';

/** The most entries "Show all" puts in the page: a bigger array stays folded, so a 256×1024 case costs a few dozen cells. */
const SHOW_ALL_MAX = 4096;

const WHOLE = { at: Infinity };

// A <details> whose body is built when it first opens, so a folded case or array costs no elements.
function lazyDetails(attrs, summary, build, open) {
  const details = h('details', { ...attrs, open: open ? '' : null }, h('summary', {}, summary));
  let built = false;
  const fill = () => {
    if (built || !details.open) return;
    built = true;
    details.append(build());
  };
  details.addEventListener('toggle', fill);
  fill();
  return details;
}

// The entry of `value` at `path` as a `tag` element; a differing one says so in words too.
function entry(tag, cls, value, path, dtype, differs) {
  const off = differs?.(path) ?? false;
  const classes = [cls, off && 'differs'].filter(Boolean);
  return h(tag, { class: classes.join(' ') || null }, formatEntry(entryAt(value, path), dtype), off && h('span', { class: 'sr-only' }, ' (differs)'));
}

// A vector (one row) or the matrix at `prefix` of `value` (its last two axes, `shape`), long axes folded unless `whole`.
function table(value, prefix, shape, dtype, differs, whole) {
  const fold = (n) => foldAxis(n, whole ? WHOLE : undefined);
  const isGap = (i) => typeof i === 'object';
  const cols = fold(shape.at(-1));
  const head = h('tr', {}, shape.length === 2 && h('td', {}), cols.map((c) => h('th', { scope: 'col' }, isGap(c) ? `… ${c.gap} more` : c)));
  const row = (r) => cols.map((c) => (isGap(c) ? h('td', { class: 'gap' }, '…') : entry('td', null, value, r === null ? [...prefix, c] : [...prefix, r, c], dtype, differs)));
  const rows =
    shape.length === 1
      ? [h('tr', {}, row(null))]
      : fold(shape[0]).map((r) =>
          isGap(r)
            ? h('tr', { class: 'gap' }, h('th', { scope: 'row' }, '⋮'), h('td', { colspan: cols.length }, `${r.gap} more rows`))
            : h('tr', {}, h('th', { scope: 'row' }, r), row(r)),
        );
  return h('table', { class: 'values' }, h('thead', {}, head), h('tbody', {}, rows));
}

// The 2-D slices of a 3-D or higher array below `prefix`, the leading axes folded unless `whole`.
function slices(value, prefix, shape, dtype, differs, whole) {
  if (shape.length - prefix.length === 2) {
    const label = `[${[...prefix, ':', ':'].join(', ')}]`;
    return h('div', { class: 'slice' }, h('div', { class: 'slice-index' }, label), table(value, prefix, shape.slice(-2), dtype, differs, whole));
  }
  return foldAxis(shape[prefix.length], whole ? WHOLE : SLICES).map((i) =>
    typeof i === 'object' ? h('p', { class: 'gap' }, `⋮ ${i.gap} more slices`) : slices(value, [...prefix, i], shape, dtype, differs, whole),
  );
}

// `value` (a number, boolean or nested array of `dtype`) as text or tables, each entry where `differs(path)` holds marked; long axes folded unless `whole`.
function valueView(value, dtype, differs = null, whole = false) {
  const shape = shapeOf(value);
  if (!shape.length) return entry('span', 'scalar', value, [], dtype, differs);
  if (shape.length <= 2) return table(value, [], shape, dtype, differs, whole);
  return h('div', { class: 'slices' }, slices(value, [], shape, dtype, differs, whole));
}

// One named value: its name and type (and `note`), the value, and a way to see all of it when folded.
function named(name, value, dtype, { differs = null, note = null } = {}) {
  const shape = shapeOf(value);
  const total = shape.reduce((a, b) => a * b, 1);
  const more = !isFolded(shape)
    ? null
    : total <= SHOW_ALL_MAX
      ? lazyDetails({ class: 'show-all' }, `Show all ${total} entries`, () => valueView(value, dtype, differs, true), false)
      : h('p', { class: 'note' }, `${total} entries: only the first and last ${EDGE} along each axis are shown`);
  const caption = h('figcaption', {}, h('code', {}, name), ' ', h('span', { class: 'type' }, typeLabel(dtype, shape)), note && h('span', { class: 'fail' }, ` ${note}`));
  return h('figure', { class: 'value' }, caption, valueView(value, dtype, differs), more);
}

const column = (title, items) => h('div', { class: 'case-col' }, h('div', { class: 'col-title' }, title), items);
const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

/**
 * One case's values side by side: its input, expected and actual outputs (a
 * report's caseValues entry, {input, expected, actual}), the entries of
 * each output that differ from the expected ones marked on both sides;
 * `labels` names the two output columns.
 */
export function caseValuesView(problem, { input, expected, actual }, labels = { expected: 'Expected', actual: 'Actual' }) {
  const outputs = Object.entries(problem.outputs).map(([key, spec]) => {
    const dtype = spec.dtype ?? 'float32';
    const got = actual?.[key];
    const want = expected[key];
    if (!got) return { key, dtype, want, got };
    const wantShape = shapeOf(want);
    // Entries compare only between arrays of one shape; the case's message says what else is wrong.
    if (JSON.stringify(got.shape) !== JSON.stringify(wantShape)) return { key, dtype, want, got, note: `(expected ${typeLabel(dtype, wantShape)})` };
    const matches = entryMatcher(problem, dtype);
    const count = countDiffs(want, got.value, matches);
    const differs = count ? (path) => !matches(entryAt(got.value, path), entryAt(want, path)) : null;
    return { key, dtype, want, got, differs, note: count ? plural(count, 'entry differs', 'entries differ') : null };
  });
  const actualColumn = actual
    ? outputs.map((o) => (o.got ? named(o.key, o.got.value, o.got.dtype, o) : h('p', { class: 'note' }, h('code', {}, o.key), ': not returned as an array')))
    : h('p', { class: 'note' }, 'No outputs to show: the message above says why.');
  return h(
    'div',
    { class: 'case-values' },
    column('Input', problem.args.map((a) => named(a, input[a], problem.inputs[a].dtype ?? 'float32'))),
    column(labels.expected, outputs.map((o) => named(o.key, o.want, o.dtype, { differs: o.differs }))),
    column(labels.actual, actualColumn),
  );
}

/** What the Cases tab's marks mean, with the problem's tolerance. */
export function casesLegend(problem) {
  const { atol, rtol } = toleranceOf(problem);
  return h(
    'p',
    { class: 'legend' },
    h('span', { class: 'differs' }, 'Marked'),
    ` entries differ from the expected ones: float32 by more than ${atol} + ${rtol}·|expected|, int32 and bool at all. `,
    `An axis longer than ${FOLD_AT} shows its first and last ${EDGE} entries.`,
  );
}

/**
 * One case of a report: its verdict line (the .case element) and, folded
 * unless `open`, its first differing entries and its values (`values`: its
 * caseValues entry, if any), built when first unfolded.
 */
export function caseView(problem, c, values, open) {
  const line = h(
    'span',
    { class: `case ${c.passed ? 'pass' : 'fail'}` },
    `${c.passed ? '✓' : '✗'} ${c.name}`,
    c.maxAbsError === null ? '' : ` (max abs error ${c.maxAbsError.toExponential(1)})`,
    c.passed ? '' : `: ${c.message}`,
  );
  const diffs = c.diffs.map((d) => h('div', { class: 'diff' }, `${d.output}[${d.index}] expected ${d.expected}, got `, h('span', { class: 'actual' }, d.actual)));
  return lazyDetails({ class: 'case-item' }, line, () => h('div', { class: 'case-body' }, diffs, values && caseValuesView(problem, values)), open);
}
