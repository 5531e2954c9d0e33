// The results of a Run or Submit, built as elements: the verdict, then tabs:
// each case (its values side by side: case_tables.js), each requirement, what
// the cases printed (jax.debug.print), the traced program with its shard_map bodies folded, the sharding pictures and the
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
  // Only the first failed case opens: each open case builds its tables, and a
  // wrong solution fails every case, so opening all would build thousands of
  // cells (and lay them out) at once; the others say why they failed when folded.
  const firstFailed = r.cases.findIndex((c) => !c.passed);
  const cases = [casesLegend(p), r.cases.map((c, i) => caseView(p, c, r.caseValues?.[i], i === firstFailed))];
  // What each case's run printed (jax.debug.print): text, as the program printed it.
  const printed = r.cases.filter((c) => c.output !== null && c.output !== undefined);
  const reqs = full ? r.requirements.map((q) => h('div', { class: `req ${q.passed ? 'pass' : 'fail'}` }, `${q.passed ? '✓' : '✗'} ${q.message}`)) : [];
  // Each panel is built by a function: the open one at once, the others each
  // in a task of its own after it (or when its tab is opened first), so no one
  // task of the page's main thread builds a large report whole; a timeline,
  // which can hold thousands of bars, only when its tab is first opened.
  const panels = [
    { id: 'cases', title: `Cases (${r.cases.length - failedCases}/${r.cases.length})`, body: () => cases, failed: failedCases > 0 },
    full && { id: 'requirements', title: `Requirements (${reqs.length - failedReqs}/${reqs.length})`, body: () => reqs, failed: failedReqs > 0 },
    printed.length > 0 && { id: 'output', title: 'Output', body: () => printed.map((c) => h('section', { class: 'case-output' }, h('h4', {}, c.name), h('pre', {}, c.output))) },
    r.jaxpr && { id: 'program', title: 'Program', body: () => h('pre', { class: 'jaxpr' }, foldBodies(r.jaxpr, r.jaxprBodies)) },
    r.program && { id: 'sharding', title: 'Sharding', body: () => programPictures(r.program, p.args, r.outTree) },
    r.timeline && { id: 'timeline', title: 'Timeline', body: () => timelineView(r.timeline), onOpen: true },
  ].filter(Boolean);
  return frag(
    h('p', { class: `verdict ${ok ? 'pass' : 'fail'}`, id: 'verdict' }, verdict),
    h('p', {}, `${r.cases.length} cases in ${r.timeMs} ms (seed ${r.seed})`),
    r.unshown && h('p', { class: 'note' }, `The traced program has ${r.unshown.equations} equations: too many to print, draw or time here (at most ${r.unshown.limit}).`),
    tabs(panels, (panels.find((t) => t.failed) ?? panels[0]).id),
  );
}

/**
 * Tabs over `panels` ({id, title, body: a function making its nodes, onOpen:
 * built only when first opened}), `open` shown first: the ARIA tabs pattern
 * (a tablist of buttons, one tabpanel each; arrow keys, Home and End move
 * between tabs). Ids: tab-<id>, panel-<id>. The open panel is built at once;
 * the others each in a later task, or when first opened.
 */
function tabs(panels, open) {
  const buttons = panels.map((t) =>
    h('button', { type: 'button', role: 'tab', id: `tab-${t.id}`, 'aria-controls': `panel-${t.id}`, class: t.failed ? 'fail' : null }, t.title),
  );
  const unbuilt = panels.map(() => true);
  const bodies = panels.map((t) => h('div', { role: 'tabpanel', id: `panel-${t.id}`, 'aria-labelledby': `tab-${t.id}`, class: 'panel', tabindex: 0 }));
  const build = (k) => {
    if (!unbuilt[k]) return;
    unbuilt[k] = false;
    bodies[k].append(frag(panels[k].body()));
  };
  const select = (k, focus) => {
    build(k);
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
  panels.forEach((t, k) => t.onOpen || setTimeout(() => build(k)));
  return frag(h('div', { role: 'tablist', class: 'tabs', 'aria-label': 'Results' }, buttons), bodies);
}
