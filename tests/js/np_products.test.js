// tensordot, vecdot, vdot, matvec and vecmat against sums written out here as
// loops (integers: exact), with broadcasting, gradients and their errors.
import { beforeAll, expect, test } from 'vitest';
import * as sl from '../../web/lib/index.js';

const { np } = sl;
beforeAll(() => sl.init());

const range = (n) => Array.from({ length: n }, (_, i) => i);
const ints = (shape, f) => np.reshape(sl.array(range(shape.reduce((a, b) => a * b, 1)).map(f), { dtype: 'int32' }), shape);

test('tensordot over N trailing / leading axes and over named axis pairs', async () => {
  const a = ints([2, 3, 4], (i) => i - 7);
  const b = ints([3, 4, 5], (i) => (i * 3) % 11);
  const A = await a.tolist();
  const B = await b.tolist();
  // axes = 2: out[i][m] = sum_jk A[i][j][k] B[j][k][m]
  const two = range(2).map((i) => range(5).map((m) => range(3).reduce((s, j) => s + range(4).reduce((t, k) => t + A[i][j][k] * B[j][k][m], 0), 0)));
  expect(await np.tensordot(a, b).tolist()).toEqual(two);
  expect(await np.tensordot(a, b, [[1, 2], [0, 1]]).tolist()).toEqual(two);
  expect(await np.tensordot(a, b, [[-2, -1], [0, 1]]).tolist()).toEqual(two);
  // axes = 0: the outer product
  const outer = await np.tensordot(sl.array([1, 2], { dtype: 'int32' }), sl.array([3, 4, 5], { dtype: 'int32' }), 0).tolist();
  expect(outer).toEqual([[3, 4, 5], [6, 8, 10]]);
  // one pair of single axes: out[i][k][j][m] = sum_c A[i][c][k] * C[j][c][m] with C = B reshaped (5, 3, 4)
  const c = ints([5, 3, 4], (i) => i % 7);
  const C = await c.tolist();
  const one = range(2).map((i) => range(4).map((k) => range(5).map((j) => range(4).map((m) => range(3).reduce((s, q) => s + A[i][q][k] * C[j][q][m], 0)))));
  expect(await np.tensordot(a, c, [1, 1]).tolist()).toEqual(one);
  // float32 gradient: d/da sum(tensordot(a, ones)) = the number of elements each a[i,j,k] meets
  const g = await sl.grad((x) => np.sum(np.tensordot(x, np.ones([3, 4, 5]))))(np.ones([2, 3, 4])).tolist();
  expect(g).toEqual(range(2).map(() => range(3).map(() => range(4).map(() => 5))));
  expect(() => np.tensordot(a, b, 4)).toThrow('np.tensordot: axes=4 must be between 0 and the ranks');
  expect(() => np.tensordot(a, b, [[0], [0]])).toThrow('np.tensordot: axis 0 of i32[2,3,4] (size 2) and axis 0 of i32[3,4,5] (size 3) must have the same size');
});

test('vecdot along any axis with batches broadcast; matvec and vecmat over stacks', async () => {
  const x = ints([2, 3], (i) => i + 1);
  const y = ints([1, 3], (i) => i + 2);
  expect(await np.vecdot(x, y).tolist()).toEqual([1 * 2 + 2 * 3 + 3 * 4, 4 * 2 + 5 * 3 + 6 * 4]);
  const z = ints([3, 2], (i) => i - 2);
  const X = await x.tolist();
  const Z = await z.tolist();
  expect(await np.vecdot(np.transpose(x), z, { axis: 0 }).tolist()).toEqual(range(2).map((j) => range(3).reduce((s, k) => s + X[j][k] * Z[k][j], 0)));
  const m = ints([2, 2, 3], (i) => (i * 5) % 7);
  const M = await m.tolist();
  const v = ints([3], (i) => i + 1);
  expect(await np.matvec(m, v).tolist()).toEqual(M.map((mat) => mat.map((row) => row.reduce((s, e, k) => s + e * (k + 1), 0))));
  const w = ints([2, 2], (i) => i - 1);
  const W = await w.tolist();
  expect(await np.vecmat(w, m).tolist()).toEqual(range(2).map((b) => range(3).map((j) => range(2).reduce((s, k) => s + W[b][k] * M[b][k][j], 0))));
  expect(() => np.vecdot(x, ints([2], (i) => i))).toThrow('np.vecdot: the vectors along axis -1 have sizes 3 and 2; they must be equal');
  expect(() => np.matvec(v, v)).toThrow('np.matvec: needs matrices (rank >= 2) and vectors (rank >= 1), got i32[3] and i32[3]');
});

test('vdot: the sum of the elementwise products of both arrays flattened; empty gives zeros', async () => {
  const a = ints([2, 3], (i) => i - 2);
  const b = ints([3, 2], (i) => 2 * i + 1);
  const want = range(6).reduce((s, i) => s + (i - 2) * (2 * i + 1), 0);
  expect(await np.vdot(a, b).item()).toBe(want);
  expect(np.vdot(a, b).dtype).toBe('int32');
  expect(await np.empty([2, 2], 'int32').tolist()).toEqual([[0, 0], [0, 0]]);
});
