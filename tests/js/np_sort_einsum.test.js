// np.sort, argsort, einsum, linalg.norm, prod, cumprod, any/all (reduce_or /
// reduce_and), reductions' initial, nonzero / one-argument where and
// per-element repeat, against references computed here in float64 loops;
// gradients against central differences; under jit and eagerly.
import { beforeAll, expect, test } from 'vitest';
import * as sl from '../../web/lib/index.js';
import { rng } from './seeded_random.js';
import { close } from './close.js';

const { np } = sl;
beforeAll(() => sl.init());

const randn = (r, shape) => {
  const n = shape.reduce((a, b) => a * b, 1);
  const flat = Array.from({ length: n }, () => Math.fround(Math.round((r() * 4 - 2) * 8) / 8)); // ties on purpose
  const nest = (f, s) => (s.length === 0 ? f[0] : Array.from({ length: s[0] }, (_, i) => nest(f.slice((i * f.length) / s[0], ((i + 1) * f.length) / s[0]), s.slice(1))));
  return nest(flat, shape);
};

test('sort and argsort along each axis against a stable sort, ascending and descending', async () => {
  const r = rng(1);
  const x = randn(r, [3, 7]);
  const rows = x.map((row) => row.map((v, i) => [v, i]));
  const stable = (pairs, desc) => [...pairs].sort((a, b) => (desc ? b[0] - a[0] : a[0] - b[0]) || a[1] - b[1]);
  expect(await np.sort(sl.array(x)).tolist()).toEqual(rows.map((p) => stable(p, false).map((q) => q[0])));
  expect(await np.argsort(sl.array(x)).tolist()).toEqual(rows.map((p) => stable(p, false).map((q) => q[1])));
  expect(await np.argsort(sl.array(x), { descending: true }).tolist()).toEqual(rows.map((p) => stable(p, true).map((q) => q[1])));
  expect(await np.sort(sl.array(x), { descending: true }).tolist()).toEqual(rows.map((p) => stable(p, true).map((q) => q[0])));
  const cols = x[0].map((_, j) => x.map((row, i) => [row[j], i]));
  const byCol = await np.argsort(sl.array(x), { axis: 0 }).tolist();
  cols.forEach((c, j) => expect(byCol.map((row) => row[j])).toEqual(stable(c, false).map((q) => q[1])));
  expect(await np.sort(sl.array([[3, 1], [2, 0]]), { axis: null }).tolist()).toEqual([0, 1, 2, 3]);
  expect(await (await sl.jit((v) => np.sort(v))(sl.array([2, NaN, -1]))).tolist()).toEqual([-1, 2, NaN]);
  // the gradient of the smallest element lands on it
  const g = await sl.grad((v) => np.sum(np.multiply(np.sort(v), sl.array([1, 10, 100]))))(sl.array([5, 2, 9]));
  expect(await g.tolist()).toEqual([10, 1, 100]);
});

// A reference einsum by loops over every label, in float64.
function einsumRef(spec, arrays) {
  const [lhs, out] = spec.split('->');
  const ins = lhs.split(',');
  const size = {};
  const shapeOf = (a) => (Array.isArray(a) ? [a.length, ...shapeOf(a[0])] : []);
  ins.forEach((s, i) => [...s].forEach((l, d) => (size[l] = shapeOf(arrays[i])[d])));
  const labels = Object.keys(size);
  const result = new Map();
  const walk = (k, env) => {
    if (k === labels.length) {
      let p = 1;
      ins.forEach((s, i) => (p *= [...s].reduce((v, l) => v[env[l]], arrays[i])));
      const key = [...out].map((l) => env[l]).join(',');
      result.set(key, (result.get(key) ?? 0) + p);
      return;
    }
    for (let v = 0; v < size[labels[k]]; v++) walk(k + 1, { ...env, [labels[k]]: v });
  };
  walk(0, {});
  const build = (d, prefix) => (d === out.length ? result.get(prefix.join(',')) ?? 0 : Array.from({ length: size[out[d]] }, (_, v) => build(d + 1, [...prefix, v])));
  return build(0, []);
}

