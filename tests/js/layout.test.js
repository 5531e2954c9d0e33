// The JS layout rule (web/lib/layout.js) against the core's (Layout in
// cpp/runtime/partition_spec.h): for every device of a 2x4 mesh and every way
// of splitting an 8x8 array, the block the core stores on the device is the
// slice of the global array that blockIndex names; devicesByBlock lists each
// device under the block it holds.
import { beforeAll, expect, test } from 'vitest';
import * as sl from '../../web/lib/index.js';
import { blockIndex, devicesByBlock } from '../../web/lib/layout.js';

const { P } = sl;

beforeAll(async () => {
  await sl.init();
});

const SPECS = [P(), P('data'), P('model'), P(null, 'model'), P('data', 'model'), P('model', 'data'), P(['data', 'model']), P(['model', 'data']), P(null, ['model', 'data'])];

test.each(SPECS.map((s) => [String(s), s]))('%s: each device holds the block blockIndex names', async (_, spec) => {
  const mesh = sl.makeMesh([2, 4], ['data', 'model']);
  const global = Float32Array.from({ length: 64 }, (_, i) => i);
  const x = sl.devicePut(sl.array(global, { shape: [8, 8] }), new sl.NamedSharding(mesh, spec));
  await x.blockUntilReady();
  const grid = devicesByBlock(mesh, [spec.entries[0] ?? null, spec.entries[1] ?? null]);
  for (const shard of x.addressableShards) {
    const [[r0, r1], [c0, c1]] = blockIndex(mesh, [8, 8], spec.entries, shard.device);
    const want = [];
    for (let r = r0; r < r1; r++) for (let c = c0; c < c1; c++) want.push(r * 8 + c);
    expect([...shard.data]).toEqual(want);
    const rows = grid.length;
    const cols = grid[0].length;
    expect(grid[r0 / (8 / rows)][c0 / (8 / cols)]).toContain(shard.device);
  }
  expect(grid.flat(2).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  x.dispose();
});
