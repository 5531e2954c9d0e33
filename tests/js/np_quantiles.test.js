// np.quantile, nanquantile, percentile, nanpercentile, median and nanmedian
// against a reference written here: each slice sorted in JS and JAX's
// formulas (p = q * (n - 1), floor / ceil clamped to the slice, then the
// method's rule) computed in float64, within 1e-6 relative; and the same
// formulas with each float32 operation rounded (Math.fround), which the
// results must equal bit for bit. JAX's docstring examples (their printed
// outputs in jax/_src/numpy/reductions.py, JAX 0.11), gradients (the
// median's and the linear quantile's weights land on the elements they
// select), NaNs, weights, JAX's errors; and lax.sort / sortKeyVal with
// several operands against a stable lexicographic sort written here.
import { beforeAll, expect, test } from 'vitest';
import * as sl from '../../web/lib/index.js';
import { rng } from './seeded_random.js';

const { np, lax } = sl;
beforeAll(() => sl.init());

const f32 = Math.fround;
const prod = (s) => s.reduce((a, b) => a * b, 1);
// `n` float32 values with ties (multiples of 1/8 in [-4, 4], half of them moved by 0.001) and, when `nans`, some NaNs.
const values = (r, n, nans = 0) => Array.from({ length: n }, () => (r() < nans ? NaN : f32(Math.round((r() * 8 - 4) * 8) / 8 + (r() < 0.5 ? 0 : 0.001))));
const nest = (flat, shape) => (shape.length === 0 ? flat[0] : Array.from({ length: shape[0] }, (_, i) => nest(flat.slice((i * flat.length) / shape[0], ((i + 1) * flat.length) / shape[0]), shape.slice(1))));

// Every element equal, NaN equal to NaN: exactly, or within `tol` relative (of max(1, |want|)).
function expectValues(got, want, what, tol = 0) {
  const g = [got].flat(Infinity);
  const w = [want].flat(Infinity);
  expect(g.length, what).toBe(w.length);
  g.forEach((v, i) => {
    if (Number.isNaN(w[i])) expect(v, `${what} [${i}]`).toBeNaN();
    else if (tol === 0) expect(v, `${what} [${i}] ${v} vs ${w[i]}`).toBe(w[i]);
    else expect(Math.abs(v - w[i]), `${what} [${i}] ${v} vs ${w[i]}`).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(w[i])));
  });
}

// The quantile of one slice `xs` (weights `ws` or null) at q, as JAX's
// formulas give it, in float64 (`round` the identity) or with every float32
// operation rounded (`round` = Math.fround). The position p = q * (n - 1)
// and inverted_cdf's target q * total are float32 products in both: a
// float64 one can fall on the other side of an integer and pick another
// element.
function sliceQuantile(xs, ws, q, method, squash, round) {
  const hasNaN = xs.some(Number.isNaN);
  if (!squash && hasNaN) return NaN;
  const pairs = xs.map((x, i) => [x, ws ? ws[i] : 1]).filter(([x]) => !Number.isNaN(x));
  pairs.sort((a, b) => a[0] - b[0]);
  const v = pairs.map((p) => p[0]);
  const n = v.length;
  if (n === 0) return NaN;
  const qf = f32(q);
  if (method === 'inverted_cdf') {
    if (ws && ws.some((w) => w < 0 || Number.isNaN(w))) return NaN;
    let cum = 0;
    const cums = pairs.map(([, w]) => (cum += w));
    const target = f32(qf * cum);
    const idx = Math.min(Math.max(cums.filter((c) => c < target).length, 0), n - 1);
    return v[idx];
  }
  const p = f32(qf * f32(n - 1));
  const lo = Math.min(Math.max(Math.floor(p), 0), n - 1);
  const hi = Math.min(Math.max(Math.ceil(p), 0), n - 1);
  const hw = p - Math.floor(p); // exact in float32
  const lw = round(1 - hw);
  if (method === 'linear') return round(round(v[lo] * lw) + round(v[hi] * hw));
  if (method === 'lower') return v[lo];
  if (method === 'higher') return v[hi];
  if (method === 'nearest') return hw <= 0.5 ? v[lo] : v[hi];
  return round(round(v[lo] + v[hi]) * 0.5); // midpoint
}

