// jax.lax's slicing helpers along one axis, reshape, broadcast, stack,
// tile and concatenate, against index arithmetic written here: negative and null bounds,
// strides, dynamic starts traced under jit and clamped into range as XLA's
// dynamic slices are, and their errors.
import { beforeAll, expect, test } from 'vitest';
import * as sl from '../../web/lib/index.js';

const { lax, np } = sl;
beforeAll(() => sl.init());

const int = (x) => sl.array(x, { dtype: 'int32' });
const X = [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]];

test('slice_in_dim and index_in_dim: bounds from either end, strides, keepdims', async () => {
  expect(await lax.sliceInDim(int(X), 1, 3).tolist()).toEqual(X.slice(1, 3));
  expect(await lax.sliceInDim(int(X), -3, null, 2, 1).tolist()).toEqual(X.map((r) => [r[1], r[3]]));
  expect(await lax.sliceInDim(int(X), null, -1, 1, 1).tolist()).toEqual(X.map((r) => r.slice(0, 3)));
  expect(await lax.indexInDim(int(X), -1).tolist()).toEqual([X[2]]);
  expect(await lax.indexInDim(int(X), 2, 1, false).tolist()).toEqual(X.map((r) => r[2]));
  expect(() => lax.indexInDim(int(X), 3)).toThrow('lax.index_in_dim: index 3 is out of bounds for axis 0 with size 3');
});

test('the dynamic ones take traced starts and clamp them, as XLA', async () => {
  const at = sl.jit((x, i) => [lax.dynamicSliceInDim(x, i, 2, 1), lax.dynamicIndexInDim(x, i, 0, false)]);
  for (const i of [0, 1, 2, 5, -4]) {
    const [s, r] = await at(int(X), int(i));
    const col = Math.min(Math.max(i, 0), 2); // a slice of 2 of 4 columns starts at 0..2
    const row = Math.min(Math.max(i, 0), 2);
    expect(await s.tolist(), `start ${i}`).toEqual(X.map((rw) => rw.slice(col, col + 2)));
    expect(await r.tolist(), `index ${i}`).toEqual(X[row]);
  }
  const z = np.zeros([6]);
  expect(await lax.dynamicUpdateSliceInDim(z, np.ones([3]), 5, 0).tolist()).toEqual([0, 0, 0, 1, 1, 1]);
  expect(await lax.dynamicUpdateIndexInDim(z, 1, 2, 0).tolist()).toEqual([0, 0, 1, 0, 0, 0]);
  expect(await lax.dynamicUpdateIndexInDim(np.zeros([3, 2]), np.ones([2]), 1, 0).tolist()).toEqual([[0, 0], [1, 1], [0, 0]]);
});

test('reshape with dimensions, broadcast, stack and tile', async () => {
  const y = int([[0, 1, 2], [3, 4, 5]]);
  expect(await lax.reshape(y, [6]).tolist()).toEqual([0, 1, 2, 3, 4, 5]);
  expect(await lax.reshape(y, [6], [1, 0]).tolist()).toEqual([0, 3, 1, 4, 2, 5]);
  const b = lax.broadcast(int([1, 2]), [2, 3]);
  expect([b.shape, (await b.tolist())[1][2]]).toEqual([[2, 3, 2], [1, 2]]);
  expect(await lax.stack([int([1, 2]), int([3, 4])], 1).tolist()).toEqual([[1, 3], [2, 4]]);
  expect(await lax.tile(int([[1], [2]]), [1, 3]).tolist()).toEqual([[1, 1, 1], [2, 2, 2]]);
});

test('concatenate joins operands of one dtype along a dimension, and refuses mixed dtypes as JAX does', async () => {
  expect(await lax.concatenate([int(X), int([[12, 13, 14, 15]])], 0).tolist()).toEqual([...X, [12, 13, 14, 15]]);
  expect(await lax.concatenate([int(X), int(X.map((r) => [r[0]]))], 1).tolist()).toEqual(X.map((r) => [...r, r[0]]));
  expect(() => lax.concatenate([int([1]), sl.array([2])], 0)).toThrow(
    'lax.concatenate requires arguments to have the same dtypes, got int32, float32. (Tip: jnp.concatenate is a similar function that does automatic type promotion on inputs).',
  );
  expect(() => lax.concatenate([], 0)).toThrow('concatenate requires a non-empty sequences of arrays');
});
