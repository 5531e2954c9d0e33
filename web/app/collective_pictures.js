// A collective equation as a picture of who sends what to whom, one circle
// of devices per axis group (a collective over 'x' on a 2×4 mesh runs 4
// groups of 2, each on its own): a ppermute as arrows along its pairs (a ring
// shows as a ring), a reduction as every device to a hub and back, a gather
// or an all-to-all as every device to every other. Which equations are
// collectives, and what each device sends, is the program JSON's (the core's
// registry and traffic rules); the styles below only choose a drawing, and a
// primitive without one still draws.

import { entryPart } from '../lib/layout.js';
import { h, svg } from './dom.js';
import { bytesText, deviceClass, layoutMesh, pictureFigure } from './figure.js';

/**
 * Drawing styles by primitive: the hub's text (a reduction), or every pair
 * linked, or the pairs of a permutation; and what the collective computes.
 * What moves, and how many bytes, is the equation's `traffic` in the program
 * JSON (the core's rule for each collective, cpp/runtime/collectives/).
 */
const STYLES = {
  psum: { hub: '+', how: 'sum' },
  pmax: { hub: 'max', how: 'maximum' },
  pmin: { hub: 'min', how: 'minimum' },
  all_gather: { pairs: true, how: 'every device ends with every block' },
  reduce_scatter: { hub: '+', how: 'sum, each device keeping its piece' },
  all_to_all: { pairs: true, how: 'every device sends a piece to every other' },
  ppermute: { perm: true, how: 'each arrow carries a block' },
};
const GENERIC = { hub: '⇄', how: 'a collective exchange' };

// What the devices send, in words, from the equation's traffic: one figure
// when every position sends the same, else the most and each position's.
function sentText({ sent }) {
  const most = Math.max(0, ...sent);
  if (sent.every((b) => b === most)) return [`each device sends ${bytesText(most)}`, `sends ${bytesText(most)}`];
  return [`each device sends up to ${bytesText(most)} (by position in its group: ${sent.map(bytesText).join(', ')})`, `sends ≤ ${bytesText(most)}`];
}

/** The axis groups of a collective over `axes` on `mesh` (layout.js form): the devices of each, by their position in the group. */
function axisGroups(mesh, axes) {
  const others = mesh.axisNames.filter((a) => !axes.includes(a));
  const size = mesh.axisSizes.reduce((a, b) => a * b, 1);
  const groups = [];
  for (let d = 0; d < size; d++) {
    const g = entryPart(mesh, others, d).part;
    (groups[g] ??= [])[entryPart(mesh, axes, d).part] = d;
  }
  return groups;
}

const NODE_R = 13;

// A line from (x1, y1) to (x2, y2), bowed by `bend` (so a pair's two
// directions do not overlap), its end shortened to the node's edge, with an
// arrowhead there, and one at its start too when `both`; `attrs` on its group.
function arrow([x1, y1], [x2, y2], { bend = 0, both = false, end = NODE_R, attrs = {} } = {}) {
  const [dx, dy] = [x2 - x1, y2 - y1];
  const len = Math.hypot(dx, dy) || 1;
  const [ux, uy] = [dx / len, dy / len];
  const [cx, cy] = [(x1 + x2) / 2 - uy * bend, (y1 + y2) / 2 + ux * bend];
  const tip = (px, py, qx, qy, back) => {
    const l = Math.hypot(px - qx, py - qy) || 1;
    const [vx, vy] = [(px - qx) / l, (py - qy) / l];
    const [tx, ty] = [px - vx * back, py - vy * back];
    return [tx, ty, `${tx},${ty} ${tx - vx * 7 - vy * 3.5},${ty - vy * 7 + vx * 3.5} ${tx - vx * 7 + vy * 3.5},${ty - vy * 7 - vx * 3.5}`];
  };
  const [ex, ey, head] = tip(x2, y2, cx, cy, end);
  const [sx, sy, tail] = both ? tip(x1, y1, cx, cy, end) : [...shorten(x1, y1, cx, cy, NODE_R), null];
  return svg('g', { class: 'arrow', ...attrs }, svg('path', { d: `M${sx},${sy} Q${cx},${cy} ${ex},${ey}` }), svg('polygon', { points: head }), tail && svg('polygon', { points: tail }));
}

