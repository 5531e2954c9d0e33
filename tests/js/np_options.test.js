// numpy's options on ShardLab's np: the reductions' `where` mask (sum, prod,
// mean, max/min with initial, any/all, var/std), zerosLike/onesLike/fullLike
// with dtype and shape, round's decimals, reshape's order 'F', repeat's
// totalRepeatLength (traced counts) and isclose/allclose: values against
// loops over the elements written out here (float64, within 1e-6 relative
// where the result is rounded), weak types as JAX's, and JAX's errors.
import { beforeAll, expect, test } from 'vitest';
import * as sl from '../../web/lib/index.js';
import { close } from './close.js';

const { np } = sl;
beforeAll(() => sl.init());

const X = [[1, 3, 4, 2], [5, 2, 6, 3], [8, 1, 3, 9]];
const M = [[1, 0, 1, 0], [0, 0, 1, 1], [1, 1, 1, 0]];
const rowsWhere = (f) => X.map((r, i) => f(r.filter((_, j) => M[i][j])));
const x = () => sl.array(X, { dtype: 'int32' });
const m = () => sl.array(M, { dtype: 'bool' });

test('a where mask leaves elements out of every reduction, eagerly and under jit', async () => {
  const sum = (r) => r.reduce((a, b) => a + b, 0);
  const mean = (r) => sum(r) / r.length;
  const variance = (r, ddof = 0) => r.reduce((a, v) => a + (v - mean(r)) ** 2, 0) / (r.length - ddof);
  expect(await np.sum(x(), { axis: 1, where: m() }).tolist()).toEqual(rowsWhere(sum));
  expect(await np.prod(x(), { where: m() }).item()).toBe(rowsWhere((r) => r.reduce((a, b) => a * b, 1)).reduce((a, b) => a * b, 1));
  expect(await np.mean(x(), { axis: 1, keepdims: true, where: m() }).tolist()).toEqual(rowsWhere(mean).map((v) => [v]));
  expect(await np.max(x(), { axis: 1, initial: 0, where: m() }).tolist()).toEqual(rowsWhere((r) => Math.max(0, ...r)));
  expect(await np.min(x(), { axis: 1, initial: 100, where: m() }).tolist()).toEqual(rowsWhere((r) => Math.min(100, ...r)));
  expect(await np.any(np.greater(x(), 8), { where: m() }).item()).toBe(false); // the 9 is masked out
  expect(await np.all(np.greater(x(), 1), { axis: 1, where: m() }).tolist()).toEqual(rowsWhere((r) => r.every((v) => v > 1)));
  close(await np.var(x(), { axis: 1, where: m() }).tolist(), rowsWhere((r) => variance(r)), 'var where', 1e-6);
  close(await np.std(x(), { axis: 1, ddof: 1, where: m() }).tolist(), rowsWhere((r) => Math.sqrt(variance(r, 1))), 'std where', 1e-6);
  const jitted = sl.jit((a, w) => np.sum(a, { where: w }));
  expect(await (await jitted(x(), m())).item()).toBe(rowsWhere(sum).reduce((a, b) => a + b, 0));
  // Another mask of the same shape: the mask is an argument, not part of a cached program.
  expect(await np.sum(x(), { where: np.logicalNot(m()) }).item()).toBe(X.flat().reduce((a, b) => a + b, 0) - rowsWhere(sum).reduce((a, b) => a + b, 0));
  expect(() => np.max(x(), { where: m() })).toThrow("np.max: reduction operation max does not have an identity, so to use a where mask one has to specify 'initial'");
});

test("zerosLike, onesLike and fullLike take a dtype and a shape; like JAX's full_like they keep a weak type only without a dtype", async () => {
  const a = np.arange(3);
  expect(await np.zerosLike(a, 'float32').tolist()).toEqual([0, 0, 0]);
  expect(np.zerosLike(a, 'float32').dtype).toBe('float32');
  expect(await np.onesLike(a, null, [2, 3]).tolist()).toEqual([[1, 1, 1], [1, 1, 1]]);
  expect(await np.fullLike(np.ones([2], 'float32'), 7).tolist()).toEqual([7, 7]);
  const weak = sl.array(2.5);
  expect([weak.weakType, np.zerosLike(weak).weakType, np.zerosLike(weak, 'float32').weakType, np.fullLike(weak, 1).weakType]).toEqual([true, true, false, true]);
  expect(await (await sl.jit((v) => np.fullLike(v, np.take(v, 0)))(sl.array([4, 5], { dtype: 'int32' }))).tolist()).toEqual([4, 4]);
});

