// Sharding in types from JS: arrays placed over Explicit mesh axes give their
// traced values typed shardings (printed as JAX 0.11 prints them, f32[8@X,4]),
// every operation types its result by JAX's rules or throws JAX's
// ShardingTypeError, a jit is traced per input sharding, its outputs come
// back laid out as their types say, outSharding settles a contraction, and
// reshard inside a trace retypes. Types from docs.jax.dev's 201 page
// (docs/new_docs/201/sharding.md at jax-v0.11.0); values worked out here.
import { afterEach, beforeAll, expect, test } from 'vitest';
import * as sl from '../../web/lib/index.js';

const { P, np, lax } = sl;
beforeAll(() => sl.init());
afterEach(() => sl.setMesh(null));

const explicitGrid = () => sl.makeMesh([4, 2], ['X', 'Y'], { axisTypes: ['Explicit', 'Explicit'] });
const range = (n) => Array.from({ length: n }, (_, i) => i);
// arange(r * c) as a float32 r x c matrix.
const mat = (r, c) => sl.array(range(r).map((i) => range(c).map((j) => i * c + j)), { dtype: 'float32' });

test('traced values carry their Explicit shardings; Auto axes never appear in a type', async () => {
  const grid = explicitGrid();
  const x = sl.devicePut(mat(8, 4), new sl.NamedSharding(grid, P('X', 'Y')));
  expect(x.aval).toBe('f32[8@X,4@Y]');
  const types = [];
  await sl.jit((v) => {
    const y = np.transpose(np.sin(v));
    types.push(v.aval, y.aval, np.sum(v, 0).aval, np.multiply(v, 2).aval);
    return y;
  })(x);
  expect(types).toEqual(['f32[8@X,4@Y]', 'f32[4@Y,8@X]', 'f32[4@Y]', 'f32[8@X,4@Y]']);
  const auto = sl.makeMesh([4, 2], ['X', 'Y']);
  const a = sl.devicePut(np.ones([8, 4]), new sl.NamedSharding(auto, P('X', 'Y')));
  expect(a.aval).toBe('f32[8,4]');
  expect(String(sl.makeJaxpr((v) => np.sin(v))(x))).toBe('{ lambda ; a:f32[8@X,4@Y]. let b:f32[8@X,4@Y] = sin a in (b,) }');
});

test('results are laid out as their types say, eagerly and from a jit', async () => {
  const grid = explicitGrid();
  sl.setMesh(grid);
  const x = sl.devicePut(mat(8, 4), P('X', 'Y'));
  const y = await np.transpose(np.multiply(x, 2)).blockUntilReady(); // eager: one operation at a time
  expect(y.aval).toBe('f32[4@Y,8@X]');
  expect(String(y.sharding.spec)).toBe("P('Y', 'X')");
  const shards = y.addressableShards;
  // Device 1 is X=0, Y=1: rows 2..3 of the transpose (Y's second half), columns 0..1 (X's first quarter).
  expect(shards[1].index).toEqual([[2, 4], [0, 2]]);
  expect([...shards[1].data]).toEqual([4, 12, 6, 14]);
  const f = sl.jit((v) => np.sum(np.multiply(v, v), 0));
  const s = await f(x);
  expect(String(s.sharding.spec)).toBe("P('Y')");
  const want = range(4).map((c) => range(8).reduce((acc, r) => acc + (4 * r + c) ** 2, 0));
  expect(await s.tolist()).toEqual(want);
});

test('a jit is traced per input sharding: the same shapes sharded otherwise are another program', async () => {
  const grid = explicitGrid();
  let traces = 0;
  const f = sl.jit((v) => {
    traces += 1;
    return np.sin(v);
  });
  const base = np.ones([8, 4]);
  await f(sl.devicePut(base, new sl.NamedSharding(grid, P('X'))));
  await f(sl.devicePut(base, new sl.NamedSharding(grid, P('X'))));
  expect(traces).toBe(1);
  expect((await f(sl.devicePut(base, new sl.NamedSharding(grid, P(null, 'Y'))))).aval).toBe('f32[8,4@Y]');
  expect(traces).toBe(2);
});

test("JAX's errors where the types do not combine, as ShardingTypeError; outSharding settles a contraction", async () => {
  const grid = explicitGrid();
  sl.setMesh(grid);
  const x = sl.devicePut(mat(8, 4), P(null, 'X'));
  const y = sl.devicePut(mat(4, 16), P('X', null));
  expect(() => np.dot(x, y)).toThrow(sl.ShardingTypeError);
  expect(() => np.matmul(x, y)).toThrow(
    "Contracting dimensions are sharded and it is ambiguous how the output should be sharded. Please specify the output sharding via the `out_sharding` parameter. Got lhs_contracting_spec=('X',) and rhs_contracting_spec=('X',)",
  );
  const a = sl.devicePut(np.ones([4, 4]), P('X', null));
  const b = sl.devicePut(np.ones([4, 4]), P(null, 'X'));
  expect(() => np.add(a, b)).toThrow('add operation with inputs: f32[4@X,4], f32[4,4@X] produces an illegally sharded result: f32[4@X,4@X]');
  const c = sl.devicePut(np.ones([4, 4]), P('Y', null));
  expect(() => np.multiply(a, c)).toThrow("mul got incompatible shardings for broadcasting: ('X', None), ('Y', None).");
  for (const z of [np.dot(x, y, { outSharding: P('X', null) }), np.matmul(x, y, { outSharding: P('X') }), lax.dotGeneral(x, y, [[[1], [0]], [[], []]], { outSharding: P('X') })]) {
    expect(z.aval).toBe('f32[8@X,16]');
    expect(String(z.sharding.spec)).toBe("P('X', None)");
    const rows = await z.tolist();
    expect(rows[7][15]).toBe(range(4).reduce((acc, k) => acc + (28 + k) * (16 * k + 15), 0));
  }
});

test('reshard inside a jit is a typed reshard equation, and a gradient is typed as its primal', async () => {
  const grid = explicitGrid();
  sl.setMesh(grid);
  const x = sl.devicePut(mat(8, 4), P(null, 'X'));
  const f = (v) => np.multiply(sl.reshard(v, P(null, 'Y')), 2);
  expect(String(sl.makeJaxpr(f)(x))).toBe('{ lambda ; a:f32[8,4@X]. let\n    b:f32[8,4@Y] = reshard a\n    c:f32[8,4@Y] = mul b 2.0:f32[]\n  in (c,) }');
  const w = await sl.jit(f)(x);
  expect(String(w.sharding.spec)).toBe("P(None, 'Y')");
  const g = sl.grad((v) => np.sum(np.square(f(v))))(x);
  expect(g.aval).toBe('f32[8,4@X]'); // d/dv sum((2v)^2) = 8v, typed as v
  expect(await g.tolist()).toEqual(range(8).map((r) => range(4).map((c) => 8 * (4 * r + c))));
});