// The reference result of np.(nan)quantile(data of `shape`, qs, {axis,
// keepdims, method, weights}) as a flat list, in JAX's layout: q's
// dimension first, then the kept dimensions (size 1 for each reduced one
// with keepdims). Weights have data's shape here.
function reference(flat, shape, qs, { axis = null, keepdims = false, method = 'linear', weights = null, squash = false, round = (v) => v }) {
  const nd = shape.length;
  const axes = axis === null ? shape.map((_, d) => d) : (Array.isArray(axis) ? axis : [axis]).map((d) => (d < 0 ? d + nd : d));
  const kept = shape.map((_, d) => d).filter((d) => !axes.includes(d));
  const strides = shape.map((_, d) => prod(shape.slice(d + 1)));
  const out = [];
  for (const q of Array.isArray(qs) ? qs : [qs]) {
    for (let k = 0; k < prod(kept.map((d) => shape[d])); k++) {
      const base = kept.reduce((acc, d, j) => acc + (Math.floor(k / prod(kept.slice(j + 1).map((e) => shape[e]))) % shape[d]) * strides[d], 0);
      const xs = [];
      const ws = [];
      for (let r = 0; r < prod(axes.map((d) => shape[d])); r++) {
        const at = axes.reduce((acc, d, j) => acc + (Math.floor(r / prod(axes.slice(j + 1).map((e) => shape[e]))) % shape[d]) * strides[d], base);
        xs.push(flat[at]);
        if (weights) ws.push(weights[at]);
      }
      out.push(sliceQuantile(xs, weights ? ws : null, q, method, squash, round));
    }
  }
  const qShape = Array.isArray(qs) ? [qs.length] : [];
  const rest = keepdims ? shape.map((n, d) => (axes.includes(d) ? 1 : n)) : kept.map((d) => shape[d]);
  return { values: out, shape: [...qShape, ...rest] };
}

const METHODS = ['linear', 'lower', 'higher', 'midpoint', 'nearest', 'inverted_cdf'];

test("JAX's docstring examples of quantile, nanquantile, percentile, nanpercentile, median and nanmedian", async () => {
  const x = np.arange(10);
  const q = sl.array([0.25, 0.5, 0.75]);
  expect(await np.quantile(x, q).tolist()).toEqual([2.25, 4.5, 6.75]);
  expect(await np.quantile(x, q, { method: 'nearest' }).tolist()).toEqual([2, 4, 7]);
  const w = sl.array([1, 1, 2, 1, 1]);
  expect(await np.quantile(sl.array([1, 2, 3, 4, 5]), 0.5, { weights: w, method: 'inverted_cdf' }).item()).toBe(3);
  const withNaN = sl.array([0, 1, 2, NaN, 3, 4, 5, 6]);
  expectValues(await np.quantile(withNaN, q).tolist(), [NaN, NaN, NaN], 'quantile with a NaN');
  expect(await np.nanquantile(withNaN, q).tolist()).toEqual([1.5, 3, 4.5]);
  const wn = sl.array([1, 1, 1, 2, 1]);
  expect(await np.nanquantile(sl.array([1, 2, NaN, 4, 5]), 0.5, { weights: wn, method: 'inverted_cdf' }).item()).toBe(4);
  const p = sl.array([25, 50, 75], { dtype: 'int32' });
  expect(await np.percentile(sl.array([0, 1, 2, 3, 4, 5, 6], { dtype: 'int32' }), p).tolist()).toEqual([1.5, 3, 4.5]);
  expect(await np.percentile(sl.array([0, 1, 2, 3, 4, 5, 6], { dtype: 'int32' }), p, { method: 'nearest' }).tolist()).toEqual([1, 3, 4]);
  expect(await np.percentile(sl.array([1, 2, 3, 4, 5]), 50, { weights: w, method: 'inverted_cdf' }).item()).toBe(3);
  expectValues(await np.percentile(withNaN, p).tolist(), [NaN, NaN, NaN], 'percentile with a NaN');
  expect(await np.nanpercentile(withNaN, p).tolist()).toEqual([1.5, 3, 4.5]);
  expect(await np.nanpercentile(sl.array([1, 2, NaN, 4, 5]), 50, { weights: wn, method: 'inverted_cdf' }).item()).toBe(4);
  const m = sl.array([[2, 4, 7, 1], [3, 5, 9, 2], [6, 1, 8, 3]], { dtype: 'int32' });
  expect(await np.median(m).item()).toBe(3.5);
  expect(await np.median(m, { axis: 1 }).tolist()).toEqual([3, 4, 4.5]);
  expect(await np.median(m, { axis: 1, keepdims: true }).tolist()).toEqual([[3], [4], [4.5]]);
  const nm = sl.array([[2, NaN, 7, NaN], [NaN, 5, 9, 2], [6, 1, NaN, 3]]);
  expect(await np.nanmedian(nm).item()).toBe(4);
  expect(await np.nanmedian(nm, { axis: 1 }).tolist()).toEqual([4.5, 5, 3]);
  expect(await np.nanmedian(nm, { axis: 1, keepdims: true }).tolist()).toEqual([[4.5], [5], [3]]);
  // float32 results, as JAX's (ints promoted to float32; the result in a's promoted dtype)
  expect([np.quantile(x, q).dtype, np.median(m).dtype, np.percentile(m, 50).dtype]).toEqual(['float32', 'float32', 'float32']);
});