test('einsum against loops: products, batches, traces, diagonals, outer products, implicit output, ellipsis', async () => {
  const r = rng(2);
  const cases = [
    ['ij,jk->ik', [[2, 3], [3, 4]]],
    ['bij,bjk->bik', [[2, 2, 3], [2, 3, 2]]],
    ['ii->', [[3, 3]]],
    ['ii->i', [[3, 3]]],
    ['iij->ji', [[2, 2, 3]]],
    ['i,j->ij', [[3], [2]]],
    ['ij->', [[2, 3]]],
    ['ij,ij->i', [[2, 3], [2, 3]]],
    ['ijk,kj,i->k', [[2, 3, 4], [4, 3], [2]]],
    ['ab,bc,cd->da', [[2, 3], [3, 2], [2, 4]]],
  ];
  for (const [spec, shapes] of cases) {
    const xs = shapes.map((s) => randn(r, s));
    const want = einsumRef(spec, xs);
    close(await np.einsum(spec, ...xs.map((x) => sl.array(x))).tolist(), want, spec, 1e-5);
    close(await (await sl.jit((...a) => np.einsum(spec, ...a))(...xs.map((x) => sl.array(x)))).tolist(), want, `jit ${spec}`, 1e-5);
  }
  // implicit output: the labels used once, alphabetically; '...' broadcast batch dimensions
  const a = randn(r, [3, 2]);
  close(await np.einsum('ji', sl.array(a)).tolist(), einsumRef('ji->ij', [a]), 'implicit', 1e-6);
  const b = randn(r, [2, 3, 2]);
  const c = randn(r, [2, 4]);
  close(await np.einsum('...ij,jk', sl.array(b), sl.array(c)).tolist(), einsumRef('xij,jk->xik', [b, c]), 'ellipsis', 1e-5);
  expect(() => np.einsum('ij,jk', sl.array(a))).toThrow("np.einsum: subscripts \"ij,jk\" name 2 operand(s), but 1 were given");
  expect(() => np.einsum('ij->k', sl.array(a))).toThrow("np.einsum: output subscript 'k' does not appear in the inputs");
  expect(() => np.einsum('ij,jk', sl.array(a), sl.array(a))).toThrow("np.einsum: subscript 'j' has size 2 in one operand and 3 in operand 1");
  // numpy's sublist form: operands each followed by its dimensions as integers, then the output's
  close(await np.einsum(sl.array(b), [0, 1, 2], sl.array(c), [2, 3], [0, 1, 3]).tolist(), einsumRef('xij,jk->xik', [b, c]), 'sublists', 1e-5);
  close(await np.einsum(sl.array(a), [1, 0]).tolist(), einsumRef('ji->ij', [a]), 'implicit sublists', 1e-6);
  close(await np.einsum(sl.array(b), ['...', 0, 1], sl.array(c), [1, 30], ['...', 0, 30]).tolist(), einsumRef('xij,jk->xik', [b, c]), 'ellipsis and a capital', 1e-5);
  expect(() => np.einsum(sl.array(a), [0, 52])).toThrow("np.einsum: the sublist of operand 0 holds 52; a dimension is an integer from 0 to 51, or '...'");
  // the gradient of a trace is the identity
  const g = await sl.grad((v) => np.einsum('ii', v))(sl.array([[1, 2], [3, 4]]));
  expect(await g.tolist()).toEqual([[1, 0], [0, 1]]);
});

test('linalg.norm: vector orders and matrix norms against float64', async () => {
  const v = [3, -4, 1, 0.5];
  const abs = v.map(Math.abs);
  const p3 = Math.cbrt(abs.reduce((s, x) => s + x ** 3, 0));
  close(await np.linalg.norm(sl.array(v)).item(), Math.hypot(...v), 'ord 2', 1e-6);
  close(await np.linalg.norm(sl.array(v), { ord: 1 }).item(), abs.reduce((s, x) => s + x, 0), 'ord 1', 1e-6);
  expect(await np.linalg.norm(sl.array(v), { ord: Infinity }).item()).toBe(4);
  expect(await np.linalg.norm(sl.array(v), { ord: -Infinity }).item()).toBe(0.5);
  expect(await np.linalg.norm(sl.array([1, 0, 2]), { ord: 0 }).item()).toBe(2);
  close(await np.linalg.norm(sl.array(v), { ord: 3 }).item(), p3, 'ord 3', 1e-6);
  const m = [[1, -2, 3], [-4, 5, -6]];
  close(await np.linalg.norm(sl.array(m)).item(), Math.hypot(...m.flat()), 'fro', 1e-6);
  expect(await np.linalg.norm(sl.array(m), { ord: 1 }).item()).toBe(9); // the largest column sum of |m|
  expect(await np.linalg.norm(sl.array(m), { ord: Infinity }).item()).toBe(15); // the largest row sum
  expect(await np.linalg.norm(sl.array(m), { ord: -1 }).item()).toBe(5);
  close(await np.linalg.norm(sl.array(m), { axis: 1 }).tolist(), m.map((row) => Math.hypot(...row)), 'rows', 1e-6);
  expect(np.linalg.norm(sl.array(m), { axis: 0, keepdims: true }).shape).toEqual([1, 3]);
  expect(() => np.linalg.norm(sl.array(m), { ord: 3 })).toThrow('np.linalg.norm: invalid norm order 3 for matrices');
  const g = await sl.grad((x) => np.linalg.norm(x))(sl.array([3, 4]));
  close(await g.tolist(), [0.6, 0.8], 'grad', 1e-6);
});

