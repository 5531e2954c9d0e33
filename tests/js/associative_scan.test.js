// lax.associativeScan: every prefix combination of an associative function,
// against serial float64 references (exact for the integer sums), for every
// length from 0 to 17 (each parity at every level of the recursion), along
// another axis, reversed, over a tree, under jit and grad; JAX's docstring
// examples; a non-function refused with JAX's TypeError.
import { beforeAll, expect, test } from 'vitest';
import * as sl from '../../web/lib/index.js';
import { close } from './close.js';

const { lax, np } = sl;
beforeAll(() => sl.init());

const prefixSums = (xs) => xs.map((_, k) => xs.slice(0, k + 1).reduce((s, v) => s + v, 0));

test("JAX's docstring examples: partial sums, reversed, and products of matrices", async () => {
  expect(await lax.associativeScan(np.add, np.arange(0, 4)).tolist()).toEqual([0, 1, 3, 6]);
  expect(await lax.associativeScan(np.add, np.arange(0, 4), { reverse: true }).tolist()).toEqual([6, 6, 5, 3]);
  const mats = Array.from({ length: 4 }, (_, k) => [[1, k], [0, 1]]); // shears: their product adds the k
  const prods = await lax.associativeScan(np.matmul, sl.array(mats)).tolist();
  prods.forEach((m, k) => expect(m).toEqual([[1, (k * (k + 1)) / 2], [0, 1]]));
});

test('every length 0..17: the prefixes of a serial sum, exactly', async () => {
  for (let n = 0; n <= 17; n++) {
    const xs = Array.from({ length: n }, (_, k) => (k * 7) % 5 - 2);
    const got = await lax.associativeScan(np.add, sl.array(xs, { dtype: 'int32' })).tolist();
    expect(got, `n = ${n}`).toEqual(prefixSums(xs));
  }
});

test('along axis 1, reversed, over a tree (sum and running max), under jit', async () => {
  const rows = [[1, 2, 3], [4, 5, 6]];
  expect(await lax.associativeScan(np.multiply, sl.array(rows), { axis: 1 }).tolist()).toEqual([[1, 2, 6], [4, 20, 120]]);
  expect(await lax.associativeScan(np.add, sl.array(rows), { axis: -1, reverse: true }).tolist()).toEqual([[6, 5, 3], [15, 11, 6]]);
  const xs = [3, 1, 4, 1, 5, 9, 2];
  const f = sl.jit((t) => lax.associativeScan((a, b) => [np.add(a[0], b[0]), np.maximum(a[1], b[1])], t));
  const [sums, maxes] = await f([sl.array(xs), sl.array(xs)]);
  close(await sums.tolist(), prefixSums(xs));
  expect(await maxes.tolist()).toEqual(xs.map((_, k) => Math.max(...xs.slice(0, k + 1))));
});

test('its gradient: d sum(prefix sums) / d x_k = n - k', async () => {
  const g = await sl.grad((x) => np.sum(lax.associativeScan(np.add, x)))(np.ones([6])).tolist();
  expect(g).toEqual([6, 5, 4, 3, 2, 1]);
});

test("fn must be a function (JAX's TypeError) and return elems' structure; leaves must agree along the axis", () => {
  expect(() => lax.associativeScan(3, np.ones([2]))).toThrow(new sl.ShapeError('lax.associative_scan: fn argument should be callable.'));
  expect(() => lax.associativeScan((a) => a[0], [np.ones([2]), np.ones([2])])).toThrow(/fn must return the structure of elems/);
  expect(() => lax.associativeScan(np.add, [np.ones([2]), np.ones([3])])).toThrow(/must have the same first dimension/);
});