test('every method, over every axis, a tuple of axes, keepdims and q scalar or 1-d: the float64 reference within 1e-6, the float32 one bit for bit', async () => {
  const r = rng(7);
  const shape = [3, 5, 4];
  const flat = values(r, prod(shape));
  const x = sl.array(nest(flat, shape));
  const qs = [0, 0.1, 0.25, 0.3, 0.5, 0.7, 0.75, 0.9, 1];
  const axes = [null, 0, 1, 2, -1, [0, 2], [2, 0], [1], [0, 1, 2], []];
  for (const axis of axes) {
    for (const keepdims of [false, true]) {
      for (const method of METHODS) {
        for (const q of [qs, 0.3]) {
          const what = `quantile axis ${JSON.stringify(axis)} keepdims ${keepdims} ${method} q ${q}`;
          const got = np.quantile(x, Array.isArray(q) ? sl.array(q) : q, { axis, keepdims, method });
          const want = reference(flat, shape, q, { axis, keepdims, method });
          expect(got.shape, what).toEqual(want.shape);
          const values32 = await got.tolist();
          expectValues(values32, want.values, what, 1e-6);
          expectValues(values32, reference(flat, shape, q, { axis, keepdims, method, round: f32 }).values, `${what} (float32)`);
        }
      }
    }
  }
});

test("NaNs: quantile is NaN on a slice holding one, nanquantile leaves them out (NaN where all are), under jit too", async () => {
  const r = rng(11);
  const shape = [4, 6];
  const flat = values(r, prod(shape), 0.25);
  flat.splice(18, 6, NaN, NaN, NaN, NaN, NaN, NaN); // the last row all NaN
  flat.splice(0, 6, ...values(r, 6)); // the first row none
  const x = sl.array(nest(flat, shape));
  const qs = [0, 0.2, 0.5, 0.8, 1];
  for (const method of METHODS) {
    for (const axis of [1, 0, null]) {
      for (const [fn, squash] of [[np.quantile, false], [np.nanquantile, true]]) {
        const what = `${squash ? 'nanquantile' : 'quantile'} ${method} axis ${axis}`;
        const got = await fn(x, sl.array(qs), { axis, method }).tolist();
        expectValues(got, reference(flat, shape, qs, { axis, method, squash }).values, what, 1e-6);
        expectValues(got, reference(flat, shape, qs, { axis, method, squash, round: f32 }).values, `${what} (float32)`);
      }
    }
  }
  const jitted = sl.jit((v) => [np.nanmedian(v, { axis: 1 }), np.median(v, { axis: 1 }), np.nanpercentile(v, 30, { axis: 1, keepdims: true })]);
  const [nmed, med, nperc] = await jitted(x);
  expectValues(await nmed.tolist(), reference(flat, shape, 0.5, { axis: 1, method: 'midpoint', squash: true }).values, 'jit nanmedian', 1e-6);
  expectValues(await med.tolist(), reference(flat, shape, 0.5, { axis: 1, method: 'midpoint' }).values, 'jit median', 1e-6);
  expect(nperc.shape).toEqual([4, 1]);
  expectValues(await nperc.tolist(), reference(flat, shape, f32(f32(30) / 100), { axis: 1, squash: true, round: f32 }).values, 'jit nanpercentile');
});

