// jnp's rearrangements, joins and differences (arrangements.js) against
// index arithmetic and loops written here: rot90 as a map of positions, diff
// as repeated differences, meshgrid's coordinates, the cumulative functions'
// running sums, and array_equal / array_equiv.
import { beforeAll, expect, test } from 'vitest';
import * as sl from '../../web/lib/index.js';

const { np } = sl;
beforeAll(() => sl.init());

const int = (x) => sl.array(x, { dtype: 'int32' });
const M = [[1, 2, 3], [4, 5, 6]];

test('atleast_1d/2d/3d shapes, ravel in both orders, column_stack, dstack, fliplr, flipud, permute_dims, unstack', async () => {
  expect(np.atleast1d(int(3)).shape).toEqual([1]);
  expect(np.atleast2d(int([1, 2])).shape).toEqual([1, 2]);
  expect(np.atleast3d(int([1, 2])).shape).toEqual([1, 2, 1]);
  expect(np.atleast3d(int(M)).shape).toEqual([2, 3, 1]);
  expect(np.atleast1d(int(1), int([1, 2])).map((a) => a.shape)).toEqual([[1], [2]]);
  expect(await np.ravel(int(M)).tolist()).toEqual([1, 2, 3, 4, 5, 6]);
  expect(await np.ravel(int(M), 'F').tolist()).toEqual([1, 4, 2, 5, 3, 6]);
  expect(await np.columnStack([int([1, 2]), int([3, 4])]).tolist()).toEqual([[1, 3], [2, 4]]);
  expect(await np.dstack([int([1, 2]), int([3, 4])]).tolist()).toEqual([[[1, 3], [2, 4]]]);
  expect(await np.fliplr(int(M)).tolist()).toEqual(M.map((r) => [...r].reverse()));
  expect(await np.flipud(int(M)).tolist()).toEqual([...M].reverse());
  expect(await np.permuteDims(int(M), [1, 0]).tolist()).toEqual([[1, 4], [2, 5], [3, 6]]);
  expect(await Promise.all(np.unstack(int(M), 1).map((a) => a.tolist()))).toEqual([[1, 4], [2, 5], [3, 6]]);
  expect(() => np.fliplr(int([1, 2]))).toThrow('np.fliplr requires an array with at least 2 dimensions');
});

test('rot90 moves element [i][j] as a quarter turn does, for every k and both axis orders, over a stack too', async () => {
  const A = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]; // 3 x 4
  // one counter-clockwise turn (axes [0, 1]): out[i][j] = A[j][n - 1 - i]
  const turn = (a) => Array.from({ length: a[0].length }, (_, i) => a.map((row) => row[a[0].length - 1 - i]));
  let want = A;
  for (let k = 0; k < 6; k++) {
    expect(await np.rot90(int(A), k).tolist(), `k=${k}`).toEqual(want);
    want = turn(want);
  }
  // axes [1, 0] turn the other way: three counter-clockwise turns
  expect(await np.rot90(int(A), 1, [1, 0]).tolist()).toEqual(turn(turn(turn(A))));
  expect(await np.rot90(int(A), -1).tolist()).toEqual(turn(turn(turn(A))));
  const stack = await np.rot90(int([A, A]), 1, [1, 2]).tolist();
  expect(stack).toEqual([turn(A), turn(A)]);
  expect(() => np.rot90(int(A), 1, [0, 0])).toThrow('np.rot90: axes must be different');
});

test('append, concat, diff of any order with prepend and append, and ediff1d', async () => {
  expect(await np.append(int(M), int([7, 8])).tolist()).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  expect(await np.append(int(M), int([[7, 8, 9]]), 0).tolist()).toEqual([...M, [7, 8, 9]]);
  expect(await np.concat([int([1]), int([2, 3])]).tolist()).toEqual([1, 2, 3]);
  const a = [[1, 5, 2, 9], [3, 8, 7, 4]];
  const d1 = (rows) => rows.map((r) => r.slice(1).map((v, i) => v - r[i]));
  expect(await np.diff(int(a)).tolist()).toEqual(d1(a));
  expect(await np.diff(int(a), 3).tolist()).toEqual(d1(d1(d1(a))));
  expect(await np.diff(int(a), 1, 0).tolist()).toEqual([a[1].map((v, j) => v - a[0][j])]);
  expect(await np.diff(int(a), 1, -1, { prepend: 2, append: int([[3], [1]]) }).tolist()).toEqual(d1(a.map((r, i) => [2, ...r, [3, 1][i]])));
  expect(await np.diff(sl.array([true, true, false], { dtype: 'bool' })).tolist()).toEqual([false, true]);
  expect(await np.ediff1d(int(a), int([20, 30]), -10).tolist()).toEqual([-10, 4, -3, 7, -6, 5, -1, -3, 20, 30]);
  expect(() => np.diff(int(3))).toThrow('np.diff: requires input that is at least one dimensional');
});

test("meshgrid's coordinates for 'xy' and 'ij', dense and sparse", async () => {
  const [x, y, z] = [int([1, 2]), int([10, 20, 30]), int([7])];
  const [gx, gy] = np.meshgrid(x, y);
  expect(await gx.tolist()).toEqual([[1, 2], [1, 2], [1, 2]]);
  expect(await gy.tolist()).toEqual([[10, 10], [20, 20], [30, 30]]);
  const [ix, iy, iz] = np.meshgrid(x, y, z, { indexing: 'ij' });
  expect([ix.shape, iy.shape, iz.shape]).toEqual([[2, 3, 1], [2, 3, 1], [2, 3, 1]]);
  expect(await iy.tolist()).toEqual([[[10], [20], [30]], [[10], [20], [30]]]);
  const [sx, sy] = np.meshgrid(x, y, { sparse: true });
  expect([await sx.tolist(), await sy.tolist()]).toEqual([[[1, 2]], [[10], [20], [30]]]);
  expect(() => np.meshgrid(int(M))).toThrow('np.meshgrid: arguments must be 1D, got shapes [2,3]');
});

test('cumulative_sum and cumulative_prod with include_initial; array_equal and array_equiv', async () => {
  const running = (row, f, start) => row.reduce((acc, v) => [...acc, f(acc.length ? acc[acc.length - 1] : start, v)], []);
  expect(await np.cumulativeSum(int(M), { axis: 1 }).tolist()).toEqual(M.map((r) => running(r, (s, v) => s + v, 0)));
  expect(await np.cumulativeProd(int(M), { axis: 1, includeInitial: true }).tolist()).toEqual(M.map((r) => [1, ...running(r, (s, v) => s * v, 1)]));
  expect(await np.cumulativeSum(int([1, 2, 3]), { includeInitial: true }).tolist()).toEqual([0, 1, 3, 6]);
  expect(() => np.cumulativeSum(int(M))).toThrow('np.cumulative_sum: the input array has rank 2, however axis was not set to an explicit value');
  expect(await np.arrayEqual(int(M), int(M)).item()).toBe(true);
  expect(await np.arrayEqual(int(M), int([1, 2, 3])).item()).toBe(false);
  expect(await np.arrayEqual(sl.array([1, NaN]), sl.array([1, NaN])).item()).toBe(false);
  expect(await np.arrayEqual(sl.array([1, NaN]), sl.array([1, NaN]), { equalNan: true }).item()).toBe(true);
  expect(await np.arrayEquiv(int(M), int([[1, 2, 3]])).item()).toBe(false);
  expect(await np.arrayEquiv(int([M[0], M[0]]), int(M[0])).item()).toBe(true);
  expect(await np.arrayEquiv(int(M), int([1, 2])).item()).toBe(false);
});
