// The page's one way of building elements from data. Strings go in as text
// nodes or attribute values (setAttribute), never as markup, so a learner's
// axis name, error message or output value cannot add an element or an event
// handler to the page, whatever characters it holds.

const SVG_NS = 'http://www.w3.org/2000/svg';

/** An HTML element `tag` with `attrs` (name → value; null, undefined and false are left out) and `children` (nodes, or anything else as text). */
export function h(tag, attrs, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

/** An SVG element `tag`, built like h(). */
export function svg(tag, attrs, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

/** A fragment holding `children` (nodes, or anything else as text), for a list of siblings. */
export function frag(...children) {
  const f = document.createDocumentFragment();
  f.append(...nodes(children));
  return f;
}

// What may run script in parsed HTML: these elements, `on...` attributes and
// javascript: URLs.
const ACTIVE = 'script, iframe, frame, object, embed, link, meta, base, style, form, template';

/**
 * The page's own HTML (a problem statement rendered from the project's
 * markdown, with KaTeX's math) as a fragment: parsed inert in a <template>,
 * then stripped of everything that could run script, so even a statement
 * from elsewhere adds only text and formatting. Never for a learner's text: that goes in through h().
 */
export function markup(html) {
  const t = document.createElement('template');
  t.innerHTML = html;
  for (const el of t.content.querySelectorAll(ACTIVE)) el.remove();
  for (const el of t.content.querySelectorAll('*')) {
    for (const a of [...el.attributes]) {
      if (/^on/i.test(a.name) || /^\s*(javascript|data|vbscript):/i.test(a.value)) el.removeAttribute(a.name);
    }
  }
  return t.content;
}

function fill(el, attrs, children) {
  for (const [name, value] of Object.entries(attrs ?? {})) {
    // Attribute names are written in this page's code; an `on...` name would
    // make its value script, which no caller should ever need.
    if (/^on/i.test(name)) throw new Error(`dom: refusing event-handler attribute ${name}`);
    if (value !== null && value !== undefined && value !== false) el.setAttribute(name, String(value));
  }
  el.append(...nodes(children));
  return el;
}

// Nodes stay nodes; everything else becomes a text node (append() does that for strings).
function nodes(children) {
  return children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false).map((c) => (c instanceof Node ? c : String(c)));
}
