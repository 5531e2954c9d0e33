// np's triangles, diagonals and rearrangements (tri, tril, triu, identity,
// linspace, diagonal, trace, swapaxes, moveaxis, hstack, vstack, outer,
// inner) against loops written out here, eagerly and under jit, with
// gradients where they are linear and their errors.
import { beforeAll, expect, test } from 'vitest';
import * as sl from '../../web/lib/index.js';
import { close } from './close.js';

const { np } = sl;
beforeAll(() => sl.init());

const M = [[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12]]; // 4 x 3
const each = (rows, cols, f) => Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => f(i, j)));

test('tri, tril, triu and identity against their definitions, for every offset', async () => {
  for (const k of [-2, -1, 0, 1, 3]) {
    expect(await np.tri(3, 4, k).tolist()).toEqual(each(3, 4, (i, j) => (j <= i + k ? 1 : 0)));
    expect(await np.tril(sl.array(M), k).tolist()).toEqual(each(4, 3, (i, j) => (j <= i + k ? M[i][j] : 0)));
    expect(await np.triu(sl.array(M), k).tolist()).toEqual(each(4, 3, (i, j) => (j >= i + k ? M[i][j] : 0)));
  }
  expect(await np.identity(3).tolist()).toEqual(each(3, 3, (i, j) => (i === j ? 1 : 0)));
  // batched: the mask covers the last two dimensions
  expect(await np.tril(np.ones([2, 2, 2])).tolist()).toEqual([[[1, 0], [1, 1]], [[1, 0], [1, 1]]]);
  expect(() => np.tril(sl.array([1, 2]))).toThrow('np.tril: needs an array of at least 2 dimensions, got f32[2]');
  // tril is linear: its gradient is the mask
  const g = await sl.jit(sl.grad((x) => np.sum(np.tril(x))))(sl.array(M));
  expect(await g.tolist()).toEqual(each(4, 3, (i, j) => (j <= i ? 1 : 0)));
});

test('linspace as jnp: the endpoint exactly, without it, one and zero points', async () => {
  close(await np.linspace(-1, 2, 7).tolist(), each(1, 7, (_, i) => -1 + (i * 3) / 6)[0], 'linspace', 1e-6);
  expect((await np.linspace(0, 0.3, 4).tolist())[3]).toBe(Math.fround(0.3));
  close(await np.linspace(0, 1, 4, { endpoint: false }).tolist(), [0, 0.25, 0.5, 0.75], 'no endpoint', 1e-7);
  expect(await np.linspace(5, 9, 1).tolist()).toEqual([5]);
  expect(await np.linspace(5, 9, 0).tolist()).toEqual([]);
  expect(() => np.linspace(0, 1, -2)).toThrow('np.linspace: num is -2; it must be a non-negative integer');
});

test("linspace computes jnp's start * (1 - t) + stop * t in float32, with retstep, axis and integer dtypes", async () => {
  // float32 arithmetic of JAX's formula, t = i / div, against the result bit for bit (the division by
  // the constant div run as XLA runs it, a product with f32(1 / div): lower.cc)
  const f = Math.fround;
  const jaxWay = (lo, hi, num, div) => Array.from({ length: num }, (_, i) => {
    const t = f(f(i) * f(1 / div));
    return f(f(f(lo) * f(1 - t)) + f(f(hi) * t));
  });
  expect(await np.linspace(-1.3, 2.7, 7, { endpoint: false }).tolist()).toEqual(jaxWay(-1.3, 2.7, 7, 7));
  expect(await np.linspace(0.1, 0.7, 6).tolist()).toEqual([...jaxWay(0.1, 0.7, 5, 5), f(0.7)]);
  const [vals, step] = np.linspace(0, 10, 9, { retstep: true });
  expect(await vals.tolist()).toEqual([0, 1.25, 2.5, 3.75, 5, 6.25, 7.5, 8.75, 10]);
  expect([await step.item(), step.dtype, step.shape]).toEqual([1.25, 'float32', []]);
  expect(Number.isNaN(await np.linspace(2, 3, 1, { retstep: true })[1].item())).toBe(true);
  // arrays of bounds: the new axis where `axis` says
  const ab = np.linspace(sl.array([0, 5]), sl.array([5, 10]), 5, { axis: 1 });
  expect(await ab.tolist()).toEqual([[0, 1.25, 2.5, 3.75, 5], [5, 6.25, 7.5, 8.75, 10]]);
  expect(await np.linspace(sl.array([0, 5]), 10, 3, { retstep: true })[1].tolist()).toEqual([5, 2.5]);
  // integer dtypes take the floor (negative values round down, not toward zero)
  expect(await np.linspace(-3, 4, 5, { dtype: 'int32' }).tolist()).toEqual([-3, -2, 0, 2, 4]);
});

test('diagonal and trace at every offset of a rectangular matrix, and their gradients', async () => {
  for (const k of [-3, -1, 0, 1, 2, 5]) {
    const want = [];
    for (let i = 0; i < 4; i++) if (i + k >= 0 && i + k < 3) want.push(M[i][i + k]);
    expect(await np.diagonal(sl.array(M), k).tolist()).toEqual(want);
    expect(await np.trace(sl.array(M), k).item()).toBe(want.reduce((a, b) => a + b, 0));
  }
  const g = await sl.grad((x) => np.trace(x, 1))(sl.array(M));
  expect(await g.tolist()).toEqual(each(4, 3, (i, j) => (j === i + 1 ? 1 : 0)));
});

