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
