// Reference solution: one devicePut per PartitionSpec on a 2x4 mesh.
import * as sl from 'shardlab';

const { P } = sl;

export default function place(x) {
  const mesh = sl.makeMesh([2, 4], ['data', 'model']);
  const on = (spec) => sl.devicePut(x, new sl.NamedSharding(mesh, spec));
  return {
    rows: on(P('data')),
    cols: on(P(null, 'model')),
    grid: on(P('data', 'model')),
    flat: on(P(['data', 'model'])),
    replicated: on(P()),
  };
}