test('prod and cumprod with exact gradients at zeros; any/all as reduce_or/reduce_and; initial', async () => {
  expect(await np.prod(sl.array([[1, 2], [3, 4]]), 0).tolist()).toEqual([3, 8]);
  expect(await np.prod(sl.array([true, true])).item()).toBe(1);
  expect(await np.cumprod(sl.array([[1, 2, 3], [4, 5, 6]]), 1).tolist()).toEqual([[1, 2, 6], [4, 20, 120]]);
  const gp = await sl.grad((x) => np.prod(x))(sl.array([2, 0, 3]));
  expect(await gp.tolist()).toEqual([0, 6, 0]);
  // d/dx_i sum(cumprod(x)) against central differences
  const x0 = [0.5, -1.5, 2, 0.25, 1.25];
  const f = (x) => np.sum(np.cumprod(x));
  const g = await (await sl.grad(f)(sl.array(x0))).tolist();
  for (let i = 0; i < x0.length; i++) {
    const h = 1e-3;
    const at = (d) => sl.array(x0.map((v, k) => (k === i ? v + d : v)));
    close(g[i], ((await f(at(h)).item()) - (await f(at(-h)).item())) / (2 * h), `cumprod d/dx${i}`, 2e-2);
  }
  expect(sl.makeJaxpr((v) => np.all(v, 1))(sl.array([[true, false]])).toString()).toContain('reduce_and[axes=(1,)]');
  expect(await np.any(sl.array([[0, 0], [0, 2]]), 1).tolist()).toEqual([false, true]);
  expect(await np.max(sl.array([1, 2]), { initial: 5 }).item()).toBe(5);
  expect(await np.min(np.zeros([0]), { initial: 3 }).item()).toBe(3);
  expect(await np.sum(sl.array([1, 2]), { initial: 10 }).item()).toBe(13);
  expect(() => np.mean(sl.array([1, 2]), { initial: 10 })).toThrow('np.mean: takes no initial value');
});

test('nonzero and one-argument where: concrete eagerly, with size under jit, JAX\'s error without it', async () => {
  const m = sl.array([[0, 3], [5, 0]]);
  await m.blockUntilReady();
  const [i, j] = np.nonzero(m);
  expect([await i.tolist(), await j.tolist()]).toEqual([[0, 1], [1, 0]]);
  const [w] = np.where([0, 1, 1]);
  expect(await w.tolist()).toEqual([1, 2]);
  const [k] = await sl.jit((x) => np.nonzero(x, { size: 4, fillValue: -1 }))(sl.array([0, 7, 0, 7, 7, 7]));
  expect(await k.tolist()).toEqual([1, 3, 4, 5]);
  const [short] = await sl.jit((x) => np.nonzero(x, { size: 3, fillValue: -1 }))(sl.array([1, 0]));
  expect(await short.tolist()).toEqual([0, -1, -1]);
  await expect(sl.jit((x) => np.where(x))(m)).rejects.toThrow('The size argument of jnp.nonzero must be statically specified');
  expect(() => np.where(m, 1)).toThrow('np.where: either both or neither of the x and y arguments should be provided');
});

test('repeat with one count per element', async () => {
  expect(await np.repeat(sl.array([1, 2, 3]), [2, 0, 1]).tolist()).toEqual([1, 1, 3]);
  expect(await np.repeat(sl.array([[1, 2], [3, 4]]), [1, 2], 1).tolist()).toEqual([[1, 2, 2], [3, 4, 4]]);
  expect(() => np.repeat(sl.array([1, 2]), [1, 2, 3])).toThrow('np.repeat: repeats has 3 entries');
});
