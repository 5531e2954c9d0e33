// unique, searchsorted, digitize, isin, bincount, select, interp, argwhere,
// flatnonzero and lax.top_k against loops over the elements written here
// (integers exact, floats against float64), with traced inputs where JAX
// allows them (size= for unique) and the errors where it does not.
import { beforeAll, expect, test } from 'vitest';
import * as sl from '../../web/lib/index.js';
import { close } from './close.js';

const { np, lax } = sl;
beforeAll(() => sl.init());

const int = (x) => sl.array(x, { dtype: 'int32' });
const list = (a) => a.tolist();
// A concrete array whose values a shape depends on (unique, bincount, argwhere read them), ready to be read.
const ready = async (x, dtype = 'int32') => {
  const a = sl.array(x, { dtype });
  await a.blockUntilReady();
  return a;
};

test('unique: values, first indices, inverse and counts, of elements and of rows; size pads with the smallest or fill_value', async () => {
  const data = [5, 1, 5, 3, 1, 1, 9];
  const distinct = [...new Set(data)].sort((a, b) => a - b);
  const [values, index, inverse, counts] = np.unique(await ready(data), { returnIndex: true, returnInverse: true, returnCounts: true });
  expect(await list(values)).toEqual(distinct);
  expect(await list(index)).toEqual(distinct.map((v) => data.indexOf(v)));
  expect(await list(inverse)).toEqual(data.map((v) => distinct.indexOf(v)));
  expect(await list(counts)).toEqual(distinct.map((v) => data.filter((d) => d === v).length));
  const rows = [[1, 2], [0, 5], [1, 2], [1, 0]];
  const [urows, rcounts] = np.unique(await ready(rows), { axis: 0, returnCounts: true });
  expect([await list(urows), await list(rcounts)]).toEqual([[[0, 5], [1, 0], [1, 2]], [1, 1, 2]]);
  const sized = sl.jit((x) => [np.unique(x, { size: 6 }), np.unique(x, { size: 6, fillValue: -1 }), np.unique(x, { size: 2 })]);
  const [a, b, c] = await sized(int(data));
  expect([await list(a), await list(b), await list(c)]).toEqual([[1, 3, 5, 9, 1, 1], [1, 3, 5, 9, -1, -1], [1, 3]]);
  expect(await list(np.unique(await ready([2, NaN, 1, NaN], 'float32')))).toEqual([1, 2, NaN]);
  expect(await list(np.unique(await ready([2, NaN, 1, NaN], 'float32'), { equalNan: false }))).toEqual([1, 2, NaN, NaN]);
  expect(() => sl.makeJaxpr((x) => np.unique(x))(int(data))).toThrow('The size argument of jnp.unique must be statically specified');
});

test('searchsorted left and right (with a sorter), digitize both ways, isin, select', async () => {
  const a = [1, 2, 2, 3, 5];
  const v = [0, 2, 2.5, 5, 7];
  expect(await list(np.searchsorted(int(a), sl.array(v)))).toEqual(v.map((x) => a.filter((e) => e < x).length));
  expect(await list(np.searchsorted(int(a), sl.array(v), { side: 'right' }))).toEqual(v.map((x) => a.filter((e) => e <= x).length));
  const shuffled = [3, 1, 5, 2, 2];
  expect(await list(np.searchsorted(int(shuffled), sl.array(v), { sorter: int([1, 3, 4, 0, 2]) }))).toEqual(v.map((x) => a.filter((e) => e < x).length));
  const x = [0.5, 1, 1.5, 3, 4];
  const bins = [1, 2, 3];
  expect(await list(np.digitize(sl.array(x), int(bins)))).toEqual(x.map((e) => bins.filter((b) => b <= e).length));
  expect(await list(np.digitize(sl.array(x), int(bins), true))).toEqual(x.map((e) => bins.filter((b) => b < e).length));
  expect(await list(np.digitize(sl.array(x), int([3, 2, 1])))).toEqual(x.map((e) => 3 - bins.filter((b) => b <= e).length));
  expect(await list(np.isin(int([[1, 2], [3, 4]]), int([4, 1, 9])))).toEqual([[true, false], [false, true]]);
  const conds = [sl.array([false, true, false], { dtype: 'bool' }), sl.array([true, true, false], { dtype: 'bool' })];
  expect(await list(np.select(conds, [int([1, 2, 3]), int([10, 20, 30])], -1))).toEqual([10, 2, -1]);
});

test('bincount with weights, minlength and length (negatives at 0, overflow dropped); argwhere, flatnonzero, top_k', async () => {
  expect(await list(np.bincount(await ready([1, 1, 3])))).toEqual([0, 2, 0, 1]);
  expect(await list(np.bincount(await ready([1, 1, 3]), sl.array([0.5, 1, 2]), 6))).toEqual([0, 1.5, 0, 2, 0, 0]);
  expect(await list(np.bincount(int([-1, 2, 7]), null, 0, { length: 4 }))).toEqual([1, 0, 1, 0]);
  const m = [[1, 0, 2], [0, 3, 0]];
  expect(await list(np.argwhere(await ready(m)))).toEqual([[0, 0], [0, 2], [1, 1]]);
  expect(np.argwhere(await ready(0)).shape).toEqual([0, 0]);
  expect(await list(np.flatnonzero(await ready(m)))).toEqual([0, 2, 4]);
  const [vals, idx] = lax.topK(sl.array([[9, 3, 6, 9, 10]]), 3);
  expect([await list(vals), await list(idx)]).toEqual([[[10, 9, 9]], [[4, 0, 3]]]);
});

test('interp inside, outside (end values, given, extrapolated) and periodic, against float64', async () => {
  const xp = [0, 1, 3, 6];
  const fp = [1, 3, 2, 8];
  const lin = (t) => {
    let k = xp.findIndex((e) => e > t);
    if (k < 0) k = xp.length - 1;
    k = Math.min(Math.max(k, 1), xp.length - 1);
    return fp[k - 1] + ((t - xp[k - 1]) / (xp[k] - xp[k - 1])) * (fp[k] - fp[k - 1]);
  };
  const x = [0.5, 2, 4.5, 6];
  close(await list(np.interp(sl.array(x), sl.array(xp), sl.array(fp))), x.map(lin), 'inside', 1e-6);
  close(await list(np.interp(sl.array([-1, 7]), sl.array(xp), sl.array(fp))), [1, 8], 'end values', 0);
  close(await list(np.interp(sl.array([-1, 7]), sl.array(xp), sl.array(fp), { left: -5, right: 'extrapolate' })), [-5, lin(7)], 'left and extrapolated', 1e-5);
  // period 4 over xp 0..3: x = 5 is x = 1, x = 3.5 lies between (3, 2) and (4, fp at 0)
  close(await list(np.interp(sl.array([5, 3.5]), sl.array([0, 1, 2, 3]), sl.array([0, 10, 20, 30]), { period: 4 })), [10, 15], 'periodic', 1e-5);
});
