// lax.cond, lax.switch, lax.scan and lax.foriLoop from JS: the printed
// program against JAX 0.11's (api_test.py test_cond), values against loops
// written out here in float64 (within 1e-5 relative), gradients through
// them against analytic ones, vmap of both (a batched predicate selects per
// example), a ring of ppermute steps as a foriLoop in a shardMap body, and
// JAX's errors (branch structures, scan lengths, a varying predicate around
// a collective). while_loop and fori_loop with a traced bound: while_loop.test.js.
import { beforeAll, describe, expect, test } from 'vitest';
import * as sl from '../../web/lib/index.js';
import { close } from './close.js';

const { np, lax } = sl;
beforeAll(() => sl.init());

const run = async (f, ...args) => sl.jit(f)(...args.map((a) => sl.array(a)));

describe('cond and switch', () => {
  const jaxExample = (x) =>
    lax.cond(
      np.greaterEqual(x, 0),
      (xt, _) => np.add(xt, x),
      (_, xf) => np.subtract(xf, x),
      np.add(x, 1),
      np.add(x, 2),
    );

  test("prints as JAX 0.11's test_cond", () => {
    expect(sl.makeJaxpr(jaxExample)(sl.array(3)).toString()).toBe(
      [
        '{ lambda ; a:f32[]. let',
        '    b:bool[] = ge a 0.0:f32[]',
        '    c:f32[] = add a 1.0:f32[]',
        '    d:f32[] = add a 2.0:f32[]',
        '    e:i32[] = convert_element_type[new_dtype=int32 weak_type=False] b',
        '    f:f32[] = cond[',
        '      branches=(',
        '        { lambda ; g:f32[] h:f32[] i:f32[]. let j:f32[] = sub i g in (j,) }',
        '        { lambda ; k:f32[] l:f32[] m:f32[]. let n:f32[] = add l k in (n,) }',
        '      )',
        '    ] e a c d',
        '  in (f,) }',
      ].join('\n'),
    );
  });

  test('values and gradients of both branches, eagerly and under jit', async () => {
    for (const x of [3, -1.5]) {
      const want = x >= 0 ? 2 * x + 1 : 2;
      expect(await (await run(jaxExample, x)).item()).toBe(want);
      expect(await jaxExample(sl.array(x)).item()).toBe(want);
      expect(await (await run(sl.grad(jaxExample), x)).item()).toBe(x >= 0 ? 2 : 0);
    }
  });

  test('switch clamps its index, as JAX documents; trees in and out', async () => {
    const branches = [(p) => ({ y: np.multiply(p.a, 10) }), (p) => ({ y: np.add(p.a, p.b) }), (p) => ({ y: np.negative(p.b) })];
    const f = (i, a, b) => lax.switch(i, branches, { a, b }).y;
    const cases = [[-3, 10], [0, 10], [1, 4], [2, -3], [7, -3]]; // a = 1, b = 3
    for (const [i, want] of cases) expect(await (await sl.jit(f)(sl.array(i, { dtype: 'int32' }), sl.array(1), sl.array(3))).item()).toBe(want);
  });

  test('vmap with a batched predicate selects per example', async () => {
    const f = (x) => lax.cond(np.greater(x, 0), (v) => np.multiply(v, v), (v) => np.negative(v), x);
    close(await sl.vmap(f)(sl.array([-2, 3, 0.5, -1])).tolist(), [2, 9, 0.25, 1]);
  });

  test("JAX's errors: branch structures, a non-scalar predicate, a varying predicate around a collective", () => {
    expect(() => sl.makeJaxpr((x) => lax.cond(true, (v) => [v, v], (v) => v, x))(sl.array(1))).toThrow(
      /true_fun and false_fun output must have same type structure, got \[\*, \*\] and \*/,
    );
    expect(() => sl.makeJaxpr((x) => lax.cond(true, (v) => np.sum(v), (v) => v, x))(sl.array([1, 2]))).toThrow(
      /branches of cond must have identical output types, got \(f32\[2\],\) and \(f32\[\],\)/,
    );
    expect(() => sl.makeJaxpr((x) => lax.cond(np.greater(x, 0), (v) => v, (v) => v, x))(sl.array([1, 2]))).toThrow(/Pred must be scalar/);
    const mesh = sl.makeMesh([8], ['i']);
    const g = sl.shardMap((blk) => lax.cond(np.greater(np.sum(blk), 0), (v) => lax.psum(v, 'i'), (v) => v, np.sum(blk)), {
      mesh,
      inSpecs: sl.P('i'),
      outSpecs: sl.P(),
    });
    expect(() => sl.makeJaxpr(g)(sl.array([1, 2, 3, 4, 5, 6, 7, 8]))).toThrow(
      /the branch index varies across devices along \('i',\), but branch 1 performs psum/,
    );
  });
});

