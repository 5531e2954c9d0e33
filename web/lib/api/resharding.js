// Laying values out by a sharding named in the program (jax.lax.with_sharding_constraint,
// jax.reshard): each resolves its shardings as JAX does (a PartitionSpec read
// against jax.set_mesh's mesh, with JAX's errors), then lays concrete values
// out as devicePut does. Inside a trace, jax.reshard is a `reshard` equation
// that types its result with the new sharding (sharding in types);
// with_sharding_constraint is an identity shard_map that splits the value (a
// hint to a partitioner ShardLab does not have yet).

import { ShardLabError, ValueError } from '../errors.js';
import { isLeafValue } from './core/run.js';
import { traced, traceFor } from './core/operands.js';
import { currentTrace } from './core/state.js';
import { broadcastPrefix, flatten, unflatten } from './core/tree.js';
import { contextMesh, getAbstractMesh, isSpec, NamedSharding, P } from './mesh.js';
import { devicePut } from './transforms.js';

const isShardingOrNull = (s) => s === null || s instanceof NamedSharding || isSpec(s);

// x's leaves laid out by `shardings` (a tree prefix of x's), each resolved by resolve(s).
function laidOut(x, shardings, what, resolve) {
  const { def } = flatten(x, isLeafValue);
  const given = broadcastPrefix(shardings ?? null, def, isShardingOrNull, what);
  return devicePut(x, unflatten(def, given.map(resolve)));
}

/**
 * jax.lax.with_sharding_constraint(x, shardings): x's arrays laid out as
 * `shardings` says (a tree prefix of NamedShardings, or of PartitionSpecs,
 * or null for replicated, on the context mesh).
 */
export function withShardingConstraint(x, shardings) {
  return laidOut(x, shardings, 'with_sharding_constraint shardings', (s) => {
    if (s instanceof NamedSharding) return s;
    const mesh = contextMesh();
    if (!mesh) {
      throw new ShardLabError(
        'with_sharding_constraint requires a non-empty mesh in context if you are passing `PartitionSpec`s to shardings. ' +
          'You can define a context mesh via `jax.set_mesh(mesh)`. Alternatively, provide `Sharding`s to shardings and then the mesh context manager is not required.',
      );
    }
    return new NamedSharding(mesh, s ?? P());
  });
}

/**
 * jax.reshard(x, outShardings): x's arrays laid out as `outShardings` says
 * (NamedShardings or PartitionSpecs on the context mesh), which name only
 * Explicit mesh axes, as JAX requires.
 */
export function reshard(x, outShardings) {
  const resolve = (s) => {
    if (s === null) throw new ValueError('Reshard should only be used with out_shardings which are non-None and have a non-empty mesh. Got sharding None.');
    const mesh = contextMesh();
    if (isSpec(s) && !mesh) {
      throw new ValueError(`Using PartitionSpec when you are not under a mesh context is not allowed. Please pass a NamedSharding instance or enter into a mesh context via \`jax.set_mesh\`. Got ${s}`);
    }
    const sharding = isSpec(s) ? new NamedSharding(mesh, s) : s;
    const m = sharding.mesh;
    const allAuto = (types) => types.every((t) => t === 'Auto');
    if (mesh && mesh !== m && !(allAuto(m.axisTypes) && allAuto(mesh.axisTypes)) && (mesh.key !== m.key || mesh.axisTypes.join() !== m.axisTypes.join())) {
      throw new ValueError(`Context mesh ${getAbstractMesh()} should match the mesh of sharding ${m} passed to reshard.`);
    }
    for (const a of sharding.spec.axes()) {
      const type = m.axisTypes[m.axisNames.indexOf(a)];
      if (type !== 'Explicit') {
        throw new ValueError(`PartitionSpec passed to reshard cannot contain axis names that are of type Auto or Manual. Got PartitionSpec: ${sharding.spec} with axis name: ${a} of type: ${type}.`);
      }
    }
    return sharding;
  };
  if (!currentTrace()) return laidOut(x, outShardings, 'reshard out_shardings', resolve);
  const { leaves, def } = flatten(x, isLeafValue);
  const given = broadcastPrefix(outShardings ?? null, def, isShardingOrNull, 'reshard out_shardings');
  const t = traceFor('reshard');
  return unflatten(
    def,
    leaves.map((leaf, i) => {
      const sharding = resolve(given[i]);
      const v = traced(t, leaf, 'reshard');
      return t.emit('reshard', { dst_sharding: sharding.coreSharding(v.ndim) }, [v.atomIn(t)])[0];
    }),
  );
}
