// Partitioning from JS: a jit over arrays placed over Explicit mesh axes
// runs as one shard_map whose body computes each device's blocks, with the
// collectives the types need inserted (jit(f).lower(x).compile().asText()
// shows them); its results come back laid out as their types say. Values
// against float64 references worked out here (tolerance 1e-5 relative: a sum
// over a sharded dimension adds partial sums in another order).
import { afterEach, beforeAll, expect, test } from 'vitest';
import * as sl from '../../web/lib/index.js';

const { P, np, lax } = sl;
beforeAll(() => sl.init());
afterEach(() => sl.setMesh(null));

const grid = () => sl.makeMesh([4, 2], ['X', 'Y'], { axisTypes: ['Explicit', 'Explicit'] });
const range = (n) => Array.from({ length: n }, (_, i) => i);
// A deterministic r x c matrix of small values, as nested JS arrays and as a float32 array.
const values = (r, c, seed) => range(r).map((i) => range(c).map((j) => (((i * 7 + j * 3 + seed) % 11) - 5) / 4));
const matmul64 = (a, b) => a.map((row) => b[0].map((_, j) => row.reduce((acc, v, k) => acc + v * b[k][j], 0)));
const collectivesOf = (text) => [...text.matchAll(/= (psum|pmax|pmin|all_gather|reduce_scatter|all_to_all|ppermute)\b/g)].map((m) => m[1]);

function expectClose(got, want) {
  expect(got.length).toBe(want.length);
  got.forEach((row, i) => row.forEach((v, j) => expect(Math.abs(v - want[i][j])).toBeLessThanOrEqual(1e-5 * Math.max(1, Math.abs(want[i][j])))));
}

test('a jit over sharded arrays runs partitioned: each device reduces its block, then one psum', async () => {
  sl.setMesh(grid());
  const xs = values(8, 4, 1);
  const x = sl.devicePut(sl.array(xs), P('X', 'Y'));
  const f = sl.jit((v) => np.sum(np.multiply(v, v), 0));
  const text = f.lower(x).compile().asText();
  expect(text).toContain('shard_map');
  expect(collectivesOf(text)).toEqual(['psum']);
  expect(f.lower(x).asText()).toBe('{ lambda ; a:f32[8@X,4@Y]. let\n    b:f32[8@X,4@Y] = mul a a\n    c:f32[4@Y] = reduce_sum[axes=(0,) out_sharding=None] b\n  in (c,) }');
  const s = await f(x);
  expect(String(s.sharding.spec)).toBe("P('Y')");
  expectClose([await s.tolist()], [range(4).map((c) => xs.reduce((acc, row) => acc + row[c] ** 2, 0))]);
});

test("the scaling book's matmul cases: no traffic, reduced partial sums, a gathered operand", async () => {
  sl.setMesh(grid());
  const as = values(8, 4, 2);
  const bs = values(4, 8, 5);
  const want = matmul64(as, bs);
  const cases = [
    // A[I@X, J] · B[J, K@Y]: each device multiplies its blocks.
    { a: P('X', null), b: P(null, 'Y'), f: (a, b) => np.matmul(a, b), moves: [], spec: "P('X', 'Y')" },
    // A[I, J@X] · B[J@X, K]: partial sums over X, reduce-scattered onto the rows, or summed everywhere.
    { a: P(null, 'X'), b: P('X', null), f: (a, b) => np.matmul(a, b, { outSharding: P('X') }), moves: ['reduce_scatter'], spec: "P('X', None)" },
    { a: P(null, 'X'), b: P('X', null), f: (a, b) => np.dot(a, b, { outSharding: P() }), moves: ['psum'], spec: 'P()' },
    // A[I@X, J] · B[J, K@X] names X twice unless out_sharding drops it from K: B gathered.
    { a: P('X', null), b: P(null, 'X'), f: (a, b) => lax.dotGeneral(a, b, [[[1], [0]], [[], []]], { outSharding: P('X') }), moves: ['all_gather'], spec: "P('X', None)" },
  ];
  for (const c of cases) {
    const a = sl.devicePut(sl.array(as), c.a);
    const b = sl.devicePut(sl.array(bs), c.b);
    const f = sl.jit(c.f);
    expect(collectivesOf(f.lower(a, b).compile().asText())).toEqual(c.moves);
    const z = await f(a, b);
    expect(String(z.sharding.spec)).toBe(c.spec);
    expectClose(await z.tolist(), want);
  }
});

