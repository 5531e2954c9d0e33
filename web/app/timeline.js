// The Timeline tab: what each device did while running one case, from the
// spans the judge's runtime recorded (sl.profiler's timeline): one row per
// device, a bar per equation of a shard_map body (collectives in their own
// colour), the waits at barriers drawn over them, a loop's inner equations
// as thin bars below. Hovering a bar names its equation. Equations are named
// from the program JSON the report carries; every string in it may come from
// the learner's code, so all of it goes in as text (dom.js). Its colours are
// timeline.css (imported by main.js: report.js also loads as a plain module).

import { ownTimes } from '../lib/api/profiler.js';
import { frag, h, svg } from './dom.js';

const WIDTH = 760; // the plot's width in SVG units (it scales with the panel)
const ROW = 30;
const LEFT = 64; // room for the device labels
const MAX_BARS = 6000; // an SVG of more elements slows the page; the rest are counted, not drawn

/**
 * The equation a span ran, as a line of the printed program: `c =
 * ppermute[axis_name=data] b`, found in `top` (the program that ran) or
 * `body` (the shard_map body holding the span); its name when unknown.
 */
function describe(span, top, body) {
  if (span.kind === 'wait') return `waiting in ${span.name} for the other devices of the group`;
  const eqn = span.depth === 0 ? top?.eqns?.[span.index] : span.depth === 1 ? body?.eqns?.[span.index] : null;
  if (!eqn || eqn.primitive !== span.name) return span.depth > 1 ? `${span.name} (inside a loop)` : span.name;
  const names = (vars) => (vars ?? []).map((v) => v.name ?? String(v.value ?? '')).join(' ');
  // Parameters as the printed program shows them (one axis name bare, lists as tuples); nested programs and long lists are left out.
  const tuple = (v) => (Array.isArray(v) ? `(${v.map(tuple).join(', ')}${v.length === 1 ? ',' : ''})` : String(v));
  const shown = (v) => {
    if (Array.isArray(v)) return v.flat(Infinity).some((x) => x !== null && typeof x === 'object') ? null : v.length === 1 && typeof v[0] === 'string' ? v[0] : tuple(v);
    return v !== null && typeof v === 'object' ? null : String(v);
  };
  const params = Object.entries(eqn.params ?? {})
    .map(([k, v]) => [k, shown(v)])
    .filter(([, v]) => v !== null && v.length <= 48)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  return `${names(eqn.outputs)} = ${eqn.primitive}${params ? `[${params}]` : ''} ${names(eqn.inputs)}`.trim();
}

// Whether span `s` is a shard_map's whole body (a top-level equation's span, not a wait at the devices' meeting).
const isBody = (s) => s.depth === 0 && s.kind === 'equation' && s.name === 'shard_map';

// Per device: its spans, each with its own time (profiler.ownTimes) and the shard_map body it ran in (the top-level span holding it).
function withBodies(timeline) {
  const rows = Array.from({ length: timeline.devices }, () => []);
  const current = new Array(timeline.devices).fill(null);
  const own = ownTimes(timeline.spans);
  timeline.spans.forEach((s, i) => {
    if (s.depth === 0 && s.kind !== 'wait') current[s.device] = isBody(s) ? timeline.program?.eqns?.[s.index]?.params?.jaxpr : null;
    rows[s.device]?.push({ span: s, own: own[i], body: current[s.device] });
  });
  return rows;
}

const ms = (t) => (t >= 1 ? `${t.toFixed(2)} ms` : `${(t * 1000).toFixed(1)} µs`);

/** Each device's time in equations (their own time: a loop's counted once), in collectives (their waits included) and waiting, and how many times it ran each collective. */
function summary(rows) {
  return rows.map((row, device) => {
    const sum = (keep, time) => row.filter(keep).reduce((t, r) => t + time(r), 0);
    const counts = new Map();
    for (const { span } of row) if (span.kind === 'collective') counts.set(span.name, (counts.get(span.name) ?? 0) + 1);
    return {
      device,
      equations: sum(({ span }) => span.kind === 'equation' && !isBody(span), (r) => r.own),
      collectives: sum(({ span }) => span.kind === 'collective', ({ span }) => span.end - span.begin),
      waits: sum(({ span }) => span.kind === 'wait', ({ span }) => span.end - span.begin),
      counts,
    };
  });
}

