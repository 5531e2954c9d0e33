// npm start -- --devices: every jax.lax parallel function in the core's
// registry (laxFunctions()) run on the 8 device threads of the wasm module,
// printing what every device holds before and after, and in words what the
// group computes (the program JSON's traffic). No collective is named here:
// a new one in the registry is demonstrated with no line of its own.
import { loadDevices } from '../web/lib/index.js';

const rt = await loadDevices();
const fmt = (a) => `[${Array.from(a, (v) => (Number.isInteger(v) ? v : v.toFixed(2))).join(', ')}]`;

function show(title, array, note = '') {
  console.log(`\n${title}${note ? `  (${note})` : ''}`);
  console.log(`  global ${array.dtype()}${JSON.stringify(array.shape())} ${array.spec()}`);
  for (let d = 0; d < rt.devices; d++) console.log(`  device ${d}: ${fmt(rt.block(array, d))}`);
}

const n = rt.devices;
const mesh = rt.mesh([n], ['data']);
console.log(`ShardLab device runtime: ${n} device threads, ${mesh.toString()}`);
const x = rt.put(mesh, Float32Array.from({ length: n * n }, (_, i) => i), [n * n], ['data']);
show(`x = arange(${n * n}), split over data: a block of ${n} on each device`, x);

// A value for each required argument, by its type in the registry: the axis,
// axis 0 of the block (which every split and concatenation divides), a ring
// for a permutation; an argument of another type leaves the function out.
// tiled=True where a function takes it, so each result keeps the block's rank.
const example = { 'list of axis names': 'data', int: 0, 'list of int lists': Array.from({ length: n }, (_, i) => [i, (i + 1) % n]) };
const camel = (s) => s.replace(/_(\w)/g, (_, c) => c.toUpperCase());

// What the group computes, from the collective equation's traffic in the
// program's JSON (named by its primitive when the function is made of others,
// as pmean is of a psum).
function computes(program, f) {
  const find = (p) => p.eqns.flatMap((e) => (e.traffic ? [e] : Object.values(e.params ?? {}).filter((v) => v?.eqns).flatMap(find)));
  const [eqn] = find(JSON.parse(program.toJSON()));
  if (!eqn) return '';
  return eqn.primitive === f.primitive ? eqn.traffic.computes : `its ${eqn.primitive}: ${eqn.traffic.computes}`;
}

for (const f of rt.traces.laxFunctions()) {
  const required = f.args.filter((a) => !a.optional);
  if (required.some((a) => !(a.type in example))) continue;
  const tiled = f.args.some((a) => a.name === 'tiled');
  const desc = { op: f.name, checkVma: false, ...Object.fromEntries(required.map((a) => [camel(a.name), example[a.type]])), ...(tiled && { tiled: true }) };
  const args = [...required.slice(1).map((a) => `${a.name}=${JSON.stringify(example[a.type])}`), ...(tiled ? ['tiled=True'] : [])];
  const program = rt.collectiveProgram(mesh, x, desc, ['data']);
  const note = computes(program, f);
  program.delete();
  // Laid out along data (check_vma=False), so each device's own result shows, replicated or not.
  const y = await rt.collective(mesh, x, desc, ['data']);
  show(`${f.name}(${[...(f.takesOperands ? ['x'] : []), "'data'", ...args].join(', ')})`, y, note);
  y.delete();
}

rt.terminate();