test("diagonal and trace of a 3-D array over any two axes, as numpy's loops define them (the other axes first, the diagonal last)", async () => {
  const shape = [2, 3, 4];
  const at = (i, j, k) => i * 12 + j * 4 + k; // np.arange(24).reshape(2, 3, 4)
  const x = np.reshape(np.arange(24), shape);
  for (const [a1, a2] of [[0, 1], [1, 2], [2, 0], [-1, -2]]) {
    const [p, q] = [(a1 + 3) % 3, (a2 + 3) % 3];
    const other = [0, 1, 2].find((d) => d !== p && d !== q);
    for (const k of [-2, 0, 1]) {
      const want = [];
      for (let o = 0; o < shape[other]; o++) {
        const row = [];
        for (let d = 0; d < shape[p]; d++) {
          if (d + k < 0 || d + k >= shape[q]) continue;
          const idx = [];
          [idx[other], idx[p], idx[q]] = [o, d, d + k];
          row.push(at(...idx));
        }
        want.push(row);
      }
      expect(await np.diagonal(x, k, a1, a2).tolist(), `diagonal offset ${k} axes ${a1}, ${a2}`).toEqual(want);
      expect(await np.trace(x, k, a1, a2).tolist()).toEqual(want.map((r) => r.reduce((s, v) => s + v, 0)));
    }
  }
  expect(() => np.diagonal(x, 0, 1, -2)).toThrow('np.diagonal: axis1 and axis2 are both 1; they must be different axes');
  expect(() => np.diagonal(np.arange(3))).toThrow('np.diagonal: needs an array of at least 2 dimensions, got i32[3]');
});

test('swapaxes, moveaxis, hstack, vstack, outer and inner against loops', async () => {
  const x = np.reshape(np.arange(24), [2, 3, 4]);
  expect(np.swapaxes(x, 0, -1).shape).toEqual([4, 3, 2]);
  expect((await np.swapaxes(x, 0, 2).tolist())[3][1][0]).toBe(0 * 12 + 1 * 4 + 3);
  expect(np.moveaxis(x, 0, -1).shape).toEqual([3, 4, 2]);
  expect(np.moveaxis(x, [0, 1], [-1, -2]).shape).toEqual([4, 3, 2]);
  expect((await np.moveaxis(x, 0, -1).tolist())[2][1][1]).toBe(1 * 12 + 2 * 4 + 1);
  expect(() => np.moveaxis(x, [0, 1], [0])).toThrow('np.moveaxis: `source` and `destination` arguments must have the same number of elements');
  expect(await np.hstack([sl.array([1, 2]), sl.array([3])]).tolist()).toEqual([1, 2, 3]);
  expect(await np.hstack([sl.array([[1], [2]]), sl.array([[3, 4], [5, 6]])]).tolist()).toEqual([[1, 3, 4], [2, 5, 6]]);
  expect(await np.vstack([sl.array([1, 2]), sl.array([[3, 4], [5, 6]])]).tolist()).toEqual([[1, 2], [3, 4], [5, 6]]);
  const a = [1, -2, 3], b = [0.5, 4];
  expect(await np.outer(sl.array(a), sl.array(b)).tolist()).toEqual(each(3, 2, (i, j) => a[i] * b[j]));
  expect(await np.inner(sl.array(M), sl.array([1, 10, 100])).tolist()).toEqual(M.map((r) => r[0] + 10 * r[1] + 100 * r[2]));
  expect(await np.inner(sl.array(a), 2).tolist()).toEqual(a.map((v) => 2 * v));
  expect(sl.makeJaxpr((p, q) => np.inner(p, q))(sl.array(a), sl.array(a)).toString()).toContain('dot_general');
});

test('tile, repeat, kron and diag against index arithmetic; any and all', async () => {
  const A = [[1, 2], [3, 4]];
  const tiled = await np.tile(sl.array(A), [2, 3]).tolist();
  expect(tiled).toEqual(each(4, 6, (i, j) => A[i % 2][j % 2]));
  expect(await np.tile(sl.array([1, 2]), [2, 1]).tolist()).toEqual([[1, 2], [1, 2]]);
  expect(await np.repeat(sl.array(A), 2, 0).tolist()).toEqual(each(4, 2, (i, j) => A[Math.floor(i / 2)][j]));
  expect(await np.repeat(sl.array(A), 3).tolist()).toEqual(A.flat().flatMap((v) => [v, v, v]));
  // Counts as a concrete array are read (the result's shape depends on them); an array where a static argument goes is a named error.
  expect(await np.repeat(sl.array(A), sl.array([1, 0]), 0).tolist()).toEqual([A[0]]);
  expect(() => np.full([2], 1, sl.array([1]))).toThrow('full: argument 3 is an array, but it is a static argument: give a number, a list of numbers or a string');
  expect(() => np.repeat(sl.array(A), [1, 2])).toThrow(/np.repeat: repeats has 2 entries; give one non-negative integer per element/);
  const B = [[0, 1, 2], [3, 4, 5]];
  expect(await np.kron(sl.array(A), sl.array(B)).tolist()).toEqual(each(4, 6, (i, j) => A[Math.floor(i / 2)][Math.floor(j / 3)] * B[i % 2][j % 3]));
  for (const k of [-2, 0, 1]) {
    const v = [5, 6, 7], n = 3 + Math.abs(k);
    expect(await np.diag(sl.array(v), k).tolist()).toEqual(each(n, n, (i, j) => (j - i === k ? v[k >= 0 ? i : j] : 0)));
  }
  expect(await np.diag(sl.array(M), -1).tolist()).toEqual([4, 8, 12]);
  const x = sl.array([[0, 1], [0, 0]]);
  expect(await np.any(x).item()).toBe(true);
  expect(await np.all(x, 1).tolist()).toEqual([false, false]);
  expect(await np.any(x, { axis: 0, keepdims: true }).tolist()).toEqual([[false, true]]);
  expect(await np.all(sl.array([true, true])).item()).toBe(true);
});
