// Polynomials (polyval, polyadd, polysub, polyder, polyint), index arrays
// (tril/triu/diag indices, indices, fill_diagonal), spaced sequences
// (logspace, geomspace), rollaxis, trapezoid, vander and np.linalg's
// last-two-axes forms, against sums and loops written here in float64.
import { beforeAll, expect, test } from 'vitest';
import * as sl from '../../web/lib/index.js';
import { close } from './close.js';

const { np } = sl;
beforeAll(() => sl.init());

const int = (x) => sl.array(x, { dtype: 'int32' });
const list = (a) => a.tolist();
const horner = (p, x) => p.reduce((y, c) => y * x + c, 0);

test('polyval by Horner, polyadd/polysub aligned at the lowest power, polyder and polyint term by term', async () => {
  const p = [2, -5, 3, -1];
  const xs = [[-2, 0], [1.5, 3]];
  close(await list(np.polyval(sl.array(p), sl.array(xs))), xs.map((r) => r.map((x) => horner(p, x))), 'polyval', 1e-5);
  expect(await list(np.polyadd(int([1, 2]), int([5, 4, 1])))).toEqual([5, 5, 3]);
  expect(await list(np.polysub(int([1, 2]), int([5, 4, 1])))).toEqual([-5, -3, 1]);
  // d/dx (2x^3 - 5x^2 + 3x - 1) = 6x^2 - 10x + 3; twice: 12x - 10
  expect(await list(np.polyder(int(p)))).toEqual([6, -10, 3]);
  expect(await list(np.polyder(int(p), 2))).toEqual([12, -10]);
  // the integral of 12x^2 + 12x + 6 is 4x^3 + 6x^2 + 6x + k
  expect(await list(np.polyint(int([12, 12, 6]), 1, 4))).toEqual([4, 6, 6, 4]);
  expect(await list(np.polyint(int([12, 12, 6]), 2, sl.array([4, 5])))).toEqual([1, 2, 3, 4, 5]);
});

test('tril/triu indices for every k, diag indices, indices (dense and sparse) and fill_diagonal', async () => {
  for (const k of [-1, 0, 2]) {
    const [r, c] = np.trilIndices(3, k, 4);
    const pairs = [];
    for (let i = 0; i < 3; i++) for (let j = 0; j < 4; j++) if (j <= i + k) pairs.push([i, j]);
    expect([await list(r), await list(c)]).toEqual([pairs.map((q) => q[0]), pairs.map((q) => q[1])]);
    const [ur, uc] = np.triuIndicesFrom(np.zeros([3, 4]), k);
    const upper = [];
    for (let i = 0; i < 3; i++) for (let j = 0; j < 4; j++) if (j >= i + k) upper.push([i, j]);
    expect([await list(ur), await list(uc)]).toEqual([upper.map((q) => q[0]), upper.map((q) => q[1])]);
  }
  expect(await Promise.all(np.diagIndices(3, 3).map(list))).toEqual([[0, 1, 2], [0, 1, 2], [0, 1, 2]]);
  expect(await list(np.indices([2, 3]))).toEqual([[[0, 0, 0], [1, 1, 1]], [[0, 1, 2], [0, 1, 2]]]);
  expect(np.indices([2, 3], 'int32', true).map((a) => a.shape)).toEqual([[2, 1], [1, 3]]);
  expect(await list(np.fillDiagonal(np.zeros([3, 4]), sl.array([7, 8]), { inplace: false }))).toEqual([[7, 0, 0, 0], [0, 8, 0, 0], [0, 0, 7, 0]]);
  expect(() => np.fillDiagonal(np.zeros([2, 2]), 1)).toThrow('np.fill_diagonal: JAX arrays are immutable; pass inplace=False');
});

test('logspace and geomspace (negative ranges too), rollaxis, trapezoid, vander, and linalg over the last two axes', async () => {
  close(await list(np.logspace(0, 3, 4)), [1, 10, 100, 1000], 'logspace', 1e-5);
  close(await list(np.logspace(1, 3, 3, { base: 2, endpoint: false })), [2, 2 ** (5 / 3), 2 ** (7 / 3)], 'logspace base 2', 1e-5);
  close(await list(np.geomspace(1, 1000, 4)), [1, 10, 100, 1000], 'geomspace', 1e-4);
  close(await list(np.geomspace(-1, -16, 5)), [-1, -2, -4, -8, -16], 'geomspace negative', 1e-4);
  expect(np.rollaxis(np.zeros([2, 3, 4, 5]), 3, 1).shape).toEqual([2, 5, 3, 4]);
  expect(np.rollaxis(np.zeros([2, 3, 4, 5]), 1, 4).shape).toEqual([2, 4, 5, 3]);
  const y = [1, 4, 9, 16];
  const x = [0, 1, 3, 4];
  const trap = (ys, xs) => ys.slice(1).reduce((s, v, i) => s + ((v + ys[i]) * (xs[i + 1] - xs[i])) / 2, 0);
  close(await np.trapezoid(sl.array(y), sl.array(x)).item(), trap(y, x), 'trapezoid x', 1e-6);
  close(await np.trapezoid(sl.array(y), null, { dx: 0.5 }).item(), trap(y, [0, 0.5, 1, 1.5]), 'trapezoid dx', 1e-6);
  expect(await list(np.vander(int([2, 3]), 3))).toEqual([[4, 2, 1], [9, 3, 1]]);
  expect(await list(np.vander(int([2, 3]), null, true))).toEqual([[1, 2], [1, 3]]);
  const stackOf = int([[[1, 2, 3], [4, 5, 6]], [[7, 8, 9], [10, 11, 12]]]);
  expect(await list(np.linalg.trace(stackOf, { offset: 1 }))).toEqual([2 + 6, 8 + 12]);
  expect(await list(np.linalg.diagonal(stackOf))).toEqual([[1, 5], [7, 11]]);
  close(await list(np.linalg.vectorNorm(sl.array([[3, 4], [6, 8]]), { axis: 1 })), [5, 10], 'vector_norm', 1e-6);
  close(await np.linalg.matrixNorm(sl.array([[3, 4], [6, 8]])).item(), Math.sqrt(9 + 16 + 36 + 64), 'matrix_norm', 1e-6);
  expect(await list(np.linalg.outer(int([1, 2]), int([3, 4])))).toEqual([[3, 4], [6, 8]]);
  expect(() => np.linalg.outer(int([[1]]), int([3]))).toThrow('np.linalg.outer: input arrays must be one-dimensional');
});