test('round takes decimals (halves to even, through float32 as JAX rescales); reshape reads in order F', async () => {
  expect(await np.round(sl.array([1.532, 3.267, 6.149]), 2).tolist()).toEqual([1.53, 3.27, 6.15].map(Math.fround));
  expect(await np.round(sl.array([0.5, 1.5, 2.5, -0.5])).tolist()).toEqual([0, 2, 2, -0]);
  expect(await np.round(sl.array([15, 25, 37], { dtype: 'int32' }), -1).tolist()).toEqual([20, 20, 40]);
  expect(await np.round(sl.array([15, 25], { dtype: 'int32' }), 1).tolist()).toEqual([15, 25]);
  // Order F: element (i, j, k) of a [2, 3, 4] array is the (i + 2j + 6k)-th read, written column-major too.
  const a = np.arange(24).reshape([2, 3, 4]);
  const flat = [];
  for (let k = 0; k < 4; k++) for (let j = 0; j < 3; j++) for (let i = 0; i < 2; i++) flat.push(12 * i + 4 * j + k);
  const want = [0, 1, 2, 3].map((r) => [0, 1, 2, 3, 4, 5].map((c) => flat[r + 4 * c]));
  expect(await np.reshape(a, [4, 6], 'F').tolist()).toEqual(want);
  expect(() => np.reshape(a, [24], 'A')).toThrow("reshape: order must be 'C' or 'F', got 'A'");
});

test('repeat with totalRepeatLength takes traced counts: runs cut at the length, the last run extended past the counts', async () => {
  const f = sl.jit((a, r) => np.repeat(a, r, 1, 5));
  const runs = (row, counts, n) => {
    const out = row.flatMap((v, i) => Array(counts[i]).fill(v)).slice(0, n);
    while (out.length < n) out.push(out.at(-1));
    return out;
  };
  const a = [[1, 2], [3, 4]];
  for (const counts of [[2, 3], [1, 1], [4, 4], [0, 2]]) {
    expect(await (await f(sl.array(a, { dtype: 'int32' }), sl.array(counts, { dtype: 'int32' }))).tolist()).toEqual(a.map((row) => runs(row, counts, 5)));
  }
  expect(await np.repeat(sl.array([1, 2, 3], { dtype: 'int32' }), 2, null, 4).tolist()).toEqual([1, 1, 2, 2]);
});

test('isclose and allclose: |a - b| <= atol + rtol |b|, infinities close only to themselves, NaN to nothing unless equalNan', async () => {
  const a = [1, Infinity, NaN, 2, -Infinity, 0, 1e-9];
  const b = [1 + 1e-6, Infinity, NaN, 2.1, Infinity, 1e-9, 0];
  const want = a.map((v, i) => {
    const [p, q] = [Math.fround(v), Math.fround(b[i])];
    if (Number.isNaN(p) || Number.isNaN(q)) return false;
    if (!Number.isFinite(p) || !Number.isFinite(q)) return p === q;
    return Math.abs(p - q) <= 1e-8 + 1e-5 * Math.abs(q);
  });
  expect(await np.isclose(sl.array(a), sl.array(b)).tolist()).toEqual(want);
  expect(await np.isclose(sl.array(a), sl.array(b), 1e-5, 1e-8, true).tolist()).toEqual(want.map((w, i) => w || (Number.isNaN(a[i]) && Number.isNaN(b[i]))));
  expect(await np.allclose(sl.array([1, 2]), sl.array([1, 2.000001])).item()).toBe(true);
  expect(await np.allclose(sl.array([1, 2]), sl.array([1, 2.1])).item()).toBe(false);
  expect(await np.isclose(np.arange(3), sl.array([0, 1, 3], { dtype: 'int32' })).tolist()).toEqual([true, true, false]); // integers: exactly
});
