// The Timeline tab: what each device did while running one case, from the
// spans the judge's runtime recorded (sl.profiler's timeline): one row per
// device, a bar per equation of a shard_map body (collectives in their own
// colour), the waits at barriers drawn over them, a loop's inner equations
// as thin bars below. Hovering a bar names its equation. Equations are named
// from the program JSON the report carries; every string in it may come from
// the learner's code, so all of it goes in as text (dom.js). Its colours are
// timeline.css (imported by main.js: report.js also loads as a plain module).

import { frag, h, svg } from './dom.js';

const WIDTH = 760; // the plot's width in SVG units (it scales with the panel)
const ROW = 30;
const LEFT = 64; // room for the device labels
const MAX_BARS = 6000; // an SVG of more elements slows the page; the rest are counted, not drawn

/** The equation a span ran, as a line of the printed program: `c = ppermute[axis_name=data] b`, or its name when unknown. */
function describe(span, body) {
  if (span.kind === 'wait') return `waiting in ${span.name} for the other devices of the group`;
  const eqn = span.depth === 1 ? body?.eqns?.[span.index] : null;
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

// Per device: its spans with the shard_map body each ran in (the top-level equation whose span holds it).
function withBodies(timeline, program) {
  const rows = Array.from({ length: timeline.devices }, () => []);
  const current = new Array(timeline.devices).fill(null);
  for (const s of timeline.spans) {
    if (s.depth === 0) current[s.device] = s.name === 'shard_map' ? program?.eqns?.[s.index]?.params?.jaxpr : null;
    rows[s.device]?.push({ span: s, body: current[s.device] });
  }
  return rows;
}

const ms = (t) => (t >= 1 ? `${t.toFixed(2)} ms` : `${(t * 1000).toFixed(1)} µs`);

/** Each device's busy, collective and waiting time, and how many times it ran each collective. */
function summary(rows) {
  return rows.map((row, device) => {
    const total = (kind) => row.filter(({ span }) => span.kind === kind && span.depth >= 1).reduce((t, { span }) => t + span.end - span.begin, 0);
    const counts = new Map();
    for (const { span } of row) if (span.kind === 'collective') counts.set(span.name, (counts.get(span.name) ?? 0) + 1);
    return { device, equations: total('equation'), collectives: total('collective'), waits: total('wait'), counts };
  });
}

/** The Timeline tab's contents for `timeline` (the report's) over `program` (its JSON): a picture and a table. */
export function timelineView(timeline, program) {
  if (!timeline?.spans?.length) return h('p', {}, 'Nothing was recorded: the case did not run on the devices.');
  const rows = withBodies(timeline, program);
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
      const [top, height] = span.kind === 'wait' ? [y + 6, ROW - 16] : span.depth === 0 ? [y, ROW - 6] : span.depth === 1 ? [y + 3, ROW - 12] : [y + ROW - 10, 3];
      const kind = span.depth === 0 ? 'body' : span.kind;
      const text = `device ${d}: ${describe(span, body)} (${ms(span.end - span.begin)}, from ${ms(span.begin)})`;
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
      h('caption', {}, 'Time per device (equations of the bodies, collectives including their waits, waits alone)'),
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