test('weights with inverted_cdf: of a\'s shape, or of the reduced axes\' (in their order); bad weights give NaN', async () => {
  const r = rng(5);
  const shape = [3, 5, 2];
  const flat = values(r, prod(shape), 0.1);
  const wflat = Array.from({ length: prod(shape) }, () => Math.floor(r() * 4)); // integers: cumulative sums exact in any order
  const x = sl.array(nest(flat, shape));
  const qs = [0, 0.2, 0.5, 0.65, 1];
  for (const axis of [null, 1, [0, 2]]) {
    for (const [fn, squash] of [[np.quantile, false], [np.nanquantile, true]]) {
      const got = await fn(x, sl.array(qs), { axis, method: 'inverted_cdf', weights: sl.array(nest(wflat, shape)) }).tolist();
      expectValues(got, reference(flat, shape, qs, { axis, method: 'inverted_cdf', weights: wflat, squash }).values, `weights ${JSON.stringify(axis)} ${squash}`);
    }
  }
  // 1-d weights along one axis and 2-d ones along (2, 0), broadcast over the rest (broadcast_in_dim onto those axes)
  const w1 = [3, 0, 1, 2, 1];
  const full1 = flat.map((_, i) => w1[Math.floor(i / 2) % 5]);
  expectValues(await np.nanquantile(x, 0.4, { axis: 1, method: 'inverted_cdf', weights: sl.array(w1) }).tolist(),
    reference(flat, shape, 0.4, { axis: 1, method: 'inverted_cdf', weights: full1, squash: true }).values, 'weights along axis 1');
  const w20 = [[1, 2, 3], [2, 0, 1]]; // [axis 2, axis 0]
  const full20 = flat.map((_, i) => w20[i % 2][Math.floor(i / 10)]);
  expectValues(await np.nanpercentile(x, sl.array([20, 70]), { axis: [2, 0], method: 'inverted_cdf', weights: sl.array(w20) }).tolist(),
    reference(flat, shape, [f32(f32(20) / 100), f32(f32(70) / 100)], { axis: [2, 0], method: 'inverted_cdf', weights: full20, squash: true }).values, 'weights along (2, 0)');
  // a negative or NaN weight makes its slice NaN
  const bad = sl.array([[1, -1, 1], [1, 1, 1], [NaN, 1, 1]]);
  expectValues(await np.quantile(sl.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]]), 0.5, { axis: 1, method: 'inverted_cdf', weights: bad }).tolist(), [NaN, 5, NaN], 'bad weights');
  // the weights' dtype joins a's: int32 data and weights give float32
  expect(np.quantile(sl.array([1, 2, 3], { dtype: 'int32' }), 0.5, { method: 'inverted_cdf', weights: sl.array([1, 1, 1], { dtype: 'int32' }) }).dtype).toBe('float32');
});

test("the median's gradient lands on the one or two middle elements (1, or 1/2 each); the linear quantile's on x[low] and x[high] by their weights", async () => {
  // distinct values: rows of odd and even length, and a column median
  const x = sl.array([[3, 1, 4, 1.5, 9], [2, 6, 5, 3.5, 8]]);
  const g = await sl.grad((v) => np.sum(np.median(v, { axis: 1 })))(x);
  // row 0 sorted 1 1.5 3 4 9: the middle is 3 (position 0); row 1: 2 3.5 5 6 8, the middle 5 (position 2)
  expect(await g.tolist()).toEqual([[1, 0, 0, 0, 0], [0, 0, 1, 0, 0]]);
  const g2 = await sl.grad((v) => np.median(v))(sl.array([4, 1, 3, 2]));
  expect(await g2.tolist()).toEqual([0, 0, 0.5, 0.5]); // (2 + 3) / 2: the 3 at position 2, the 2 at 3
  // q = 0.3 of 6 elements: p = 0.3 * 5 = 1.5 -> 0.5 each to the 2nd and 3rd smallest; float32 products as JAX's
  const v6 = [5, 0, 4, 1, 3, 2];
  const g3 = await sl.grad((v) => np.quantile(v, 0.3))(sl.array(v6));
  const p = f32(f32(0.3) * 5);
  const hw = p - Math.floor(p);
  expect(await g3.tolist()).toEqual([0, 0, 0, f32(1 - hw), 0, hw]);
  // nanmedian: NaNs get no gradient
  const g4 = await sl.grad((v) => np.nanmedian(v))(sl.array([NaN, 7, 1, NaN, 4]));
  expect(await g4.tolist()).toEqual([0, 0, 0, 0, 1]);
  // ties: the stable sort decides which equal element is the middle one (the earlier of two 2s is position 1 of the sorted)
  const g5 = await sl.grad((v) => np.median(v))(sl.array([2, 2, 1]));
  expect(await g5.tolist()).toEqual([1, 0, 0]);
  // against central differences on a smooth neighbourhood (distinct values)
  const base = [0.3, -1.2, 2.5, 0.9, -0.4, 1.7, 3.1];
  const f = (v) => np.sum(np.multiply(np.quantile(v, sl.array([0.2, 0.55, 0.9])), sl.array([1, 2, 3])));
  const grad = await (await sl.grad(f)(sl.array(base))).tolist();
  const h = 1e-2;
  for (let i = 0; i < base.length; i++) {
    const plus = await f(sl.array(base.map((b, j) => (j === i ? b + h : b)))).item();
    const minus = await f(sl.array(base.map((b, j) => (j === i ? b - h : b)))).item();
    expect(Math.abs(grad[i] - (plus - minus) / (2 * h)), `d/dx${i}`).toBeLessThan(2e-3);
  }
});

