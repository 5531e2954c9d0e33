// What the sharding pictures share: a captioned, labelled SVG figure, the
// colour class of a device (pictures.css), the mesh in layout.js's form, and
// sizes written for people.

import { h, svg } from './dom.js';

/** A <figure> of class `cls` holding an SVG (role img, `label` for screen readers) of `width` × `height` with `children`, and `caption` (text or nodes; `label` by default). */
export function pictureFigure(cls, label, width, height, children, caption = label) {
  return h(
    'figure',
    { class: `picture ${cls}` },
    svg('svg', { width, height, viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': label }, children),
    h('figcaption', {}, caption),
  );
}

/** The colour class of device `d` (pictures.css has eight, light and dark). */
export const deviceClass = (d) => `dev-${d % 8}`;

/** A program JSON mesh ({axis_names, shape}) in layout.js's form ({axisNames, axisSizes}). */
export const layoutMesh = (mesh) => ({ axisNames: mesh.axis_names, axisSizes: mesh.shape });

/** A mesh's axes as JAX prints them: "data = 2 × model = 4". */
export const meshText = (mesh) => mesh.axis_names.map((a, i) => `${a} = ${mesh.shape[i]}`).join(' × ');

/** A byte count for people: 64 B, 1.5 KiB, 2 MiB. */
export function bytesText(n) {
  if (n < 1024) return `${n} B`;
  const [v, unit] = n < 1024 * 1024 ? [n / 1024, 'KiB'] : [n / (1024 * 1024), 'MiB'];
  return `${Number(v.toFixed(1))} ${unit}`;
}

/** Text of roughly `chars` characters at the pictures' 11px font: its width in pixels, to size boxes around it. */
export const textWidth = (chars) => chars * 6.6;
