// vmap, jacfwd, jacrev and hessian from JS: values against float64
// references computed here (loops over the batch, Jacobians and Hessians
// written out by hand), within 1e-5 relative; in_axes and out_axes as tree
// prefixes, axisSize, nested vmap, JAX's errors, per-example gradients,
// vmap inside and around shardMap, the printed programs, and axisName (the
// batch's examples as the devices of collectives).
import { beforeAll, describe, expect, test } from 'vitest';
import * as sl from '../../web/lib/index.js';
import { close } from './close.js';

const { np, lax } = sl;
beforeAll(() => sl.init());

const rand = (n, seed) => Array.from({ length: n }, (_, i) => Math.sin(seed * 7.1 + i * 1.3) * 1.5);
const f32 = (xs) => xs.map(Math.fround);
const rows = (flat, r, c) => Array.from({ length: r }, (_, i) => flat.slice(i * c, (i + 1) * c));
// arange(n) as r rows of c.
const arangeRows = (n, r, c) => rows(Array.from({ length: n }, (_, i) => i), r, c);

describe('vmap', () => {
  test('in_axes (0, None): a batched matmul and tanh, as a loop over the rows', async () => {
    const xs = f32(rand(12, 1));
    const ws = f32(rand(6, 2));
    const f = (x, w) => np.tanh(np.matmul(x, w)); // x: f32[3], w: f32[3, 2]
    const got = await sl.vmap(f, { inAxes: [0, null] })(sl.array(rows(xs, 4, 3)), sl.array(rows(ws, 3, 2))).tolist();
    const want = rows(xs, 4, 3).map((x) => [0, 1].map((c) => Math.tanh(x.reduce((a, v, k) => a + v * ws[k * 2 + c], 0))));
    close(got, want);
  });

  test('negative in_axes, out_axes, axisSize and a None output', async () => {
    const x = sl.array(rows([1, 2, 3, 4, 5, 6], 2, 3)); // mapped along its last axis: 3 examples of f32[2]
    const [sums, same] = await Promise.all(
      sl.vmap((v, c) => [np.sum(v), c], { inAxes: [-1, null], outAxes: [0, null] })(x, sl.array([7, 8])).map((a) => a.tolist()),
    );
    expect(sums).toEqual([5, 7, 9]);
    expect(same).toEqual([7, 8]);
    const cols = await sl.vmap((v) => np.multiply(v, 2), { inAxes: 0, outAxes: 1 })(x).tolist();
    expect(cols).toEqual([
      [2, 8],
      [4, 10],
      [6, 12],
    ]);
    const rep = await sl.vmap((c) => c, { inAxes: null, axisSize: 3 })(sl.array([1, 2])).tolist();
    expect(rep).toEqual([
      [1, 2],
      [1, 2],
      [1, 2],
    ]);
  });

  test('pytrees in and out, in_axes as a tree prefix', async () => {
    const params = { w: sl.array([1, 2]), b: sl.array(0.5) };
    const batch = { x: sl.array(rows([1, 2, 3, 4, 5, 6], 3, 2)), y: sl.array([1, 0, 1]) };
    const f = (p, d) => ({ pred: np.add(np.sum(np.multiply(p.w, d.x)), p.b), y: d.y });
    const out = sl.vmap(f, { inAxes: [null, { x: 0, y: 0 }] })(params, batch);
    expect(await out.pred.tolist()).toEqual([5.5, 11.5, 17.5]);
    expect(await out.y.tolist()).toEqual([1, 0, 1]);
  });

  test('nested vmap: pairwise distances', async () => {
    const a = f32(rand(6, 3));
    const b = f32(rand(8, 4));
    const dist = (u, v) => np.sqrt(np.sum(np.square(np.subtract(u, v))));
    const pairwise = sl.vmap(sl.vmap(dist, { inAxes: [null, 0] }), { inAxes: [0, null] });
    const got = await pairwise(sl.array(rows(a, 3, 2)), sl.array(rows(b, 4, 2))).tolist();
    const want = rows(a, 3, 2).map((u) => rows(b, 4, 2).map((v) => Math.hypot(u[0] - v[0], u[1] - v[1])));
    close(got, want);
  });

  test("JAX's errors: inconsistent sizes, in_axes of the wrong length, an axis out of range", () => {
    const id = (x, y) => [x, y];
    const t = () => sl.makeJaxpr(sl.vmap(id))(sl.array([1, 2, 3]), sl.array([1, 2]));
    expect(t).toThrow(/vmap got inconsistent sizes for array axes to be mapped:\n {2}\* one axis had size 3/);
    expect(() => sl.makeJaxpr(sl.vmap(id, { inAxes: [0] }))(sl.array([1]), sl.array([1]))).toThrow(
      'vmap in_axes must be an int, None, or a tuple of entries corresponding to the positional arguments passed to the function, but got len(in_axes)=1, len(args)=2',
    );
    expect(() => sl.makeJaxpr(sl.vmap((x) => x, { inAxes: 1 }))(sl.array([1, 2]))).toThrow(
      'vmap was requested to map its argument along axis 1, which implies that its rank should be at least 2, but is only 1 (its shape is (2,))',
    );
    expect(() => sl.makeJaxpr(sl.vmap((x) => x, { outAxes: null }))(sl.array([1, 2]))).toThrow(/^at vmap out_axes \(output 0\), got axis spec None but output was batched on axis 0/);
  });

  test('vmap(grad(loss)) gives per-example gradients', async () => {
    const w = f32([0.5, -1, 2]);
    const xs = f32(rand(12, 5));
    const loss = (wv, x) => np.square(np.sum(np.multiply(wv, x)));
    const got = await sl.jit(sl.vmap(sl.grad(loss), { inAxes: [null, 0] }))(sl.array(w), sl.array(rows(xs, 4, 3)));
    const want = rows(xs, 4, 3).map((x) => {
      const z = x.reduce((a, v, k) => a + v * w[k], 0);
      return x.map((v) => 2 * z * v);
    });
    close(await got.tolist(), want);
  });

  test('vmap inside a shardMap body and a shardMap inside vmap', async () => {
    const mesh = sl.makeMesh([8], ['i']);
    const xs = f32(rand(16 * 3, 6));
    const inside = sl.shardMap((blk) => lax.psum(sl.vmap((r) => np.sum(r))(blk), 'i'), { mesh, inSpecs: sl.P('i'), outSpecs: sl.P() });
    const got = await sl.jit(inside)(sl.array(rows(xs, 16, 3)));
    const want = [0, 1].map((r) => Array.from({ length: 8 }, (_, d) => xs.slice((d * 2 + r) * 3, (d * 2 + r) * 3 + 3)).flat().reduce((a, v) => a + v, 0));
    close(await got.tolist(), want);
    const around = sl.vmap(sl.shardMap((blk) => lax.psum(blk, 'i'), { mesh, inSpecs: sl.P('i'), outSpecs: sl.P() }));
    const batch = sl.array([rows(xs.slice(0, 24), 8, 3), rows(xs.slice(24), 8, 3)]);
    const got2 = await sl.jit(around)(batch).then((a) => a.tolist());
    const want2 = [0, 1].map((e) => [0, 1, 2].map((c) => Array.from({ length: 8 }, (_, d) => xs[e * 24 + d * 3 + c]).reduce((a, v) => a + v, 0)));
    close(got2, want2);
    expect(sl.makeJaxpr(around)(batch).toString()).toContain("in_specs=(P(None, 'i'),)");
  });

  test('the printed program is the batched one, as JAX prints it', () => {
    const text = sl.makeJaxpr(sl.vmap((x) => np.sum(np.multiply(x, 2)), { inAxes: 1 }))(sl.array(rows([1, 2, 3, 4, 5, 6], 2, 3))).toString();
    expect(text).toBe(
      [
        '{ lambda ; a:f32[2,3]. let',
        '    b:f32[2,3] = mul a 2.0:f32[]',
        '    c:f32[3] = reduce_sum[axes=(0,) out_sharding=None] b',
        '  in (c,) }',
      ].join('\n'),
    );
  });

  test("axisName: JAX's docstring psum, pmean to normalize, axisIndex and allGather over the batch, a grad through them", async () => {
    const xs = sl.array(arangeRows(12, 3, 4));
    // jax.vmap's docstring: vmap(lambda x: lax.psum(x, 'i'), axis_name='i')(xs).
    expect(await sl.vmap((x) => lax.psum(x, 'i'), { axisName: 'i' })(xs).tolist()).toEqual([0, 1, 2].map(() => [12, 15, 18, 21]));
    const v = rand(12, 3);
    const colSums = [0, 1, 2, 3].map((c) => [0, 1, 2].reduce((s, r) => s + Math.fround(v[r * 4 + c]), 0));
    const normalized = await sl.vmap((x) => np.divide(x, lax.psum(x, 'b')), { axisName: 'b' })(sl.array(rows(v, 3, 4))).tolist();
    close(normalized.flat(), f32(v).map((x, k) => x / colSums[k % 4]), 1e-5);
    expect(await sl.vmap(() => lax.axisIndex('b'), { axisName: 'b', axisSize: 5, inAxes: [] })().tolist()).toEqual([0, 1, 2, 3, 4]);
    const gathered = await sl.vmap((x) => lax.allGather(x, 'b'), { axisName: 'b' })(xs).tolist();
    expect(gathered).toEqual([0, 1, 2].map(() => arangeRows(12, 3, 4)));
    // d/dx of sum over the batch of (x_e * psum(x))... per example: grad of psum(x)^2 / 2 is psum(x) for each (the batch's sum, broadcast).
    const g = sl.grad((w) => np.sum(sl.vmap((x) => np.multiply(lax.psum(x, 'b'), x), { axisName: 'b' })(w)));
    const w = [1, 2, 3];
    expect(await (await g(sl.array(w))).tolist()).toEqual(w.map(() => 2 * 6));
  });
});

