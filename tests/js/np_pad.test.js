// np.pad's modes against numpy's definitions written out here: the index
// each padded position reads (edge, wrap, reflect, symmetric), the
// statistics of the first and last elements, linear ramps in float64, and
// per-side constants; eagerly, under jit and with the gradient of the
// index modes; and the errors.
import { beforeAll, expect, test } from 'vitest';
import * as sl from '../../web/lib/index.js';
import { close } from './close.js';

const { np } = sl;
beforeAll(() => sl.init());

// numpy's source index for position j of an axis of length n padded by `before`:
// reflect mirrors with period 2(n - 1), symmetric with period 2n, wrap repeats.
const SOURCE = {
  edge: (k, n) => Math.min(Math.max(k, 0), n - 1),
  wrap: (k, n) => ((k % n) + n) % n,
  reflect: (k, n) => {
    if (n === 1) return 0;
    const p = 2 * (n - 1);
    const r = ((k % p) + p) % p;
    return r < n ? r : p - r;
  },
  symmetric: (k, n) => {
    const p = 2 * n;
    const r = ((k % p) + p) % p;
    return r < n ? r : p - 1 - r;
  },
};

// A 2-D array padded by `widths` in `mode`, as numpy: each axis's source index in turn.
function padByIndex(rows, widths, mode) {
  const [[t, b], [l, r]] = widths;
  const n = rows.length;
  const m = rows[0].length;
  return Array.from({ length: n + t + b }, (_, i) =>
    Array.from({ length: m + l + r }, (_, j) => rows[SOURCE[mode](i - t, n)][SOURCE[mode](j - l, m)]),
  );
}

const X = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]];

test('edge, wrap, reflect and symmetric read the positions numpy defines, widths beyond the axis included', async () => {
  for (const mode of ['edge', 'wrap', 'reflect', 'symmetric']) {
    for (const widths of [[[1, 2], [3, 0]], [[5, 7], [9, 4]], [[0, 0], [2, 2]]]) {
      expect(await np.pad(sl.array(X, { dtype: 'int32' }), widths, { mode }).tolist(), `${mode} ${JSON.stringify(widths)}`).toEqual(padByIndex(X, widths, mode));
    }
  }
  // an axis of one element reflects to itself
  expect(await np.pad(sl.array([7], { dtype: 'int32' }), 3, { mode: 'reflect' }).tolist()).toEqual([7, 7, 7, 7, 7, 7, 7]);
});

test("reflect_type 'odd' extends through the edge (2 * edge - x): a line stays a line", async () => {
  const line = [3, 5, 7, 9];
  const padded = await np.pad(sl.array(line, { dtype: 'int32' }), [6, 5], { mode: 'reflect', reflectType: 'odd' }).tolist();
  expect(padded).toEqual(Array.from({ length: 15 }, (_, i) => 3 + 2 * (i - 6)));
  const sym = await np.pad(sl.array(line, { dtype: 'int32' }), 2, { mode: 'symmetric', reflectType: 'odd' }).tolist();
  expect(sym).toEqual([1, 3, 3, 5, 7, 9, 9, 11]); // numpy: 2*3 - [5, 3] and 2*9 - [9, 7]
});

test('maximum, minimum and mean over the whole axis or stat_length, integers rounded half to even', async () => {
  const x = sl.array([10, 20, 30, 45], { dtype: 'int32' });
  expect(await np.pad(x, 2, { mode: 'mean' }).tolist()).toEqual([26, 26, 10, 20, 30, 45, 26, 26]); // 26.25
  expect(await np.pad(x, [1, 2], { mode: 'maximum', statLength: 2 }).tolist()).toEqual([20, 10, 20, 30, 45, 45, 45]);
  expect(await np.pad(x, [1, 1], { mode: 'minimum', statLength: [3, 1] }).tolist()).toEqual([10, 10, 20, 30, 45, 45]);
  expect(await np.pad(sl.array([1, 2], { dtype: 'int32' }), 1, { mode: 'mean' }).tolist()).toEqual([2, 1, 2, 2]); // 1.5 rounds to 2
  expect(await np.pad(sl.array([1, 4], { dtype: 'int32' }), 1, { mode: 'mean' }).tolist()).toEqual([2, 1, 4, 2]); // 2.5 rounds to 2
  const f = await np.pad(sl.array(X), [[1, 0], [0, 1]], { mode: 'mean' }).tolist();
  // axis 0 first (column means), then axis 1 over the grown array (row means)
  const cols = [5, 6, 7, 8];
  const rows = [cols, ...X].map((row) => [...row, row.reduce((a, b) => a + b) / 4]);
  close(f, rows, 'mean of each axis in turn', 1e-6);
});

