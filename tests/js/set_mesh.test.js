// jax.set_mesh from JS (setMesh): the context mesh a bare PartitionSpec is
// read against (devicePut, a shardMap without `mesh`), restored by the
// handle it returns; getAbstractMesh's axes, printed as JAX 0.11 prints an
// AbstractMesh; JAX's errors (inside a trace, a mesh that differs from the
// context's, no mesh at all); a jit traced per context mesh. Values worked out here.
import { afterEach, beforeAll, expect, test } from 'vitest';
import * as sl from '../../web/lib/index.js';

const { P, lax, np } = sl;
beforeAll(() => sl.init());
afterEach(() => sl.setMesh(null));

test('setMesh sets the context mesh and its handle restores the one before; getAbstractMesh prints as JAX', () => {
  expect(String(sl.getAbstractMesh())).toBe('AbstractMesh((), axis_types=())');
  expect(sl.getAbstractMesh().empty).toBe(true);
  const a = sl.makeMesh([4, 2], ['X', 'Y'], { axisTypes: ['Explicit', 'Explicit'] });
  const b = sl.makeMesh([8], ['i']);
  const outer = sl.setMesh(a);
  expect(String(sl.getAbstractMesh())).toBe("AbstractMesh('X': 4, 'Y': 2, axis_types=(Explicit, Explicit), device_kind=cpu, num_cores=None)");
  const inner = sl.setMesh(b);
  expect(String(sl.getAbstractMesh())).toBe("AbstractMesh('i': 8, axis_types=(Auto,), device_kind=cpu, num_cores=None)");
  inner.restore();
  expect(sl.getAbstractMesh().axisNames).toEqual(['X', 'Y']);
  outer.restore();
  expect(sl.getAbstractMesh().empty).toBe(true);
  expect(() => sl.setMesh('mesh')).toThrow(/Expected mesh of type `jax.sharding.Mesh`/);
  expect(() => sl.makeJaxpr((x) => (sl.setMesh(b), x))(1)).toThrow('`set_mesh` can only be used outside of `jax.jit`.');
});

test('a bare PartitionSpec is read against the context mesh: devicePut, and a shardMap without mesh (traced per context mesh)', async () => {
  const grid = sl.makeMesh([4, 2], ['X', 'Y']);
  const line = sl.makeMesh([8], ['X']);
  const x = np.reshape(np.arange(32), [8, 4]);
  // Each device adds its block's elements; psum over X sums the blocks along X.
  const f = sl.jit(sl.shardMap((blk) => lax.psum(np.sum(blk, 0), 'X'), { inSpecs: P('X'), outSpecs: P() }));
  const colSums = [112, 120, 128, 136]; // column sums of arange(32).reshape(8, 4)
  sl.setMesh(grid);
  const placed = sl.devicePut(x, P('X', 'Y'));
  expect(String(placed.sharding)).toBe(String(new sl.NamedSharding(grid, P('X', 'Y'))));
  expect(await (await f(x)).tolist()).toEqual(colSums); // X has 4 devices, each summing 2 rows
  sl.setMesh(line);
  expect(await (await f(x)).tolist()).toEqual(colSums); // X has 8 devices, each its row: a program of its own
  expect(() => sl.shardMap((v) => v, { mesh: grid, inSpecs: P('X'), outSpecs: P('X') })(x)).toThrow(/The context mesh AbstractMesh\('X': 8.* should match the mesh passed to shard_map/);
  sl.setMesh(null);
  await expect(async () => (await f(x)).tolist()).rejects.toThrow(/The context mesh cannot be empty. Use `jax.set_mesh\(mesh\)`/);
});

test("reshard and lax.withShardingConstraint lay values out as devicePut does, with JAX's checks; the values stay the operand's, in a jit too", async () => {
  const explicit = sl.makeMesh([4, 2], ['X', 'Y'], { axisTypes: ['Explicit', 'Explicit'] });
  const auto = sl.makeMesh([4, 2], ['X', 'Y'], { axisTypes: ['Auto', 'Auto'] });
  const x = np.reshape(np.arange(16), [8, 2]);
  const values = Array.from({ length: 8 }, (_, i) => [2 * i, 2 * i + 1]);
  // No context mesh: a PartitionSpec is refused (JAX's errors), a NamedSharding is enough.
  expect(() => sl.reshard(x, P('X'))).toThrow(/Using PartitionSpec when you are not under a mesh context is not allowed/);
  expect(() => lax.withShardingConstraint(x, P('X'))).toThrow(/with_sharding_constraint requires a non-empty mesh in context/);
  const c = lax.withShardingConstraint({ a: x }, new sl.NamedSharding(auto, P('X')));
  expect(String(c.a.sharding)).toBe(String(new sl.NamedSharding(auto, P('X'))));
  expect(await c.a.tolist()).toEqual(values);
  sl.setMesh(explicit);
  const r = sl.reshard(x, P('X', 'Y'));
  expect(String(r.sharding)).toBe(String(new sl.NamedSharding(explicit, P('X', 'Y'))));
  expect(await r.tolist()).toEqual(values);
  expect(await (await sl.jit((v) => sl.reshard(np.multiply(v, 2), P('X')))(r)).tolist()).toEqual(values.map((row) => row.map((v) => 2 * v)));
  expect(() => sl.reshard(x, null)).toThrow(/Reshard should only be used with out_shardings which are non-None/);
  sl.setMesh(auto);
  expect(() => sl.reshard(x, P('X'))).toThrow("PartitionSpec passed to reshard cannot contain axis names that are of type Auto or Manual. Got PartitionSpec: P('X') with axis name: X of type: Auto.");
});
