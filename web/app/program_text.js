// A traced program's text as the page shows it (the Program tab, the
// playground's traced programs): its nested programs' equations foldable.

import { frag, h } from './dom.js';

// What a nested program is called on its first line: the name JAX's printer
// gives one printed before the program (`let jaxpr = { lambda`), else the
// parameter holding it (`body_jaxpr={ lambda`).
function programName(head = '') {
  return head.match(/^let (\S+) = \{ lambda/)?.[1] ?? head.match(/(\w+)=\{ lambda/)?.[1] ?? 'program';
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
    out.push(h('details', { open: '', class: 'body' }, h('summary', {}, `${programName(lines[b.first - 1])} (${b.equations} equations)`), `${lines.slice(b.first, b.last).join('\n')}\n`));
    at = b.last;
  }
  out.push(lines.slice(at).join('\n'));
  return frag(out);
}
