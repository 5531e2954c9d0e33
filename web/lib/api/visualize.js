// A text picture of how an array's blocks sit on the devices, like
// jax.debug.visualize_array_sharding: one cell per block, naming its devices.

import { DArray } from './core/array.js';
import { ValueError } from '../errors.js';
import { devicesByBlock } from '../layout.js';

/** The blocks of a 1-D or 2-D array as a grid of the devices holding each. */
export function visualizeSharding(arr) {
  if (!(arr instanceof DArray)) throw new ValueError('visualizeSharding: expects a concrete array (not a traced value)');
  if (arr.ndim > 2) throw new ValueError(`visualizeSharding: only 1-D and 2-D arrays can be drawn, got ${arr.aval}`);
  const { mesh, spec } = arr.sharding;
  const cells = devicesByBlock(mesh, [0, 1].map((k) => (k < arr.ndim ? (spec.entries[k] ?? null) : null)));
  const label = (devs) => `dev ${devs.join(',')}`;
  const width = Math.max(...cells.flat().map((c) => label(c).length)) + 2;
  const line = (l, m, r) => l + Array(cells[0].length).fill('─'.repeat(width)).join(m) + r;
  const rows = [line('┌', '┬', '┐')];
  cells.forEach((row, i) => {
    rows.push(`│${row.map((c) => label(c).padStart(Math.floor((width + label(c).length) / 2)).padEnd(width)).join('│')}│`);
    rows.push(i === cells.length - 1 ? line('└', '┴', '┘') : line('├', '┼', '┤'));
  });
  return `${arr.aval} ${spec} on ${mesh}\n${rows.join('\n')}`;
}