// (x, y) moved `by` towards (tx, ty).
function shorten(x, y, tx, ty, by) {
  const l = Math.hypot(tx - x, ty - y) || 1;
  return [x + ((tx - x) / l) * by, y + ((ty - y) / l) * by];
}

// One group's circle of devices, centred at (cx, cy) with radius r, and its edges.
function groupShapes(style, eqn, devs, cx, cy, r) {
  const n = devs.length;
  const at = devs.map((_, i) => (n === 1 ? [cx, cy] : [cx + r * Math.cos(-Math.PI / 2 + (2 * Math.PI * i) / n), cy + r * Math.sin(-Math.PI / 2 + (2 * Math.PI * i) / n)]));
  const edges = [];
  if (style.perm) {
    for (const [s, t] of eqn.params.perm ?? []) if (at[s] && at[t] && s !== t) edges.push(arrow(at[s], at[t], { bend: n === 2 ? 12 : 6, attrs: { 'data-from': devs[s], 'data-to': devs[t] } }));
  } else if (style.pairs) {
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) edges.push(arrow(at[i], at[j], { both: true }));
  }
  const hub = !style.perm && !style.pairs && n > 1;
  if (hub) for (const p of at) edges.push(arrow(p, [cx, cy], { both: true, end: 15 }));
  return [
    edges,
    hub && svg('g', { class: 'hub' }, svg('circle', { cx, cy, r: 15 }), svg('text', { x: cx, y: cy + 4 }, style.hub)),
    devs.map((d, i) =>
      svg('g', { class: 'device', 'data-device': d }, svg('circle', { class: deviceClass(d), cx: at[i][0], cy: at[i][1], r: NODE_R }), svg('text', { x: at[i][0], y: at[i][1] + 4 }, String(d))),
    ),
  ];
}

/** The picture of collective equation `eqn` (program JSON) run on `mesh` (program JSON form): a <figure class="collective" data-primitive>. */
export function collectiveFigure(eqn, mesh) {
  const style = STYLES[eqn.primitive] ?? GENERIC;
  const axes = [eqn.params?.axes ?? eqn.params?.axis_name ?? []].flat().filter((a) => mesh.axis_names.includes(a));
  const groups = axisGroups(layoutMesh(mesh), axes);
  const n = groups[0].length;
  const r = n <= 2 ? 50 : 18 + 6 * n; // two devices keep room for the hub and arrows between them
  const box = 2 * r + 2 * NODE_R + 12;
  const width = Math.max(box * groups.length, 220);
  const height = box + 22;
  const drawn = groups.map((devs, g) => groupShapes(style, eqn, devs, box * g + box / 2, box / 2, r));
  const types = (eqn.inputs ?? []).map((a) => (a.aval?.str ?? '?').replace(/\{.*\}$/, '')).join(', ');
  const over = axes.length ? axes.join(', ') : 'no axis';
  const head = ` over ${over}: ${groups.length} group${groups.length > 1 ? 's' : ''} of ${n}`;
  const { traffic } = eqn;
  const [sends, sendsShort] = traffic ? sentText(traffic) : [];
  const block = traffic ? ` = ${bytesText(traffic.operand_bytes)} per device` : '';
  const detail = `${style.how}; block ${types}${block}${traffic ? `; ${sends} (${traffic.algorithm})` : ''}`;
  const summary = `${eqn.primitive}${head}; ${detail}`;
  const perm = style.perm ? `; pairs ${(eqn.params.perm ?? []).map(([s, t]) => `${s}→${t}`).join(', ')}${groups.length > 1 ? ' (positions in each group)' : ''}` : '';
  const footer = traffic && svg('text', { class: 'bytes', x: 4, y: height - 6 }, `${bytesText(traffic.operand_bytes)} per device · ${sendsShort}`);
  const fig = pictureFigure('collective', `${summary}${perm}`, width, height, [drawn, footer], [h('code', { class: 'name' }, eqn.primitive), head, h('br'), h('span', { class: 'note' }, detail)]);
  fig.dataset.primitive = eqn.primitive;
  return fig;
}
