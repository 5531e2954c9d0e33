// One array's blocks on the devices, drawn as jax.debug.visualize_sharding
// draws them: a grid of blocks (rows split the array's first dimension, columns
// its second; a vector is one row), each labelled with the devices holding it,
// the grid's proportions those of the array. JAX draws only 1-D and 2-D
// arrays; here a scalar is one block, and an array of more dimensions is drawn
// by its last two, one grid per block of the leading ones, each titled with
// its index.

import { PartitionSpec } from '../lib/api/mesh.js';
import { entryAxes, entryPart } from '../lib/layout.js';
import { h, svg } from './dom.js';
import { deviceClass, layoutMesh, pictureFigure, textWidth } from './figure.js';

/** A spec (the program JSON's entries) as JAX prints a PartitionSpec: P('data', None), P(('data', 'model'),), P(). */
const specText = (spec) => String(new PartitionSpec(spec.map((e) => e ?? null)));

/**
 * The blocks of an array of `shape` laid out by `spec` on `mesh` (layout.js's
 * form), as grids over its last two dimensions: [{lead (the block's part of
 * each leading dimension), cells (rows × columns, each the ascending devices
 * holding that block)}], one per block of the leading dimensions.
 */
function blockGrids(mesh, shape, spec) {
  const n = shape.length;
  const shown = n === 0 ? [null, null] : n === 1 ? [null, 0] : [n - 2, n - 1]; // the dimension along rows and columns (null: one)
  const leading = shape.slice(0, Math.max(0, n - 2)).map((_, k) => k);
  const part = (k, d) => (k === null ? { parts: 1, part: 0 } : entryPart(mesh, spec[k] ?? null, d));
  const devices = mesh.axisSizes.reduce((a, b) => a * b, 1);
  const grids = new Map();
  for (let d = 0; d < devices; d++) {
    const lead = leading.map((k) => part(k, d).part);
    const key = lead.join(',');
    if (!grids.has(key)) {
      const [rows, cols] = shown.map((k) => part(k, d).parts);
      grids.set(key, { lead, cells: Array.from({ length: rows }, () => Array.from({ length: cols }, () => [])) });
    }
    grids.get(key).cells[part(shown[0], d).part][part(shown[1], d).part].push(d);
  }
  return [...grids.values()];
}

/** The mesh axes (of size > 1) that `spec` splits nothing over: every block is copied along them. */
function replicatedAxes(mesh, spec) {
  const used = new Set(spec.flatMap(entryAxes));
  return mesh.axisNames.filter((a, i) => !used.has(a) && mesh.axisSizes[i] > 1);
}

const CELL_H = 24;
const TITLE_H = 16;

// The grid's width and height: the array's proportions (columns over rows, as
// JAX's table), within bounds, and room for every block's label.
function gridSize(shape, cells) {
  const label = Math.max(...cells.flat().map((devs) => `dev ${devs.join(',')}`.length));
  const minW = cells[0].length * (textWidth(label) + 10);
  const minH = cells.length * CELL_H;
  if (shape.length < 2) return [Math.max(minW, 160), CELL_H + 8];
  const ratio = shape[shape.length - 1] / shape[shape.length - 2];
  const w = Math.min(300, Math.max(100, 100 * ratio));
  return [Math.max(minW, w), Math.max(minH, Math.min(160, Math.max(48, w / ratio)))];
}

// One grid's blocks at (x, y), `title` above it when there are leading dimensions.
function gridShapes(grid, x, y, w, hgt, title) {
  const { cells } = grid;
  const cw = w / cells[0].length;
  const ch = hgt / cells.length;
  return [
    title && svg('text', { class: 'grid-title', x, y: y - 4 }, title),
    cells.flatMap((row, i) =>
      row.map((devs, j) =>
        svg(
          'g',
          { class: `block${devs.length > 1 ? ' replicated' : ''}`, 'data-devices': devs.join(',') },
          svg('rect', { class: deviceClass(devs[0]), x: x + j * cw, y: y + i * ch, width: cw, height: ch }),
          svg('text', { class: 'block-label', x: x + j * cw + cw / 2, y: y + i * ch + ch / 2 + 4 }, `dev ${devs.join(',')}`),
        ),
      ),
    ),
  ];
}

// The index of a block of the leading dimensions, as Python slices: [0:4, :, :].
function leadTitle(m, shape, spec, lead) {
  const slice = (p, k) => {
    const size = shape[k] / entryPart(m, spec[k] ?? null, 0).parts;
    return `${p * size}:${(p + 1) * size}`;
  };
  return `[${[...lead.map(slice), ':', ':'].join(', ')}]`;
}

/**
 * The picture of array `name` (aval {shape, str}) laid out by `spec` on
 * `mesh` (program JSON form), `role` (e.g. "input of shard_map 1") in its
 * caption: a <figure class="array" data-name=name>.
 */
export function arrayFigure(name, aval, spec, mesh, role) {
  const m = layoutMesh(mesh);
  const { shape } = aval;
  const grids = blockGrids(m, shape, spec);
  const [w, hgt] = gridSize(shape, grids[0].cells);
  const leading = shape.length > 2;
  const top = leading ? TITLE_H : 0;
  const step = hgt + top + (leading ? 8 : 0);
  const shapes = grids.map((g, k) => gridShapes(g, 1, top + k * step + 1, w, hgt, leading && leadTitle(m, shape, spec, g.lead)));
  const type = aval.str.replace(/\{.*\}$/, ''); // the type without its varying axes
  const rep = replicatedAxes(m, spec);
  const copies = grids[0].cells[0][0].length;
  const devices = m.axisSizes.reduce((a, b) => a * b, 1);
  const notes = [
    shape.length === 0 && 'a scalar: one block',
    leading && `${shape.length}-D: drawn by its last two dimensions, one grid per block of the first ${shape.length - 2}`,
    copies === devices && devices > 1 ? 'replicated: every device holds the whole array' : rep.length ? `replicated over ${rep.join(', ')} (each block on ${copies} devices)` : 'each block on one device',
  ].filter(Boolean);
  const label = `${name}: ${type} ${specText(spec)}, ${role}; ${notes.join('; ')}`;
  const caption = [h('code', { class: 'name' }, name), ` ${type} ${specText(spec)} · ${role}`, h('br'), h('span', { class: 'note' }, notes.join('; '))];
  const fig = pictureFigure('array', label, w + 2, step * grids.length - (leading ? 8 : 0) + 2, shapes, caption);
  fig.dataset.name = name;
  return fig;
}