/**
 * The Timeline tab's contents for `timeline` (profiler.stopTrace's form; its
 * `program`, the lowered program's JSON, names the equations when given):
 * a picture and a table.
 */
export function timelineView(timeline) {
  if (!timeline?.spans?.length) return h('p', {}, 'Nothing was recorded on the devices.');
  const rows = withBodies(timeline);
  const end = Math.max(...rows.map((r) => r.reduce((m, { span }) => Math.max(m, span.end), 0)), 1e-6);
  const x = (t) => LEFT + (t / end) * (WIDTH - LEFT);
  const bars = [];
  let hidden = 0;
  rows.forEach((row, d) => {
    const y = d * ROW + 4;
    bars.push(svg('text', { x: 4, y: y + ROW / 2, class: 'tl-device' }, `device ${d}`));
    for (const { span, body } of row) {
      if (bars.length >= MAX_BARS) {
        hidden++;
        continue;
      }
      // Depth 0 is the whole body (a backdrop), 1 its equations, deeper a loop's equations (thin, at the bottom).
      const [top, height] = span.kind === 'wait' ? [y + 6, ROW - 16] : isBody(span) ? [y, ROW - 6] : span.depth <= 1 ? [y + 3, ROW - 12] : [y + ROW - 10, 3];
      const kind = isBody(span) ? 'body' : span.kind;
      const text = `device ${d}: ${describe(span, timeline.program, body)} (${ms(span.end - span.begin)}, from ${ms(span.begin)})`;
      bars.push(
        svg(
          'rect',
          {
            class: `tl-${kind}`,
            x: x(span.begin),
            y: top,
            width: Math.max(x(span.end) - x(span.begin), 0.8),
            height,
            'data-device': d,
            'data-kind': kind,
            'data-name': span.name,
          },
          svg('title', {}, text),
        ),
      );
    }
  });
  const axis = [0, 0.25, 0.5, 0.75, 1].map((f) =>
    svg('text', { x: x(f * end), y: rows.length * ROW + 16, class: 'tl-axis', 'text-anchor': f === 0 ? 'start' : f === 1 ? 'end' : 'middle' }, ms(f * end)),
  );
  const stats = summary(rows);
  const rounds = (counts) => [...counts].map(([name, n]) => `${name} ×${n}`).join(', ') || 'none';
  const label = `What each of the ${timeline.devices} devices did over ${ms(end)} (${timeline.executor}): ${stats.map((s) => `device ${s.device}: ${rounds(s.counts)}`).join('; ')}`;
  const height = rows.length * ROW + 24;
  return frag(
    h(
      'p',
      { class: 'tl-legend' },
      legendItem('equation', 'equation'),
      legendItem('collective', 'collective'),
      legendItem('wait', 'waiting at a barrier'),
      legendItem('body', 'shard_map body'),
      timeline.executor === 'lockstep' ? ' One thread stepped every device through each equation in turn (the lockstep executor): nobody waits.' : '',
    ),
    h('p', { class: 'tl-note' }, 'The bars are what ran: the program after lowering, where pmean is a psum and a division, and a scan or fori_loop a while loop.'),
    svg('svg', { class: 'timeline', viewBox: `0 0 ${WIDTH} ${height}`, width: '100%', role: 'img', 'aria-label': label }, bars, axis),
    hidden || timeline.dropped ? h('p', { class: 'tl-note' }, `${hidden + timeline.dropped} later spans are not drawn.`) : '',
    h(
      'table',
      { class: 'tl-table' },
      h('caption', {}, 'Time per device (equations, collectives with their waits, and the waits alone)'),
      h('thead', {}, h('tr', {}, ['Device', 'Equations', 'Collectives', 'Waiting', 'Collectives run'].map((t) => h('th', { scope: 'col' }, t)))),
      h(
        'tbody',
        {},
        stats.map((s) => h('tr', {}, h('th', { scope: 'row' }, s.device), h('td', {}, ms(s.equations)), h('td', {}, ms(s.collectives)), h('td', {}, ms(s.waits)), h('td', {}, rounds(s.counts)))),
      ),
    ),
  );
}

function legendItem(kind, text) {
  return h('span', { class: 'tl-key' }, svg('svg', { width: 14, height: 10, 'aria-hidden': 'true' }, svg('rect', { class: `tl-${kind}`, width: 14, height: 10 })), ` ${text} `);
}
