// A draggable divider between two columns of a grid (the statement and the
// editor, the playground's script and results): the ARIA window-splitter
// pattern. It sets the container's --split (the first column's share, in
// percent), kept in localStorage under `key`; pointer drag, and the arrow
// keys, Home and End when focused. At a phone's width the columns stack and
// style.css hides it.

import { h } from './dom.js';

const STEP = 5;

/** The divider for `container` (a grid whose columns style.css sizes by --split), `controls` the id of the first pane: an element to put between the two panes. */
export function splitter(container, { key, label, controls, min = 20, max = 80, initial = 45 }) {
  const stored = Number(localStorage.getItem(key));
  let share = Number.isFinite(stored) && stored >= min && stored <= max ? stored : initial;
  const bar = h('div', {
    class: 'splitter',
    role: 'separator',
    tabindex: 0,
    'aria-orientation': 'vertical',
    'aria-label': label,
    'aria-controls': controls,
    'aria-valuemin': min,
    'aria-valuemax': max,
  });
  const set = (value, keep) => {
    share = Math.min(max, Math.max(min, Math.round(value)));
    container.style.setProperty('--split', `${share}%`);
    bar.setAttribute('aria-valuenow', share);
    if (keep) localStorage.setItem(key, String(share));
  };
  set(share, false);
  bar.onpointerdown = (e) => {
    e.preventDefault(); // no text selection while dragging
    bar.setPointerCapture(e.pointerId);
    bar.classList.add('dragging');
  };
  bar.onpointermove = (e) => {
    if (!bar.hasPointerCapture(e.pointerId)) return;
    const box = container.getBoundingClientRect();
    set(((e.clientX - box.left) / box.width) * 100, false);
  };
  // The drag ends however the capture ends (released, cancelled, lost): where it got to is kept.
  bar.onlostpointercapture = () => {
    bar.classList.remove('dragging');
    set(share, true);
  };
  bar.onkeydown = (e) => {
    const next = { ArrowLeft: share - STEP, ArrowRight: share + STEP, Home: min, End: max }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    set(next, true);
  };
  return bar;
}
