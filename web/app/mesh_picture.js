// The device mesh as a grid of device ids: rows along the first axis, columns
// along the last, each axis's name and size on its side (devices numbered
// row-major, as layout.js and the core number them). A mesh of more than two
// axes has one row per coordinate of all but its last axis.

import { svg } from './dom.js';
import { deviceClass, meshText, pictureFigure, textWidth } from './figure.js';

const CELL_W = 40;
const CELL_H = 32;

/** The picture of `mesh` (program JSON form: {axis_names, shape}): a <figure class="mesh">. */
export function meshFigure(mesh) {
  const names = mesh.axis_names;
  const sizes = mesh.shape;
  const cols = sizes.at(-1) ?? 1;
  const rowAxes = names.slice(0, -1);
  const rows = sizes.slice(0, -1).reduce((a, b) => a * b, 1);
  // A row's coordinates along every axis but the last: "data=1".
  const rowLabel = (r) => {
    let rest = r;
    const coords = sizes.slice(0, -1).map((_, i, all) => {
      const stride = all.slice(i + 1).reduce((a, b) => a * b, 1);
      const c = Math.floor(rest / stride);
      rest %= stride;
      return `${rowAxes[i]}=${c}`;
    });
    return coords.join(',');
  };
  const left = rowAxes.length ? Math.max(...Array.from({ length: rows }, (_, r) => textWidth(rowLabel(r).length))) + 8 : 0;
  const top = 34;
  const width = Math.max(left + cols * CELL_W, textWidth(`${names.at(-1)} = ${cols}`.length + 2)) + 2;
  const height = top + rows * CELL_H + 2;
  const cells = Array.from({ length: rows }, (_, r) =>
    Array.from({ length: cols }, (_, c) => {
      const d = r * cols + c;
      const [x, y] = [left + c * CELL_W, top + r * CELL_H];
      return svg(
        'g',
        { class: 'device', 'data-device': d },
        svg('rect', { class: deviceClass(d), x, y, width: CELL_W, height: CELL_H }),
        svg('text', { class: 'device-id', x: x + CELL_W / 2, y: y + CELL_H / 2 + 5 }, String(d)),
      );
    }),
  );
  const colIndex = Array.from({ length: cols }, (_, c) => svg('text', { class: 'tick', x: left + c * CELL_W + CELL_W / 2, y: top - 4 }, String(c)));
  const rowIndex = rowAxes.length ? Array.from({ length: rows }, (_, r) => svg('text', { class: 'tick row', x: left - 6, y: top + r * CELL_H + CELL_H / 2 + 4 }, rowLabel(r))) : [];
  const axisTitle = svg('text', { class: 'axis-name', x: left + (cols * CELL_W) / 2, y: 13 }, `${names.at(-1)} = ${cols} →`);
  const label = `Device mesh ${meshText(mesh)}: ${rows * cols} devices numbered row-major; ${Array.from({ length: rows }, (_, r) => `${rowAxes.length ? `${rowLabel(r)}: ` : ''}devices ${Array.from({ length: cols }, (_, c) => r * cols + c).join(', ')}`).join('; ')}`;
  const caption = `Mesh ${meshText(mesh)}: ${rows * cols} devices${rowAxes.length ? `; rows along ${rowAxes.join(' × ')}, columns along ${names.at(-1)}` : ''}`;
  return pictureFigure('mesh', label, width, height, [axisTitle, colIndex, rowIndex, cells], caption);
}