test("JAX's errors: out and overwrite_input, the method, weights, q's rank and dtype, the axes", () => {
  const x = sl.array([[1, 2, 3], [4, 5, 6]]);
  expect(() => np.quantile(x, 0.5, { out: x })).toThrow('jax.numpy.quantile does not support overwrite_input=True or out != None');
  expect(() => np.percentile(x, 50, { overwriteInput: true })).toThrow('jax.numpy.quantile does not support overwrite_input=True or out != None');
  expect(() => np.median(x, { overwriteInput: true })).toThrow('jax.numpy.quantile does not support overwrite_input=True or out != None');
  expect(() => np.nanmedian(x, { out: x })).toThrow('jax.numpy.nanquantile does not support overwrite_input=True or out != None');
  expect(() => np.nanpercentile(x, 50, { out: x })).toThrow('jax.numpy.nanquantile does not support overwrite_input=True or out != None');
  expect(() => np.quantile(x, 0.5, { method: 'hazen' })).toThrow("method can only be 'linear', 'lower', 'higher', 'midpoint', 'nearest' or 'inverted_cdf'");
  let error;
  try {
    np.quantile(x, 0.5, { weights: x });
  } catch (e) {
    error = e;
  }
  expect([error.name, error.message]).toEqual(['NotImplementedError', "linear doesn't support weights. Only method 'inverted_cdf' supports weights."]);
  expect(() => np.quantile(x, 0.5, { method: 'inverted_cdf', weights: sl.array([1, 1]) })).toThrow("Weights shape must match 'a' shape when axis is None.");
  expect(() => np.quantile(x, 0.5, { axis: 1, method: 'inverted_cdf', weights: sl.array([1, 1]) })).toThrow('Weights shape (2,) must match reduction axes (3,)');
  expect(() => np.quantile(x, sl.array([[0.5]]))).toThrow('q must be have rank <= 1, got shape (1, 1)');
  expect(() => np.quantile(x, 1)).toThrow(new sl.ShapeError('floor does not accept dtype int32. Accepted dtypes are subtypes of floating.'));
  expect(() => np.quantile(x, 0.5, { axis: 2 })).toThrow(new sl.ValueError('axis 2 is out of bounds for array of dimension 2'));
  expect(() => np.quantile(x, 0.5, { axis: [0, -2] })).toThrow(new sl.ValueError('repeated axis'));
  expect(() => np.median(x, { method: 'lower' })).toThrow("np.median: unknown option 'method'; its options are axis, out, overwriteInput, keepdims");
  // percentile promotes an integer q (JAX's promote_dtypes_inexact) where quantile does not
  expect(np.percentile(x, 50).shape).toEqual([]);
});

test('shapes JAX gives: a scalar, keepdims with no axis, an axis shorthand, eager and jitted alike, vmapped', async () => {
  expect(await np.median(7).item()).toBe(7);
  expect(np.quantile(sl.array([[1, 2], [3, 4]]), sl.array([0.1, 0.9]), { keepdims: true }).shape).toEqual([2, 1, 1]);
  expect(np.quantile(sl.array(5), 0.5, { keepdims: true }).shape).toEqual([1]); // JAX's keepdim list is empty for a 0-d a
  expect(await np.median(sl.array([[1, 5], [3, 4]]), 0).tolist()).toEqual([2, 4.5]);
  const data = sl.array([[0.5, -2, 3, 7], [1, 1, -1, 4]]);
  const f = (v) => np.quantile(v, sl.array([0.2, 0.6]), { axis: 1, method: 'nearest' });
  expect(await (await sl.jit(f)(data)).tolist()).toEqual(await f(data).tolist());
  const batched = await sl.vmap((row) => np.median(row))(data);
  expect(await batched.tolist()).toEqual([1.75, 1]);
});