test('a data-parallel gradient: the weight gradient typed as the weight, its partial sums over the batch axis summed by one psum', async () => {
  sl.setMesh(grid());
  const xs = values(8, 4, 3);
  const ws = values(4, 2, 4);
  const x = sl.devicePut(sl.array(xs), P('X', null));
  const w = sl.devicePut(sl.array(ws), P());
  const loss = (wv, xv) => np.sum(np.square(np.matmul(xv, wv)));
  const g = sl.jit(sl.grad(loss));
  expect(collectivesOf(g.lower(w, x).compile().asText())).toEqual(['psum']);
  const got = await g(w, x);
  expect(got.aval).toBe('f32[4,2]');
  // d/dw sum((x w)^2) = 2 xᵀ (x w).
  const xw = matmul64(xs, ws);
  expectClose(await got.tolist(), range(4).map((i) => range(2).map((j) => 2 * xs.reduce((acc, row, r) => acc + row[i] * xw[r][j], 0))));
});

test('jax.reshard inside a jit moves blocks: an axis changing dimension is one all_to_all', async () => {
  sl.setMesh(grid());
  const xs = values(8, 4, 6);
  const x = sl.devicePut(sl.array(xs), P('X', null));
  const f = sl.jit((v) => sl.reshard(v, P(null, 'X')));
  expect(collectivesOf(f.lower(x).compile().asText())).toEqual(['all_to_all']);
  const y = await f(x);
  expect(String(y.sharding.spec)).toBe("P(None, 'X')");
  expect(y.addressableShards[2].index).toEqual([[0, 8], [1, 2]]); // device 2 is X=1
  expectClose(await y.tolist(), xs);
});

test("a loop over sharded values runs on each device's blocks; a scan over a split scanned dimension is computed whole", async () => {
  sl.setMesh(grid());
  const xs = values(8, 4, 7);
  const x = sl.devicePut(sl.array(xs), P('X', null));
  // Each trip halves x and adds its column sums (a psum over X inside the loop).
  const f = sl.jit((v) => lax.foriLoop(0, 3, (i, c) => np.add(np.multiply(c, 0.5), np.sum(c, 0)), v));
  const text = f.lower(x).compile().asText();
  expect(text).toContain('shard_map');
  expect(collectivesOf(text)).toEqual(['psum']);
  const y = await f(x);
  expect(String(y.sharding.spec)).toBe("P('X', None)");
  let want = xs;
  for (let t = 0; t < 3; t++) {
    const sums = range(4).map((c) => want.reduce((acc, row) => acc + row[c], 0));
    want = want.map((row) => row.map((v, c) => v * 0.5 + sums[c]));
  }
  expectClose(await y.tolist(), want);
  // Scanning the rows of a row-split x: not partitioned; computed whole, laid out as its type says.
  const g = sl.jit((v) => lax.scan((c, row) => [np.add(c, row), np.add(c, row)], np.zeros([4]), v)[1]);
  expect(g.lower(x).compile().asText()).not.toContain('shard_map');
  const z = await g(x);
  expect(z.aval).toBe('f32[8,4]'); // a row of xs is typed without the scanned dimension's axes
  expectClose(await z.tolist(), xs.map((_, r) => range(4).map((c) => xs.slice(0, r + 1).reduce((acc, row) => acc + row[c], 0))));
});

