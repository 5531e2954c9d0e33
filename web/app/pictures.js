// The Sharding tab: pictures drawn from the traced program (its JSON) as a
// JAX user knows them: the device mesh, every shard_map input and output and
// every program output as jax.debug.visualize_sharding draws its blocks, named
// by the argument or output key, and each collective as who sends what to whom.
// Its colours are pictures.css (imported by main.js: the test pages load this
// file as a plain module, where a CSS import fails).

import { allEquations, shardMaps } from '../checker/jaxpr_query.js';
import { frag, h } from './dom.js';
import { arrayFigure } from './array_picture.js';
import { collectiveFigure } from './collective_pictures.js';
import { meshFigure } from './mesh_picture.js';

/** The key path of every leaf of a result tree (export's outTree: {kind, keys?, children?}), in order: 'loss', 'grads.w', '[0]'; '' for a lone leaf. */
function leafNames(tree) {
  if (tree?.kind === 'leaf') return [''];
  if (!Array.isArray(tree?.children)) return [];
  return tree.children.flatMap((c, i) => {
    const key = tree.kind === 'object' ? String(tree.keys?.[i]) : `[${i}]`;
    return leafNames(c).map((rest) => (rest === '' || rest.startsWith('[') ? `${key}${rest}` : `${key}.${rest}`));
  });
}

/**
 * The pictures of a traced program (its JSON), as a fragment: its mesh, the
 * layout of every shard_map's inputs and outputs and of every output, and its
 * collectives. `argNames` name the program's inputs in order; `outTree` is the
 * result's structure (its keys name the outputs; "output i" without it).
 */
export function programPictures(program, argNames = [], outTree = null) {
  const maps = program ? shardMaps(program) : [];
  if (!maps.length) return frag(h('p', {}, 'No shard_map in the traced program: nothing is split over the devices.'));
  const mesh = maps[0].params.mesh;
  const keys = leafNames(outTree);
  const outNames = program.outvars.map((v, i) => (keys.length === program.outvars.length && keys[i] ? keys[i] : `output ${i}`));
  const argOf = new Map(program.invars.map((v, i) => [v.name, argNames[i] ?? v.name]));
  const outOf = new Map();
  program.outvars.forEach((v, i) => v.name !== undefined && !outOf.has(v.name) && outOf.set(v.name, outNames[i]));
  // An intermediate value goes by its name in the Program tab.
  const nameOf = (v) => argOf.get(v.origin ?? v.name) ?? outOf.get(v.name) ?? `${v.name} (intermediate)`;
  const fromMaps = new Set();
  const sections = maps.map((sm, k) => {
    const n = maps.length > 1 ? `shard_map ${k + 1}` : 'shard_map';
    const ins = sm.inputs.map((a, i) => arrayFigure(nameOf(a), a.aval, sm.params.in_specs[i] ?? [], sm.params.mesh, `input of ${n}`));
    const outs = sm.outputs.map((v, i) => {
      fromMaps.add(v.name);
      const role = outOf.has(v.name) ? `output of ${n} and of the program` : `output of ${n}`;
      return arrayFigure(nameOf(v), v.aval, sm.params.out_specs[i] ?? [], sm.params.mesh, role);
    });
    return h('section', { class: 'shard-map' }, h('h4', {}, n), h('h5', {}, 'Inputs'), h('div', { class: 'pictures' }, ins), h('h5', {}, 'Outputs'), h('div', { class: 'pictures' }, outs));
  });
  // The other outputs were made outside every shard_map: replicated, as the runtime lays them out (run.js: outSpecs).
  const rest = program.outvars.map((v, i) => [v, i]).filter(([v]) => v.aval && !fromMaps.has(v.name));
  const collectives = maps.flatMap((sm) => allEquations(sm.params.jaxpr).filter((e) => e.collective).map((e) => collectiveFigure(e, sm.params.mesh)));
  return frag(
    h('h4', {}, 'Mesh'),
    h('div', { class: 'pictures' }, meshFigure(mesh)),
    sections,
    rest.length ? [h('h4', {}, 'Outputs computed outside the shard_map'), h('div', { class: 'pictures' }, rest.map(([v, i]) => arrayFigure(outNames[i], v.aval, [], mesh, 'output of the program')))] : [],
    h('h4', {}, 'Collectives'),
    collectives.length ? h('div', { class: 'pictures collectives' }, collectives) : h('p', {}, 'No collective: the devices never exchange data.'),
  );
}
