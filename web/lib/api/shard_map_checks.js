// shard_map's checks of its specs against its inputs and outputs, before the
// core sees them, with JAX 0.11's messages (shard_map.py's _spec_rank_error,
// _spec_divisibility_error and _inout_vma_error): the function's name, and
// for each value that fails, its path, its spec's path, its type and why.
// Paths are keystr's ('[0]', "['w']"), given by a function called only for a
// message: paths()[i] is {spec, value}, the key paths of value i's spec and
// of the value (a front end that flattens trees itself passes its own).

import { ShardingError, ValueError, VmaError } from '../errors.js';
import { avalString } from './core/tracer.js';
import { pyTuple } from './core/python_text.js';

// A spec as JAX's messages print it: P('x',), P('x', None).
const specText = (spec) => `P${pyTuple(spec.entries)}`;

// A value's type as JAX's str_short prints it: float32[8,8], float32[2]{V:x}.
const typeText = (v) => avalString({ dtype: v.dtype, shape: v.shape, vma: v.vma ?? [] }, { short: false });

// One line per failure, JAX's bullets, the bullet dropped when there is only one.
const bullets = (msgs) => (msgs.length === 1 ? [msgs[0].slice(2)] : msgs).join('\n\n');

/**
 * A spec longer than its value's rank (JAX's _spec_rank_error): `kind` is
 * 'in' (the arguments) or 'out' (the body's results).
 */
export function checkSpecRanks(kind, fnName, specs, values, paths) {
  const fails = values.map((v, i) => (specs[i] && specs[i].length > v.ndim ? i : -1)).filter((i) => i >= 0);
  if (!fails.length) return;
  const base = kind === 'in' ? 'the passed args' : `${fnName}(*args)`;
  const msgs = fails.map((i) => {
    const v = values[i];
    return `* ${kind}_specs${paths()[i].spec} is ${specText(specs[i])} which has length ${specs[i].length}, but ${base}${paths()[i].value} has shape ${typeText(v)}, which has rank ${v.ndim} (and ${v.ndim} < ${specs[i].length})`;
  });
  let msg =
    `shard_map applied to the function '${fnName}' was given an ${kind}_specs entry which is too long to be compatible with the corresponding ${kind}put value from the function:\n\n` +
    `${bullets(msgs)}\n\nEntries in ${kind}_specs must be of length no greater than the number of axes in the corresponding ${kind}put value.\n\n` +
    `Either revise the spec to be shorter, or modify '${fnName}' so that its ${kind}puts have sufficient rank.`;
  if (fails.some((i) => values[i].ndim === 0)) {
    msg += `\n\nFor scalar values (rank 0), consider using an ${kind}_specs entry of \`P()\`, where \`P = jax.sharding.PartitionSpec\`.`;
  }
  throw new ShardingError(msg);
}

/** An argument dimension its spec splits over mesh axes whose total size does not divide it (JAX's _spec_divisibility_error). */
export function checkDivisible(fnName, mesh, specs, values, paths) {
  const msgs = [];
  values.forEach((v, i) => {
    if (!specs[i]) return;
    specs[i].entries.forEach((entry, d) => {
      if (entry === null) return;
      const names = Array.isArray(entry) ? entry : [entry];
      if (!names.every((a) => mesh.axisNames.includes(a))) return; // the core names an unknown axis
      const size = names.reduce((n, a) => n * mesh.axisSize(a), 1);
      if (v.shape[d] % size === 0) return;
      const axis = names.length > 1 ? `axes ${pyTuple(names)}` : `axis '${names[0]}'`;
      msgs.push(
        `* the passed args${paths()[i].value} of shape ${typeText(v)} corresponds to in_specs${paths()[i].spec} of value ${specText(specs[i])}, which maps array axis ${d} (of size ${v.shape[d]}) to mesh ${axis} (of ${names.length > 1 ? 'total ' : ''}size ${size}), but ${size} does not evenly divide ${v.shape[d]}`,
      );
    });
  });
  if (!msgs.length) return;
  throw new ShardingError(
    `shard_map applied to the function '${fnName}' was given argument arrays with axis sizes that are not evenly divisible by the corresponding mesh axis sizes:\n\n` +
      `The mesh given has shape ${pyTuple(mesh.axisSizes)} with corresponding axis names ${pyTuple(mesh.axisNames)}.\n\n${bullets(msgs)}\n\n` +
      "Array arguments' axis sizes must be evenly divisible by the mesh axis or axes indicated by the corresponding elements of the argument's in_specs entry. " +
      `Consider checking that in_specs are correct, and if so consider changing the mesh axis sizes or else padding the input and adapting '${fnName}' appropriately.`,
  );
}