// A stable lexicographic sort of the rows of `columns` (each an operand's 1-d values) by the first numKeys, NaN last.
function lexSort(columns, numKeys) {
  const key = (v) => (Number.isNaN(v) ? Infinity : v);
  const order = columns[0].map((_, i) => i);
  order.sort((i, j) => {
    for (let k = 0; k < numKeys; k++) {
      const a = columns[k][i];
      const b = columns[k][j];
      if (Number.isNaN(a) !== Number.isNaN(b)) return Number.isNaN(a) ? 1 : -1;
      if (key(a) !== key(b)) return key(a) - key(b);
    }
    return i - j;
  });
  return columns.map((c) => order.map((i) => c[i]));
}

test('lax.sort of several operands by num_keys=2 against a stable lexicographic sort; sortKeyVal; one operand', async () => {
  const r = rng(3);
  const n = 40;
  const k1 = Array.from({ length: n }, () => Math.floor(r() * 4)); // int32 keys with many ties
  const k2 = Array.from({ length: n }, () => (r() < 0.1 ? NaN : f32(Math.floor(r() * 5) / 2)));
  const payload = Array.from({ length: n }, (_, i) => i);
  const ops = [sl.array(k1, { dtype: 'int32' }), sl.array(k2), sl.array(payload, { dtype: 'int32' })];
  const sorted = lax.sort(ops, { numKeys: 2 });
  expect(Array.isArray(sorted) && sorted.length).toBe(3);
  const got = await Promise.all(sorted.map((s) => s.tolist()));
  expectValues(got, lexSort([k1, k2, payload], 2), 'num_keys=2');
  expect(sorted.map((s) => s.dtype)).toEqual(['int32', 'float32', 'int32']);
  // one key: ties keep their order (payload ascending within each key)
  expectValues(await Promise.all(lax.sort(ops, { numKeys: 1 }).map((s) => s.tolist())), lexSort([k1, k2, payload], 1), 'num_keys=1');
  // along dimension 0 of a matrix, jitted: each column sorted by the keys' column
  const K = [[3, 1], [1, 2], [2, 0]];
  const V = [[10, 11], [20, 21], [30, 31]];
  const [sk, sv] = await sl.jit((a, b) => lax.sortKeyVal(a, b, { dimension: 0 }))(sl.array(K), sl.array(V));
  expect([await sk.tolist(), await sv.tolist()]).toEqual([[[1, 0], [2, 1], [3, 2]], [[20, 31], [30, 11], [10, 21]]]);
  expect(await lax.sort(sl.array([[2, NaN, -1], [0, 5, 1]])).tolist()).toEqual([[-1, 2, NaN], [0, 1, 5]]);
  const printed = sl.makeJaxpr((a, b) => lax.sort([a, b], { dimension: 0, isStable: false, numKeys: 2 }))(sl.array([1, 2]), sl.array([3, 4])).toString();
  expect(printed).toContain('sort[dimension=0 is_stable=False num_keys=2] a b');
  // the gradient flows to every operand through the permutation
  const g = await sl.grad((v) => np.sum(np.multiply(lax.sortKeyVal(sl.array([2, 0, 1]), v)[1], sl.array([1, 10, 100]))))(sl.array([1, 1, 1]));
  expect(await g.tolist()).toEqual([100, 1, 10]);
});

test("lax.sort's and sortKeyVal's errors, as JAX's", () => {
  const x = sl.array([1, 2, 3]);
  expect(() => lax.sort([])).toThrow(new sl.ShapeError('Sort requires at least one operand'));
  expect(() => lax.sort([x, x], { numKeys: 3 })).toThrow(new sl.ValueError('num_keys=3 must be between 1 and len(operand)=2'));
  expect(() => lax.sort([x, x], { numKeys: 0 })).toThrow('num_keys=0 must be between 1 and len(operand)=2');
  expect(() => lax.sort(x, { numKeys: 2 })).toThrow(new sl.ValueError('num_keys=2 must equal 1 for a single operand.'));
  expect(() => lax.sort(x, { dimension: 1 })).toThrow(new sl.ValueError('axis 1 is out of bounds for array of dimension 1'));
  expect(() => lax.sortKeyVal(x, x, { dimension: -2 })).toThrow('axis -2 is out of bounds for array of dimension 1');
  expect(() => lax.sort([x, sl.array([1, 2])])).toThrow(new sl.ShapeError('Arguments to sort must have equal shapes, got: (3,) (2,)'));
  expect(() => lax.sortKeyVal(sl.array([[1, 2]]), x)).toThrow('Arguments to sort must have equal shapes, got: (1, 2) (3,)');
});