describe('jacfwd, jacrev, hessian', () => {
  // f(x, y) = [x0 * y, sin-free: x0 * x1^2 + y^3] with x: f32[2], y: f32[]; its Jacobians by hand.
  const f = (x, y) => np.stack([np.multiply(lax.slice(x, [0], [1]).reshape([]), y), np.add(np.multiply(lax.slice(x, [0], [1]).reshape([]), np.square(lax.slice(x, [1], [2]).reshape([]))), np.power(y, 3))]);
  const x0 = [1.5, -2];
  const y0 = 0.75;
  const jx = [
    [y0, 0],
    [x0[1] ** 2, 2 * x0[0] * x0[1]],
  ];
  const jy = [x0[0], 3 * y0 ** 2];

  test('jacfwd and jacrev agree with the Jacobian by hand, for one argnum and for several', async () => {
    for (const jac of [sl.jacfwd, sl.jacrev]) {
      close(await jac(f)(sl.array(x0), sl.array(y0)).tolist(), jx, jac.name);
      const [ax, ay] = jac(f, { argnums: [0, 1] })(sl.array(x0), sl.array(y0));
      close(await ax.tolist(), jx, `${jac.name} argnums[0]`);
      close(await ay.tolist(), jy, `${jac.name} argnums[1]`);
    }
  });

  test('a tree of outputs: each output leaf holds its Jacobian (out.shape + in.shape)', async () => {
    const g = (x) => ({ s: np.sum(np.square(x)), t: np.multiply(x, 3) });
    for (const jac of [sl.jacfwd, sl.jacrev]) {
      const r = jac(g)(sl.array(x0));
      expect(r.s.shape).toEqual([2]);
      expect(r.t.shape).toEqual([2, 2]);
      close(await r.s.tolist(), [2 * x0[0], 2 * x0[1]]);
      close(await r.t.tolist(), [
        [3, 0],
        [0, 3],
      ]);
    }
  });

  test('hessian of a scalar function', async () => {
    // h(x) = x0^2 x1 + x1^3: [[2 x1, 2 x0], [2 x0, 6 x1]].
    const h = (x) => {
      const a = lax.slice(x, [0], [1]).reshape([]);
      const b = lax.slice(x, [1], [2]).reshape([]);
      return np.add(np.multiply(np.square(a), b), np.power(b, 3));
    };
    close(await sl.hessian(h)(sl.array(x0)).tolist(), [
      [2 * x0[1], 2 * x0[0]],
      [2 * x0[0], 6 * x0[1]],
    ]);
  });

  test('integer inputs are refused as JAX refuses them', () => {
    expect(() => sl.makeJaxpr(sl.jacfwd((x) => x))(sl.array([1, 2], { dtype: 'int32' }))).toThrow(
      'jacfwd requires real-valued inputs (input dtype that is a sub-dtype of np.floating), but got int32.',
    );
  });
});
