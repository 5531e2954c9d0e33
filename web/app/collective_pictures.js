// A collective equation as a picture of who sends what to whom, one circle
// of devices per axis group (a collective over 'x' on a 2×4 mesh runs 4
// groups of 2, each on its own). Everything drawn is the program JSON's: the
// equation's `traffic`, computed by the core beside each collective's
// algorithm (cpp/runtime/collectives/), says what the group ends with, the
// operator a reduction combines with (drawn as a hub every device sends to
// and reads from), the links data moves along (drawn as arrows: a ring shows
// as a ring) and the bytes each device sends. No primitive is named here, so
// a new collective draws without a line in this file.

import { entryPart } from '../lib/layout.js';
import { h, svg } from './dom.js';
import { bytesText, deviceClass, layoutMesh, pictureFigure } from './figure.js';

/** The drawing of an equation without traffic (a collective the core has no rule for on this mesh). */
const UNKNOWN = { computes: 'a collective exchange', combine: '⇄', links: [] };

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

// One group's circle of devices, centred at (cx, cy) with radius r, and the
// traffic's edges: a hub with the combining operator, or the links (a pair
// linked both ways as one double-headed arrow).
function groupShapes(traffic, devs, cx, cy, r) {
  const n = devs.length;
  const at = devs.map((_, i) => (n === 1 ? [cx, cy] : [cx + r * Math.cos(-Math.PI / 2 + (2 * Math.PI * i) / n), cy + r * Math.sin(-Math.PI / 2 + (2 * Math.PI * i) / n)]));
  const edges = [];
  const hub = traffic.combine && n > 1;
  if (hub) {
    for (const p of at) edges.push(arrow(p, [cx, cy], { both: true, end: 15 }));
  } else {
    const linked = new Set(traffic.links.map(([s, t]) => `${s},${t}`));
    for (const [s, t] of traffic.links) {
      const both = linked.has(`${t},${s}`);
      if (!at[s] || !at[t] || (both && s > t)) continue;
      edges.push(arrow(at[s], at[t], { both, bend: both ? 0 : n === 2 ? 12 : 6, attrs: { 'data-from': devs[s], 'data-to': devs[t] } }));
    }
  }
  return [
    edges,
    hub && svg('g', { class: 'hub' }, svg('circle', { cx, cy, r: 15 }), svg('text', { x: cx, y: cy + 4 }, traffic.combine)),
    devs.map((d, i) =>
      svg('g', { class: 'device', 'data-device': d }, svg('circle', { class: deviceClass(d), cx: at[i][0], cy: at[i][1], r: NODE_R }), svg('text', { x: at[i][0], y: at[i][1] + 4 }, String(d))),
    ),
  ];
}

// Whether `links` joins every ordered pair of a group of n (then the caption need not list them).
const everyPair = (links, n) => links.length === n * (n - 1);

/** The picture of collective equation `eqn` (program JSON) run on `mesh` (program JSON form): a <figure class="collective" data-primitive>. */
export function collectiveFigure(eqn, mesh) {
  const traffic = eqn.traffic ?? UNKNOWN;
  const axes = [eqn.params?.axes ?? eqn.params?.axis_name ?? []].flat().filter((a) => mesh.axis_names.includes(a));
  const groups = axisGroups(layoutMesh(mesh), axes);
  const n = groups[0].length;
  const r = n <= 2 ? 50 : 18 + 6 * n; // two devices keep room for the hub and arrows between them
  const box = 2 * r + 2 * NODE_R + 12;
  const width = Math.max(box * groups.length, 220);
  const height = box + 22;
  const drawn = groups.map((devs, g) => groupShapes(traffic, devs, box * g + box / 2, box / 2, r));
  const types = (eqn.inputs ?? []).map((a) => (a.aval?.str ?? '?').replace(/\{.*\}$/, '')).join(', ');
  const over = axes.length ? axes.join(', ') : 'no axis';
  const head = ` over ${over}: ${groups.length} group${groups.length > 1 ? 's' : ''} of ${n}`;
  const sent = eqn.traffic && sentText(eqn.traffic);
  const block = sent ? ` = ${bytesText(traffic.operand_bytes)} per device` : '';
  const detail = `${traffic.computes}; block ${types}${block}${sent ? `; ${sent[0]} (${traffic.algorithm})` : ''}`;
  const summary = `${eqn.primitive}${head}; ${detail}`;
  const listed = traffic.combine || everyPair(traffic.links, n) ? '' : `; pairs ${traffic.links.map(([s, t]) => `${s}→${t}`).join(', ') || 'none'}${groups.length > 1 ? ' (positions in each group)' : ''}`;
  const footer = sent && svg('text', { class: 'bytes', x: 4, y: height - 6 }, `${bytesText(traffic.operand_bytes)} per device · ${sent[1]}`);
  const fig = pictureFigure('collective', `${summary}${listed}`, width, height, [drawn, footer], [h('code', { class: 'name' }, eqn.primitive), head, h('br'), h('span', { class: 'note' }, detail)]);
  fig.dataset.primitive = eqn.primitive;
  return fig;
}