test('linear_ramp from end_values to the edge (endpoint excluded) and per-side constants', async () => {
  const x = sl.array([[0, 1, 2], [3, 4, 5]]);
  const out = await np.pad(x, [[1, 2], [3, 1]], { mode: 'linear_ramp', endValues: [[-1, 1], [5, 6]] }).tolist();
  // float64: axis 0 ramps, then axis 1 over the result
  const ramp = (from, to, num) => Array.from({ length: num }, (_, i) => from + ((to - from) * i) / num);
  const a0 = [[0, 1, 2], [3, 4, 5]];
  const grown = [
    ...ramp(0, 1, 1).map(() => [0, 1, 2].map((c) => ramp(-1, a0[0][c], 1)[0])),
    ...a0,
    ...[1, 0].map((k) => [0, 1, 2].map((c) => ramp(1, a0[1][c], 2)[k])),
  ];
  const want = grown.map((row) => [...ramp(5, row[0], 3), ...row, ramp(6, row[2], 1)[0]]);
  close(out, want, 'linear_ramp', 1e-6);
  const c = await np.pad(sl.array([[1, 2]], { dtype: 'int32' }), [[1, 1], [1, 2]], { constantValues: [[7, 8], [-1, -2]] }).tolist();
  expect(c).toEqual([
    [-1, 7, 7, -2, -2],
    [-1, 1, 2, -2, -2],
    [-1, 8, 8, -2, -2],
  ]);
  expect(await np.pad(sl.array([1, 2], { dtype: 'int32' }), 2, { mode: 'empty' }).shape).toEqual([6]);
});

test('under jit, and the gradient of an index mode sums the cotangent over the positions each element fills', async () => {
  const f = sl.jit((v) => np.sum(np.multiply(np.pad(v, [2, 3], { mode: 'reflect' }), np.arange(8))));
  const v = sl.array([1, 2, 3]);
  const padded = [3, 2, 1, 2, 3, 2, 1, 2];
  expect(await (await f(v)).item()).toBe(padded.reduce((s, p, i) => s + p * i, 0));
  const g = await sl.grad((w) => np.sum(np.multiply(np.pad(w, [2, 3], { mode: 'reflect' }), np.arange(8))))(v).tolist();
  const want = [0, 0, 0];
  [2, 1, 0, 1, 2, 1, 0, 1].forEach((src, i) => (want[src] += i));
  expect(g).toEqual(want);
});

test("bad modes and widths name np.pad and what is valid", () => {
  const x = sl.array([1, 2]);
  expect(() => np.pad(x, 1, { mode: 'median' })).toThrow("np.pad: mode 'median' is not supported; give one of 'constant', 'edge'");
  expect(() => np.pad(x, -1)).toThrow('np.pad: pad_width -1 must hold non-negative integers');
  expect(() => np.pad(x, [[1, 1], [2, 2]])).toThrow('np.pad: pad_width has 2 entries for an array of rank 1');
  expect(() => np.pad(x, 1, { mode: 'reflect', reflectType: 'sideways' })).toThrow("np.pad: reflect_type is 'sideways'; give 'even' or 'odd'");
  expect(() => np.pad(np.zeros([0]), 1, { mode: 'edge' })).toThrow("np.pad: can't extend empty axis 0 using modes other than 'constant' or 'empty'");
  expect(() => np.pad(x, 1, { mode: 'mean', statLength: 0 })).toThrow('np.pad: stat_length of 0 yields no value for padding');
});
