// A text picture of how an array's blocks sit on the devices, as
// jax.debug.visualize_array_sharding draws it on a terminal without colors
// (jax/_src/debugging.py's visualize_sharding: a rich table, box SQUARE, one
// cell per block naming its devices, sized from the array's shape).

import { DArray } from './core/array.js';
import { ValueError } from '../errors.js';
import { devicesByBlock } from '../layout.js';

// Python's divmod (floored), as JAX's paddings compute.
const divmod = (a, b) => [Math.floor(a / b), a - b * Math.floor(a / b)];

/**
 * The blocks of a 1-D or 2-D array as JAX's table: a cell per block, "CPU"
 * and the devices holding it, each cell's width int(w · base · 2.5) clamped to
 * [minWidth, maxWidth] and its height int(h · 10 · scale) lines (one for a
 * 1-D array), w and h the block's fraction of the array, base int(10 · scale
 * · columns / rows of the array). visualizeSharding(arr, options) draws a
 * concrete array (jax.debug.visualize_array_sharding), visualizeSharding(shape,
 * sharding, options) an array of `shape` laid out by `sharding` (jax.debug.visualize_sharding).
 */
export function visualizeSharding(x, ...rest) {
  const [shape, sharding, { scale = 1, minWidth = 9, maxWidth = 80 } = {}] = x instanceof DArray ? [x.shape, x.sharding, ...rest] : [x, ...rest];
  if (!(x instanceof DArray) && !(Array.isArray(x) && sharding?.spec)) {
    throw new ValueError('visualizeSharding: expects a concrete array (not a traced value), or a shape and a NamedSharding');
  }
  if (shape.length < 1 || shape.length > 2) throw new ValueError('`visualize_sharding` only works for shapes with 1 and 2 dimensions.');
  const { mesh, spec } = sharding;
  const ndim = shape.length;
  // A 1-D array is one row of blocks along its axis.
  const grid = devicesByBlock(mesh, ndim === 1 ? [null, spec.entries[0] ?? null] : [spec.entries[0] ?? null, spec.entries[1] ?? null]);
  const [rows, cols] = [grid.length, grid[0].length];
  const baseHeight = Math.trunc(10 * scale);
  const baseWidth = Math.trunc(baseHeight * ((ndim === 2 ? shape[1] : 1) / shape[0]));
  const cells = grid.map((row) =>
    row.map((devices) => {
      const entry = `CPU ${devices.join(',')}`;
      const width = Math.min(Math.max(Math.trunc((1 / cols) * baseWidth * 2.5), minWidth), maxWidth);
      const height = ndim === 1 ? 1 : Math.trunc((1 / rows) * baseHeight);
      const [left, lr] = divmod(width - entry.length - 2, 2);
      const [top, tr] = divmod(height - 2, 2);
      return { entry, left: Math.max(left, 0), right: Math.max(left + lr, 0), top: Math.max(top, 0), bottom: Math.max(top + tr, 0) };
    }),
  );
  const widths = Array.from({ length: cols }, (_, j) => Math.max(...cells.map((row) => row[j].left + row[j].entry.length + row[j].right)));
  const rule = (l, m, r) => l + widths.map((w) => '─'.repeat(w)).join(m) + r;
  const lines = [rule('┌', '┬', '┐')];
  cells.forEach((row, i) => {
    const height = Math.max(...row.map((c) => c.top + 1 + c.bottom));
    for (let k = 0; k < height; k++) {
      const text = row.map((c, j) => {
        if (k !== c.top) return ' '.repeat(widths[j]);
        const inner = widths[j] - c.left - c.right; // the entry centered in what the padding leaves
        const before = Math.floor((inner - c.entry.length) / 2);
        return ' '.repeat(c.left + before) + c.entry + ' '.repeat(inner - before - c.entry.length + c.right);
      });
      lines.push(`│${text.join('│')}│`);
    }
    lines.push(i === rows - 1 ? rule('└', '┴', '┘') : rule('├', '┼', '┤'));
  });
  return lines.join('\n');
}
