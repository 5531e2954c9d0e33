// linearTranspose (jax.linear_transpose): the transpose of a linear map
// against its matrix written out here (f(x) = 2x + A x transposes to
// 2ct + A^T ct, exactly for small integers in float32), several arguments
// and outputs, shapes from ShapeDtypeStruct-likes, inside jit, and JAX's
// errors for a non-linear function and integer inputs.
import { beforeAll, expect, test } from 'vitest';
import * as sl from '../../web/lib/index.js';

const { np } = sl;
beforeAll(() => sl.init());

const A = [[1, 2, 0], [0, -1, 3], [4, 0, 1]];
const f32 = (v) => sl.array(v, { dtype: 'float32' });

test('the transpose of a matrix map, of several arguments and outputs', async () => {
  const a = f32(A);
  const f = (x) => np.add(np.multiply(2, x), np.matmul(a, x));
  const ft = sl.linearTranspose(f, f32([0, 0, 0]));
  const ct = [1, -2, 5];
  const want = ct.map((_, j) => 2 * ct[j] + A.reduce((s, row, i) => s + row[j] * ct[i], 0));
  const [got] = ft(f32(ct));
  expect(await got.tolist()).toEqual(want);
  // (x, y) -> [x + y, 3x] transposes to (c1, c2) -> [c1 + 3 c2, c1]
  const g = (x, y) => [np.add(x, y), np.multiply(3, x)];
  const gt = sl.linearTranspose(g, { shape: [2], dtype: 'float32' }, { shape: [2], dtype: 'float32' });
  const [cx, cy] = gt([f32([1, 2]), f32([10, 20])]);
  expect([await cx.tolist(), await cy.tolist()]).toEqual([[31, 62], [1, 2]]);
  // each cotangent of its primal's type: bfloat16 from a weak (JS number) output cotangent
  const [cb] = sl.linearTranspose((v) => np.sum(v), np.ones([3], 'bfloat16'))(1);
  expect([cb.dtype, cb.weakType, await cb.tolist()]).toEqual(['bfloat16', false, [1, 1, 1]]);
  // inside jit
  const inJit = await sl.jit((c) => ft(c)[0])(f32(ct));
  expect(await inJit.tolist()).toEqual(want);
});

test("JAX's errors: a non-linear function, integer inputs", () => {
  expect(() => sl.linearTranspose((x) => np.multiply(x, x), f32([1]))(f32([1]))).toThrow('cannot transpose a product of two linear operands');
  expect(() => sl.linearTranspose((x) => np.sin(x), f32([1]))(f32([1]))).toThrow('sin');
  expect(() => sl.linearTranspose((x) => x, sl.array([1], { dtype: 'int32' }))).toThrow('linear_transpose only supports [float or complex] -> [float or complex]');
});
