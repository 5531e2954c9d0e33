// Type-checked (never run) against web/lib/index.d.ts by `tsc --noEmit`:
// the declarations must accept the documented API and reject misuse.
import * as sl from '../../web/lib/index.js';

async function main(): Promise<void> {
  const info = await sl.init({ devices: 8, memoryMB: 256, executor: 'auto' });
  // @ts-expect-error: what runs the programs is the executor option
  await sl.init({ threads: false });
  const n: number = info.devices + sl.deviceCount() + sl.memoryStats().inUse;
  const mesh: sl.Mesh = sl.makeMesh([2, 4], ['data', 'model'], { axisTypes: ['Auto', 'Auto'] });
  const { P, np, lax, nn } = sl;
  const spec: sl.PartitionSpec = P('data', null);
  const x: sl.Array = sl.devicePut(sl.array([[1, 2], [3, 4]]), new sl.NamedSharding(mesh, spec));
  const shape: number[] = x.shape;
  const data: Float32Array | Int32Array | Uint32Array = await x.data();
  const blocks = x.addressableShards.map((s) => s.index);
  const step = sl.jit((w: sl.Tracer, lr: number) =>
    sl.shardMap((w: sl.Tracer) => lax.pmean(w.matmul(w.T).sum(), 'data'), { mesh, inSpecs: P('data'), outSpecs: P() })(w).mul(lr),
  );
  const out: Promise<any> = step(x as unknown as sl.Tracer, 0.1);
  const text: string = sl.makeJaxpr((a: sl.Tracer) => nn.relu(np.add(a, 1)))(x).toString();
  const json: sl.JaxprJSON = sl.makeJaxpr((a: sl.Tracer) => a)(new sl.ShapeDtypeStruct([2, 2])).toJSON();
  const [value, grads] = sl.valueAndGrad((a: sl.Tracer) => a.sum(), { argnums: [0] })(x);
  const perExample = sl.vmap(sl.grad((a: sl.Tracer, r: sl.Tracer) => np.sum(np.multiply(a, r))), { inAxes: [null, 0] })(x, x);
  const jac = sl.jacrev((a: sl.Tracer) => np.square(a), { argnums: 0 })(x);
  const eye = np.eye(3, null, 1, 'int32');
  const pieces: sl.Tracer[] | any[] = np.split(np.tril(np.linspace(0, 1, 4)), 2);
  const spread = np.std(x, { axis: 0, ddof: 1 });
  const loop = sl.lax.whileLoop((c: sl.Tracer) => np.less(c, 10), (c: sl.Tracer) => np.multiply(c, 2), x);
  const hot = nn.oneHot(x, 3, { dtype: 'int32' });
  const row: sl.Array = x.at(0, sl.slice(1, null, -1), null, '...').get({ mode: 'clip' });
  const updated: sl.Array = x.at([0, 2]).add(1, { mode: 'drop' });
  const taken = np.take(x, [1, 0], { axis: 0 });
  const contracted = np.einsum('ij,jk->ik', x, x);
  const order = np.argsort(x, { descending: true });
  const size = np.linalg.norm(x, { ord: 'fro' });
  const [rows] = np.where(x);
  const top = np.max(x, { axis: 0, initial: 0 });
  const [k1, k2] = [sl.random.split(sl.random.key(0)), sl.random.PRNGKey(1)];
  const noise = sl.random.normal(k2, [3]);
  const keyShape: number[] = k1.shape;
  // @ts-expect-error: modes are JAX's names
  x.at(0).set(1, { mode: 'wrap' });
  sl.cancel();
  // @ts-expect-error: oneHot needs the number of classes
  nn.oneHot(x);
  // @ts-expect-error: in_axes are integers or null
  sl.vmap((a: sl.Tracer) => a, { inAxes: 'rows' });
  const picture: string = sl.visualizeSharding(x);
  x.dispose();
  try {
    np.sum(x, { axis: 1, keepdims: true });
  } catch (e) {
    if (e instanceof sl.ShapeError || e instanceof sl.ConcretizationError) console.log(e.message);
  }
  // @ts-expect-error: dtypes are 'float32' | 'int32' | 'bool'
  sl.array([1], { dtype: 'float64' });
  // @ts-expect-error: shardMap needs its inSpecs (its mesh may be setMesh's)
  sl.shardMap((a: sl.Tracer) => a, { outSpecs: P() });
  sl.setMesh(sl.makeMesh([8], ['i'])).restore();
  sl.lax.withShardingConstraint({ a: x }, { a: P('i') });
  const exported: sl.Exported = sl.export.export((a: sl.Tracer) => a.sum())(new sl.ShapeDtypeStruct([4]));
  const again = sl.export.deserialize(await exported.serialize(), { limits: { maxEquations: 100 } });
  const summed = await again.call(sl.array([1, 2, 3, 4]));
  // @ts-expect-error: limits are numbers
  sl.export.deserialize('{}', { limits: { maxEquations: 'many' } });
  sl.shutdown();
  console.log(n, shape, data, blocks, out, text, json.eqns.length, value, grads, picture, summed, again.inAvals, perExample, jac, eye, pieces, spread, loop, hot, row, updated, taken, contracted, order, size, rows, top, noise, keyShape);
}
void main;
