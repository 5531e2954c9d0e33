// SVG pictures drawn from the traced program: the mesh, how each input and
// output of a shard_map is laid out over the devices (like
// jax.debug.visualize_array_sharding), and the bytes each collective sends.

import { devicesByBlock } from '../lib/layout.js';
import { frag, h, svg } from './dom.js';

const COLORS = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7'];

// The devices holding each block of an array with `shape` split by `spec`
// on `mesh` (the program JSON's {axis_names, shape}); a vector is drawn as
// one row of column blocks.
function blocks(shape, spec, mesh) {
  const entries = shape.length === 1 ? [null, spec[0] ?? null] : [0, 1].map((k) => (k < shape.length ? (spec[k] ?? null) : null));
  return devicesByBlock({ axisNames: mesh.axis_names, axisSizes: mesh.shape }, entries);
}

/** An SVG grid of an array's blocks, each coloured by (the first of) its devices: a <figure>, or null for more than 2 dimensions. */
export function layoutSvg(name, aval, spec, mesh) {
  if (aval.shape.length > 2) return null;
  const grid = blocks(aval.shape, spec, mesh);
  const width = 160;
  const height = aval.shape.length === 2 ? 120 : 40;
  const cw = width / grid[0].length;
  const ch = height / grid.length;
  const cells = grid.flatMap((row, i) =>
    row.flatMap((devs, j) => [
      svg('rect', { class: 'block', x: j * cw, y: i * ch, width: cw, height: ch, fill: COLORS[devs[0] % 8], stroke: '#fff' }),
      svg('text', { x: j * cw + cw / 2, y: i * ch + ch / 2 + 4, 'font-size': 10, 'text-anchor': 'middle', fill: '#fff' }, devs.join(',')),
    ]),
  );
  const label = `${name}: ${aval.str.replace(/\{.*\}$/, '')} ${JSON.stringify(spec)}`;
  return h(
    'figure',
    {},
    svg('svg', { class: 'layout', width, height, viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': label }, cells),
    h('figcaption', {}, label),
  );
}

/** The pictures of a traced program (its JSON), as a fragment: mesh, layouts of every shard_map's inputs and outputs, collectives' bytes. */
export function programPictures(program, argNames) {
  const maps = program?.eqns.filter((e) => e.primitive === 'shard_map') ?? [];
  if (!maps.length) return frag(h('p', {}, 'No shard_map in the traced program: nothing is split over the devices.'));
  const mesh = maps[0].params.mesh;
  const names = new Map(program.invars.map((v, i) => [v.name, argNames[i] ?? v.name]));
  const outNames = new Map(program.outvars.map((v, i) => [v.name, `output ${i}`]));
  const meshText = `Mesh: ${mesh.axis_names.map((a, i) => `${a} = ${mesh.shape[i]}`).join(' × ')} (${mesh.shape.reduce((a, b) => a * b, 1)} devices)`;
  const figures = [];
  const collectives = [];
  for (const sm of maps) {
    figures.push(...sm.inputs.map((a, i) => layoutSvg(`in ${names.get(a.name) ?? a.name}`, a.aval, sm.params.in_specs[i], sm.params.mesh)));
    figures.push(...sm.outputs.map((v, i) => layoutSvg(`out ${outNames.get(v.name) ?? v.name}`, v.aval, sm.params.out_specs[i], sm.params.mesh)));
    collectives.push(
      ...sm.params.jaxpr.eqns
        .filter((e) => e.collective) // marked from the core's registry
        .map((e) => {
          const bytes = e.inputs[0].aval.shape.reduce((a, b) => a * b, 1) * 4;
          const axes = e.params.axes ?? e.params.axis_name;
          return h('li', {}, h('code', {}, e.primitive), ` over ${JSON.stringify(axes)}: each device sends ${bytes} bytes`);
        }),
    );
  }
  return frag(
    h('p', {}, meshText),
    h('div', { class: 'pictures' }, figures),
    h('h4', {}, 'Collectives'),
    h('ul', {}, collectives.length ? collectives : h('li', {}, 'none')),
  );
}
