// The results of a Run or Submit, built as elements: the verdict, then tabs:
// each case (its values side by side: case_tables.js), each requirement, the traced
// program with its shard_map bodies folded, the sharding pictures and the
// timeline of the devices (timeline.js). Everything in a report
// can come from the learner's code (messages, values, axis names), so all of
// it goes in as text (dom.js).

import { caseView, casesLegend } from './case_tables.js';
import { frag, h } from './dom.js';
import { foldBodies } from './program_text.js';
import { programPictures } from './pictures.js';
import { timelineView } from './timeline.js';

/** The report `r` of checking problem `p` (Submit when `full`), as a fragment for the results box. */
export function renderReport(p, r, full) {
  const failedCases = r.cases.filter((c) => !c.passed).length;
  const failedReqs = full ? r.requirements.filter((q) => !q.passed).length : 0;
  const ok = failedCases === 0 && failedReqs === 0;
  const verdict = ok ? (full ? 'All passed' : 'Examples passed') : `${failedCases} case(s) and ${failedReqs} requirement(s) failed`;
  const cases = [casesLegend(p), r.cases.map((c, i) => caseView(p, c, r.caseValues?.[i]))];
  const reqs = full ? r.requirements.map((q) => h('div', { class: `req ${q.passed ? 'pass' : 'fail'}` }, `${q.passed ? '✓' : '✗'} ${q.message}`)) : [];
  const panels = [
    { id: 'cases', title: `Cases (${r.cases.length - failedCases}/${r.cases.length})`, body: cases, failed: failedCases > 0 },
    full && { id: 'requirements', title: `Requirements (${reqs.length - failedReqs}/${reqs.length})`, body: reqs, failed: failedReqs > 0 },
    r.jaxpr && { id: 'program', title: 'Program', body: h('pre', { class: 'jaxpr' }, foldBodies(r.jaxpr, r.jaxprBodies)) },
    r.program && { id: 'sharding', title: 'Sharding', body: programPictures(r.program, p.args, r.outTree) },
    // Built when first opened: a timeline can hold thousands of bars.
    r.timeline && { id: 'timeline', title: 'Timeline', body: () => timelineView(r.timeline) },
  ].filter(Boolean);
  return frag(
    h('p', { class: `verdict ${ok ? 'pass' : 'fail'}`, id: 'verdict' }, verdict),
    h('p', {}, `${r.cases.length} cases in ${r.timeMs} ms (seed ${r.seed})`),
    r.unshown && h('p', { class: 'note' }, `The traced program has ${r.unshown.equations} equations: too many to print, draw or time here (at most ${r.unshown.limit}).`),
    tabs(panels, (panels.find((t) => t.failed) ?? panels[0]).id),
  );
}

/**
 * Tabs over `panels` ({id, title, body: nodes, or a function making them}), `open` shown first: the ARIA tabs
 * pattern (a tablist of buttons, one tabpanel each; arrow keys, Home and End
 * move between tabs). Ids: tab-<id>, panel-<id>.
 */
function tabs(panels, open) {
  const buttons = panels.map((t) =>
    h('button', { type: 'button', role: 'tab', id: `tab-${t.id}`, 'aria-controls': `panel-${t.id}`, class: t.failed ? 'fail' : null }, t.title),
  );
  // A body given as a function is built the first time its tab opens.
  const lazy = panels.map((t) => typeof t.body === 'function');
  const bodies = panels.map((t, i) => h('div', { role: 'tabpanel', id: `panel-${t.id}`, 'aria-labelledby': `tab-${t.id}`, class: 'panel', tabindex: 0 }, lazy[i] ? null : t.body));
  const select = (k, focus) => {
    if (lazy[k]) {
      lazy[k] = false;
      bodies[k].append(panels[k].body());
    }
    buttons.forEach((b, i) => {
      b.setAttribute('aria-selected', String(i === k));
      b.tabIndex = i === k ? 0 : -1;
      bodies[i].hidden = i !== k;
    });
    if (focus) buttons[k].focus();
  };
  buttons.forEach((b, i) => {
    b.onclick = () => select(i, false);
    b.onkeydown = (e) => {
      const k = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: buttons.length - 1 }[e.key];
      if (k === undefined) return;
      e.preventDefault();
      select((k + buttons.length) % buttons.length, true);
    };
  });
  select(Math.max(0, panels.findIndex((t) => t.id === open)), false);
  return frag(h('div', { role: 'tablist', class: 'tabs', 'aria-label': 'Results' }, buttons), bodies);
}
