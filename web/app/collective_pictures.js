// A collective equation as a picture of who sends what to whom, one circle
// of devices per axis group (a collective over 'x' on a 2×4 mesh runs 4
// groups of 2, each on its own): a ppermute as arrows along its pairs (a ring
// shows as a ring), a reduction as every device to a hub and back, a gather
// or an all-to-all as every device to every other. Which equations are
// collectives is the program JSON's mark (the core's registry); the styles
// below only choose a drawing, and a primitive without one still draws.

import { entryPart } from '../lib/layout.js';
import { h, svg } from './dom.js';
import { bytesText, deviceClass, layoutMesh, pictureFigure } from './figure.js';

// Small payloads are reduced whole by every device from its peers' inputs;
// larger ones slice-parallel (cpp/runtime/collectives/communicator.h, all_reduce.cc).
const STAGING_BYTES = 16 * 1024;
const ELEMENT_BYTES = 4; // every dtype is 4 bytes in the core (kElemBytes)

/**
 * Drawing styles by primitive: the hub's text (a reduction), or every pair
 * linked; and what each device sends, from its block's bytes `b` and the
 * group's size `n`, by the threaded algorithm (cpp/runtime/collectives/).
 */
const STYLES = {
  psum: { hub: '+', sent: reduceSent, how: 'sum' },
  pmax: { hub: 'max', sent: reduceSent, how: 'maximum' },
  pmin: { hub: 'min', sent: reduceSent, how: 'minimum' },
  all_gather: { pairs: true, sent: (b, n) => [(n - 1) * b, 'its block to each peer'], how: 'every device ends with every block' },
  reduce_scatter: { hub: '+', sent: (b, n) => [((n - 1) * b) / n, 'to each peer the piece that peer sums'], how: 'sum, each device keeping its piece' },
  all_to_all: { pairs: true, sent: (b, n) => [((n - 1) * b) / n, 'piece j to device j'], how: 'every device sends a piece to every other' },
  ppermute: { perm: true, sent: (b) => [b, 'its block to the peer its pair names'], how: 'each arrow carries a block' },
};
const GENERIC = { hub: '⇄', sent: (b) => [b, 'payload per device'], how: 'a collective exchange' };

// psum, pmax, pmin: every peer reads each device's whole block when it is
// small; larger ones are reduced by slices (each device reads its slice of
// the n - 1 others' blocks and writes the result back to them).
function reduceSent(b, n) {
  return b <= STAGING_BYTES ? [(n - 1) * b, 'its block, read by each peer'] : [(2 * (n - 1) * b) / n, 'slices in and reduced slices out'];
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
  const inputs = eqn.inputs ?? [];
  const block = inputs.reduce((s, a) => s + (a.aval?.shape ?? []).reduce((p, k) => p * k, 1) * ELEMENT_BYTES, 0);
  const [sent, what] = style.sent(block, n);
  const types = inputs.map((a) => (a.aval?.str ?? '?').replace(/\{.*\}$/, '')).join(', ');
  const over = axes.length ? axes.join(', ') : 'no axis';
  const sentText = `each device sends ${bytesText(Math.round(sent))} (${what})`;
  const head = ` over ${over}: ${groups.length} group${groups.length > 1 ? 's' : ''} of ${n}`;
  const detail = `${style.how}; block ${types} = ${bytesText(block)} per device; ${sentText}`;
  const summary = `${eqn.primitive}${head}; ${detail}`;
  const perm = style.perm ? `; pairs ${(eqn.params.perm ?? []).map(([s, t]) => `${s}→${t}`).join(', ')}${groups.length > 1 ? ' (positions in each group)' : ''}` : '';
  const footer = svg('text', { class: 'bytes', x: 4, y: height - 6 }, `${bytesText(block)} per device · sends ${bytesText(Math.round(sent))}`);
  const fig = pictureFigure('collective', `${summary}${perm}`, width, height, [drawn, footer], [h('code', { class: 'name' }, eqn.primitive), head, h('br'), h('span', { class: 'note' }, detail)]);
  fig.dataset.primitive = eqn.primitive;
  return fig;
}