describe('scan and foriLoop', () => {
  const xs = [1, -2, 3, 0.5, 4];
  const ema = (x, reverse = false) => lax.scan((c, v) => {
    const n = np.add(np.multiply(c, 0.9), np.multiply(v, 0.1));
    return [n, { n, twice: np.multiply(n, 2) }];
  }, 0.0, x, { reverse });

  test('values (forward and reverse, ys a tree) and gradients against float64 loops', async () => {
    for (const reverse of [false, true]) {
      const [c, ys] = await run((x) => ema(x, reverse), xs);
      let want = 0;
      const wys = [];
      for (let s = 0; s < 5; s++) {
        const i = reverse ? 4 - s : s;
        want = 0.9 * want + 0.1 * xs[i];
        wys[i] = want;
      }
      close(await c.item(), want);
      close(await ys.n.tolist(), wys);
      close(await ys.twice.tolist(), wys.map((v) => 2 * v));
      const g = await run(sl.grad((x) => ema(x, reverse)[0]), xs);
      close(await g.tolist(), xs.map((_, i) => 0.1 * 0.9 ** (reverse ? i : 4 - i)));
    }
  });

  test('power iteration for the spectral norm as a foriLoop, and its gradient', async () => {
    const W = [[2, 1], [1, 3]];
    const norm = (w) => {
      const v = lax.foriLoop(0, 30, (i, u) => {
        const wu = np.matmul(w, u);
        return np.divide(wu, np.sqrt(np.sum(np.multiply(wu, wu))));
      }, np.ones([2]));
      const wv = np.matmul(w, v);
      return np.sqrt(np.sum(np.multiply(wv, wv)));
    };
    const lmax = (5 + Math.sqrt(5)) / 2; // the largest eigenvalue of W
    close(await (await run(norm, W)).item(), lmax);
    // d lmax / dW = u u^T for its unit eigenvector u (the iteration converges; 1e-4).
    const u = [1, lmax - 2];
    const n = Math.hypot(...u);
    const g = await (await run(sl.grad(norm), W)).tolist();
    g.flat().forEach((v, k) => expect(Math.abs(v - (u[Math.floor(k / 2)] * u[k % 2]) / (n * n))).toBeLessThan(1e-4));
    expect(sl.makeJaxpr(norm)(sl.array(W)).toString()).toContain('= scan[');
  });

  test('vmap of a scan against a loop over the batch', async () => {
    const batch = [xs, xs.map((v) => -v), xs.map((v) => v * v)];
    const got = await sl.vmap((x) => ema(x)[0])(sl.array(batch)).tolist();
    close(got, batch.map((row) => row.reduce((c, v) => 0.9 * c + 0.1 * v, 0)));
  });

  test('a ring of 7 ppermute steps as a foriLoop in a shardMap body, and its gradient', async () => {
    const mesh = sl.makeMesh([8], ['i']);
    const perm = Array.from({ length: 8 }, (_, d) => [d, (d + 1) % 8]);
    const ring = sl.shardMap(
      (blk) => lax.foriLoop(0, 7, (i, [cur, acc]) => {
        const next = lax.ppermute(cur, 'i', perm);
        return [next, np.add(acc, next)];
      }, [blk, blk])[1],
      { mesh, inSpecs: sl.P('i'), outSpecs: sl.P('i') },
    );
    const x = Array.from({ length: 16 }, (_, k) => Math.sin(k));
    const total = [0, 1].map((k) => x.filter((_, j) => j % 2 === k).reduce((a, b) => a + b, 0));
    close(await (await sl.jit(ring)(sl.array(x))).tolist(), x.map((_, j) => total[j % 2]));
    const g = await (await sl.jit(sl.grad((v) => np.sum(ring(v))))(sl.array(x))).tolist();
    close(g, x.map(() => 8));
  });

  test("JAX's errors: lengths, carry structure and types", () => {
    const f = (c, v) => [c, v];
    expect(() => sl.makeJaxpr((a, b) => lax.scan(f, 0.0, [a, b]))(sl.array([1, 2]), sl.array([1, 2, 3]))).toThrow(
      'scan got values with different leading axis sizes: 2, 3.',
    );
    expect(() => sl.makeJaxpr((a) => lax.scan(f, 0.0, a, { length: 3 }))(sl.array([1, 2]))).toThrow(
      'scan got `length` argument of 3 which disagrees with leading axis sizes [2].',
    );
    expect(() => sl.makeJaxpr(() => lax.scan(f, 0.0, null))()).toThrow('scan got no values to scan over and `length` not provided.');
    expect(() => sl.makeJaxpr((a) => lax.scan((c, v) => [[c], v], 0.0, a))(sl.array([1]))).toThrow(/carry input and carry output must have the same pytree structure/);
    expect(() => sl.makeJaxpr((a) => lax.scan((c, v) => [np.zeros([2]), v], np.zeros([]), a))(sl.array([1]))).toThrow(
      /carry input and carry output must have equal types, but carry 0 is f32\[\] as input and f32\[2\] as output/,
    );
  });
});
