// npm start: runs each collective on the 8 device threads of the wasm module
// and prints what every device holds before and after.
import { loadDevices } from '../web/lib/index.js';

const rt = await loadDevices();
const fmt = (a) => `[${Array.from(a, (v) => (Number.isInteger(v) ? v : v.toFixed(2))).join(', ')}]`;

function show(title, array, note = '') {
  console.log(`\n${title}${note ? `  (${note})` : ''}`);
  console.log(`  global ${array.dtype()}${JSON.stringify(array.shape())} ${array.spec()}`);
  for (let d = 0; d < 8; d++) console.log(`  device ${d}: ${fmt(rt.block(array, d))}`);
}

const mesh = rt.mesh([8], ['data']);
console.log(`ShardLab device runtime: ${rt.devices} device threads, ${mesh.toString()}`);
const x = rt.put(mesh, Float32Array.from({ length: 16 }, (_, i) => i), [16], ['data']);
show('x = arange(16), split over data', x);

const run = async (desc, outSpec, note, input = x) => {
  const y = await rt.collective(mesh, input, desc, outSpec);
  const args = Object.entries(desc)
    .filter(([k]) => k !== 'op')
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .join(', ');
  show(`${desc.op}(${input === x ? "x" : "v"}, ${args})`, y, note);
  y.delete();
};

await run({ op: 'psum', axisName: 'data' }, [], 'every device holds the sum of the 8 blocks');
await run({ op: 'pmean', axisName: 'data' }, [], 'psum / 8');
await run({ op: 'pmax', axisName: 'data' }, []);
await run({ op: 'pmin', axisName: 'data' }, []);
// all_gather's result is typed varying along its axis (as in JAX), so laying it out replicated needs checkVma: false.
await run({ op: 'all_gather', axisName: 'data', tiled: true, checkVma: false }, [], 'every device holds all of x');
await run({ op: 'all_gather', axisName: 'data', axis: 0, checkVma: false }, [], 'stacked: a new axis of size 8');
await run({ op: 'ppermute', axisName: 'data', perm: Array.from({ length: 8 }, (_, i) => [i, (i + 1) % 8]) }, ['data'], 'a ring shift');
await run({ op: 'ppermute', axisName: 'data', perm: [[0, 1], [2, 3]] }, ['data'], 'a partial permutation: devices that receive nothing get zeros');
await run({ op: 'axis_index', axisName: 'data' }, ['data']);

const v = rt.put(mesh, Float32Array.from({ length: 64 }, (_, i) => i % 8), [64], ['data']);
show('v = arange(64) % 8, split over data (every block is [0..7])', v);
await run({ op: 'psum_scatter', axisName: 'data', tiled: true }, ['data'], 'device d gets element d of the sum: 8*d', v);

const mesh2 = rt.mesh([2, 4], ['data', 'model']);
const m = rt.put(mesh2, Float32Array.from({ length: 8 * 4 }, (_, i) => i), [8, 4], [['data', 'model']]);
show(`m = arange(32).reshape(8, 4) on ${mesh2.toString()}, P(('data', 'model'))`, m);
const t = await rt.collective(mesh2, m, { op: 'all_to_all', axisName: 'model', splitAxis: 1, concatAxis: 0, tiled: true }, [['data', 'model']]);
show("all_to_all(m, 'model', split_axis=1, concat_axis=0, tiled=True)", t, 'each block of 1x4 becomes 4x1');
const s = await rt.collective(mesh2, m, { op: 'psum', axisName: 'model' }, ['data']);
show("psum(m, 'model') with out_specs P('data')", s, 'sums within each row of the mesh');

rt.terminate();
