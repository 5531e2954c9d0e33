// The results of a Run or Submit, built as elements: the verdict, each case
// (with its differing entries), each requirement, the traced program with its
// shard_map bodies folded, and the sharding pictures. Everything in a report
// can come from the learner's code (messages, values, axis names), so all of
// it goes in as text (dom.js).

import { frag, h } from './dom.js';
import { programPictures } from './pictures.js';

/** The report `r` of checking problem `p` (Submit when `full`), as a fragment for the results box. */
export function renderReport(p, r, full) {
  const failedCases = r.cases.filter((c) => !c.passed).length;
  const failedReqs = full ? r.requirements.filter((q) => !q.passed).length : 0;
  const ok = failedCases === 0 && failedReqs === 0;
  const verdict = ok ? (full ? 'All passed' : 'Examples passed') : `${failedCases} case(s) and ${failedReqs} requirement(s) failed`;
  const cases = r.cases.map((c) => [
    h(
      'div',
      { class: `case ${c.passed ? 'pass' : 'fail'}` },
      `${c.passed ? '✓' : '✗'} ${c.name}`,
      c.maxAbsError === null ? '' : ` (max abs error ${c.maxAbsError.toExponential(1)})`,
      c.passed ? '' : `: ${c.message}`,
    ),
    c.diffs.map((d) => h('div', { class: 'diff' }, `${d.output}[${d.index}] expected ${d.expected}, got `, h('span', { class: 'actual' }, d.actual))),
  ]);
  const reqs = full ? r.requirements.map((q) => h('div', { class: `req ${q.passed ? 'pass' : 'fail'}` }, `${q.passed ? '✓' : '✗'} ${q.message}`)) : [];
  return frag(
    h('p', { class: `verdict ${ok ? 'pass' : 'fail'}`, id: 'verdict' }, verdict),
    h('p', {}, `${r.cases.length} cases in ${r.timeMs} ms (seed ${r.seed})`),
    h('h3', {}, 'Cases'),
    cases,
    full && [h('h3', {}, 'Requirements'), reqs],
    r.jaxpr && h('details', {}, h('summary', {}, 'Traced program'), h('pre', { class: 'jaxpr' }, foldBodies(r.jaxpr, r.jaxprBodies))),
    r.program && h('details', { open: '' }, h('summary', {}, 'Sharding'), programPictures(r.program, p.args)),
  );
}

/**
 * The jaxpr text as a fragment, every nested program's equations in a
 * foldable block: `bodies` are where the printer put them (Jaxpr.printedBodies),
 * outermost first; bodies inside a folded one stay in its text.
 */
export function foldBodies(text, bodies = []) {
  const lines = text.split('\n');
  const out = [];
  let at = 0;
  for (const b of Array.isArray(bodies) ? bodies : []) {
    // Skipped: a body inside one folded already, or one that is not a line range of the text.
    if (!Number.isInteger(b?.first) || !Number.isInteger(b?.last) || b.first < at || b.last <= b.first || b.last > lines.length) continue;
    out.push(`${lines.slice(at, b.first).join('\n')}\n`);
    out.push(h('details', { open: '', class: 'body' }, h('summary', {}, `shard_map body (${b.equations} equations)`), `${lines.slice(b.first, b.last).join('\n')}\n`));
    at = b.last;
  }
  out.push(lines.slice(at).join('\n'));
  return frag(out);
}
