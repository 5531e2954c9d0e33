// np.matmul follows jnp.matmul: batch dimensions broadcast (a missing or
// size-1 batch dimension of one operand meets the other's), traced as JAX
// traces it. The cases (tests/data/matmul_cases.json) are the same the C++
// rule (cpp/ir/tracing/ops.cc, tests/cpp/ir_linalg_test.cc) is checked on: each
// gives the shape and the equations, and its values match a float64
// reference built from numpy's definition.
import { readFileSync } from 'node:fs';
import { beforeAll, expect, test } from 'vitest';
import * as sl from '../../web/lib/index.js';

const CASES = JSON.parse(readFileSync(new URL('../data/matmul_cases.json', import.meta.url), 'utf8'));

beforeAll(async () => {
  await sl.init();
});

const prod = (s) => s.reduce((a, b) => a * b, 1);
const randoms = (n, seed) => Float32Array.from({ length: n }, (_, i) => Math.sin(seed * 977 + i * 1.37));

// numpy's matmul in float64: vectors become matrices (then lose that
// dimension), batch dimensions broadcast, each product summed in order.
function reference(x, xs, y, ys) {
  const xm = xs.length === 1 ? [1, xs[0]] : xs;
  const ym = ys.length === 1 ? [ys[0], 1] : ys;
  const [m, k] = xm.slice(-2);
  const n = ym[ym.length - 1];
  const nb = Math.max(xm.length, ym.length) - 2;
  const pad = (s) => [...Array(nb - (s.length - 2)).fill(1), ...s.slice(0, -2)];
  const [xb, yb] = [pad(xm), pad(ym)];
  const batch = xb.map((d, i) => Math.max(d, yb[i]));
  const out = [];
  for (let flat = 0; flat < prod(batch); flat++) {
    const idx = batch.map((_, i) => Math.floor(flat / prod(batch.slice(i + 1))) % batch[i]);
    const offset = (b) => idx.reduce((o, v, i) => o * b[i] + (b[i] === 1 ? 0 : v), 0);
    const [xo, yo] = [offset(xb) * m * k, offset(yb) * k * n];
    for (let i = 0; i < m; i++) {
      for (let j = 0; j < n; j++) {
        let s = 0;
        for (let l = 0; l < k; l++) s += x[xo + i * k + l] * y[yo + l * n + j];
        out.push(s);
      }
    }
  }
  return out;
}

test.each(CASES.map((c) => [`${JSON.stringify(c.x)} @ ${JSON.stringify(c.y)}`, c]))('%s', async (_, c) => {
  const f = (x, y) => sl.np.matmul(x, y);
  if (c.error) {
    expect(() => sl.makeJaxpr(f)(new sl.ShapeDtypeStruct(c.x), new sl.ShapeDtypeStruct(c.y))).toThrow(sl[c.error]);
    return;
  }
  const program = sl.makeJaxpr(f)(new sl.ShapeDtypeStruct(c.x), new sl.ShapeDtypeStruct(c.y)).toJSON();
  expect(program.outvars[0].aval.shape).toEqual(c.out);
  expect(program.eqns.map((e) => e.primitive)).toEqual(c.eqns);
  const [x, y] = [randoms(prod(c.x), 1), randoms(prod(c.y), 2)];
  const out = await sl.jit(f)(sl.array(x, { shape: c.x }), sl.array(y, { shape: c.y }));
  expect(out.shape).toEqual(c.out);
  const want = reference(x, c.x, y, c.y);
  const got = await out.data();
  expect(got.length).toBe(want.length);
  for (let i = 0; i < want.length; i++) expect(Math.abs(got[i] - want[i])).toBeLessThanOrEqual(1e-5 * (1 + Math.abs(want[i])));
});

// np.dot is numpy's rule, not matmul's: a scalar multiplies; otherwise a's
// last axis meets b's second to last (its only one for a vector) and the
// result's axes are a's others then b's others: (3,2,2) . (3,2,1) is
// (3,2,3,1) where matmul gives (3,2,1). One dot_general, as JAX traces it.
test.each([
  [[3], [3]],
  [[2, 3], [3]],
  [[3], [3, 4]],
  [[2, 3], [3, 4]],
  [[3, 2, 2], [3, 2, 1]],
  [[2, 4], [3, 4, 5]],
  [[2, 2, 3], [3]],
])('np.dot %j . %j against numpy\'s rule in float64', async (xs, ys) => {
  const [x, y] = [randoms(prod(xs), 3), randoms(prod(ys), 4)];
  const k = xs[xs.length - 1];
  const cb = ys.length === 1 ? 0 : ys.length - 2;
  const aFree = xs.slice(0, -1);
  const bFree = ys.filter((_, d) => d !== cb);
  const strides = (s) => s.map((_, d) => prod(s.slice(d + 1)));
  const [sa, sb] = [strides(xs), strides(ys)];
  const want = [];
  for (let i = 0; i < prod(aFree); i++) {
    for (let j = 0; j < prod(bFree); j++) {
      const ai = aFree.map((_, d) => Math.floor(i / prod(aFree.slice(d + 1))) % aFree[d]);
      const bj = bFree.map((_, d) => Math.floor(j / prod(bFree.slice(d + 1))) % bFree[d]);
      const bIdx = [...bj.slice(0, cb), 0, ...bj.slice(cb)];
      let s = 0;
      for (let l = 0; l < k; l++) {
        const ao = ai.reduce((o, v, d) => o + v * sa[d], 0) + l * sa[xs.length - 1];
        bIdx[cb] = l;
        s += x[ao] * y[bIdx.reduce((o, v, d) => o + v * sb[d], 0)];
      }
      want.push(s);
    }
  }
  const f = (a, b) => sl.np.dot(a, b);
  const program = sl.makeJaxpr(f)(new sl.ShapeDtypeStruct(xs), new sl.ShapeDtypeStruct(ys)).toJSON();
  expect(program.eqns.map((e) => e.primitive)).toEqual(['dot_general']);
  const out = f(sl.array(x, { shape: xs }), sl.array(y, { shape: ys }));
  expect(out.shape).toEqual([...aFree, ...bFree]);
  const got = await out.data();
  for (let i = 0; i < want.length; i++) expect(Math.abs(got[i] - want[i])).toBeLessThanOrEqual(1e-5 * (1 + Math.abs(want[i])));
});

test('np.dot with a scalar operand multiplies; contracted sizes that differ are a ShapeError naming both', async () => {
  expect(Array.from(await sl.np.dot(sl.array([1, 2, 3]), 2).data())).toEqual([2, 4, 6]);
  expect(Array.from(await sl.np.dot(0.5, sl.array([2, 4])).data())).toEqual([1, 2]);
  expect(() => sl.np.dot(sl.array(new Float32Array(6), { shape: [2, 3] }), sl.array(new Float32Array(6), { shape: [2, 3] }))).toThrow(
    /dot: f32\[2,3\] and f32\[2,3\]: the contracted dimensions have sizes 3 and 2/,
  );
});