test('the MLP training step in the global view inserts the collectives its shard_map version writes by hand, with its values', async () => {
  const { globalStep, mlpSpecs, shardMapStep } = await import('../../scripts/bench/mlp_step.mjs');
  const explicit = sl.makeMesh([8], ['model'], { axisTypes: ['Explicit'] });
  const manual = sl.makeMesh([8], ['model']);
  // w1, b1, w2, b2, x, y at small sizes (D=8, H=16, O=4, B=4).
  const host = [values(8, 16, 1), values(1, 16, 2)[0], values(16, 4, 3), values(1, 4, 4)[0], values(4, 8, 5), values(4, 4, 6)];
  const placed = (mesh) => host.map((a, i) => sl.devicePut(sl.array(a), new sl.NamedSharding(mesh, mlpSpecs('model')[i])));
  const [hand, global] = [sl.jit(shardMapStep(manual)), sl.jit(globalStep)];
  const [handArgs, globalArgs] = [placed(manual), placed(explicit)];
  const handMoves = collectivesOf(hand.lower(...handArgs).compile().asText());
  expect(handMoves).toEqual(['psum']);
  expect(collectivesOf(global.lower(...globalArgs).compile().asText())).toEqual(handMoves);
  const [want, got] = [await hand(...handArgs), await global(...globalArgs)];
  for (const k of ['w1', 'b1', 'w2', 'b2']) {
    expect(String(got[k].sharding.spec)).toBe(String(want[k].sharding.spec));
    const [g, w] = [await got[k].tolist(), await want[k].tolist()];
    expectClose(k === 'b1' || k === 'b2' ? [g] : g, k === 'b1' || k === 'b2' ? [w] : w);
  }
});

test("unreduced and reduced (301): a reduced weight's gradient comes out of its contraction unreduced and is summed once, by the reshard's transpose", async () => {
  sl.setMesh(sl.makeMesh([2], ['X'], { axisTypes: ['Explicit'] }));
  expect(String(P(null, null, { reduced: ['X'] }))).toBe("P(None, None, reduced={'X'})");
  expect(() => P(null, { unreduce: ['X'] })).toThrow('P: unknown option unreduce');
  const xs = values(8, 4, 3);
  const ws = values(4, 2, 4);
  const x = sl.devicePut(sl.array(xs), P('X', null));
  const w = sl.devicePut(sl.array(ws), P());
  const loss = (wv, xv) => np.sum(np.square(np.matmul(xv, sl.reshard(wv, P(null, null, { reduced: ['X'] })))));
  const text = String(sl.makeJaxpr(sl.grad(loss))(w, x));
  expect(text).toContain('c:f32[4,2]{R:X} = reshard a');
  expect(text).toMatch(/:f32\[2,4\]\{U:X\} = dot_general/);
  const g = sl.jit(sl.grad(loss));
  expect(collectivesOf(g.lower(w, x).compile().asText())).toEqual(['psum']);
  const xw = matmul64(xs, ws);
  expectClose(await (await g(w, x)).tolist(), range(4).map((i) => range(2).map((j) => 2 * xs.reduce((acc, row, r) => acc + row[i] * xw[r][j], 0))));
  // A product left unreduced inside a program is summed where it leaves it: an array is never unreduced.
  const a = sl.devicePut(sl.array([[0, 1], [2, 3]]), P(null, 'X'));
  const b = sl.devicePut(sl.array([[4, 5], [6, 7]]), P('X', null));
  const c = np.dot(a, b, { outSharding: P(null, null, { unreduced: ['X'] }) });
  expect(c.aval).toBe('f32[2,2]');
  expect(await c.tolist()).toEqual([[6, 7], [26, 31]]);
  await expect(sl.jit((u, v) => np.cos(np.dot(u, v, { outSharding: P(null, null, { unreduced: ['X'] }) })))(a, b)).rejects.toThrow(sl.ShardingTypeError);
});