/**
 * JAX's check of check_vma (shard_map's _inout_vma_error): an output may vary
 * only along the mesh axes its out_specs entry mentions. Before the core's
 * own check, with JAX's message: the function, the mesh, and for each output
 * that fails, its out_specs entry and the axes it varies along.
 */
export function checkOutputVma(fnName, mesh, specs, outs, paths) {
  const byMesh = (axes) => mesh.axisNames.filter((a) => axes.includes(a));
  const failed = new Map(); // spec path -> its line: a spec failing for several outputs is said once
  const outputs = []; // after JAX's text, which outputs vary where (JAX's message names the spec only)
  for (let i = 0; i < outs.length; i++) {
    const vma = outs[i].vma;
    const mentioned = specs[i].axes();
    const extra = vma.filter((a) => !mentioned.includes(a));
    if (!extra.length) continue;
    outputs.push(`Output ${i} (${outs[i].aval}) has out_specs ${specs[i]} but varies along mesh axis ${extra.map((a) => `'${a}'`).join(', ')}.`);
    if (failed.has(paths()[i].spec)) continue;
    const unmentioned = mesh.axisNames.filter((a) => !mentioned.includes(a));
    const head = `* out_specs${paths()[i].spec} is ${specText(specs[i])} which implies that the corresponding output value is`;
    failed.set(
      paths()[i].spec,
      unmentioned.length > 1
        ? `${head} only varying across mesh axes {${byMesh(mentioned).join(',')}} and not {${byMesh(extra).join(',')}}, but it was inferred to be possibly varying over {${byMesh(vma).join(',')}}`
        : `${head} replicated across mesh axis '${unmentioned[0]}', but could not infer replication over any axes`,
    );
  }
  if (!failed.size) return;
  throw new VmaError(
    `shard_map applied to the function '${fnName}' was given out_specs which require replication which can't be statically inferred given the mesh:\n\n` +
      `The mesh given has shape ${pyTuple(mesh.axisSizes)} with corresponding axis names ${pyTuple(mesh.axisNames)}.\n\n${bullets([...failed.values()])}\n\n` +
      'Check if these output values are meant to be replicated over those mesh axes. If not, consider revising the corresponding out_specs entries. If so, consider disabling the check by passing the check_vma=False argument to `jax.shard_map`.' +
      `\n\n${outputs.join('\n')}`,
  );
}

// Over Explicit mesh axes shardMap does not reshard, as in JAX 0.11: an input
// whose sharding is known (a jit argument, a shard_map or devicePut result)
// must already be split as its in_spec says; a value computed by other
// operations has no known sharding here and is not checked.
export function checkInputSpec(v, spec) {
  if (!v.spec) return;
  const want = spec.normalized(v.ndim);
  const have = v.spec.normalized(v.ndim);
  if (String(want) === String(have)) return;
  throw new ValueError(
    `in_specs passed to shard_map: ${want} does not match the specs of the input: ${have} for arg: ${v.dtype}[${v.shape}]. ` +
      '`in_specs` is an optional argument so you can omit specifying it and shard_map will infer the in_specs from the arguments. ' +
      'If you want to reshard your inputs, you can use `jax.reshard` on the arguments and then pass those args to shard_map. ' +
      "(The mesh's axes are Explicit, so shard_map does not split plain inputs; a mesh made with axis types Auto, " +
      "e.g. jax.make_mesh(shape, names, axis_types=(AxisType.Auto,)), lets it.)",
  );
}
