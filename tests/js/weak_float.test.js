// weakFloat(v): a number typed as a float (Python's float), where the JS
// number 2 would be an int32. Python's jax sends every integral float as one;
// here the JS API's side: as an operand, a jit argument, a static option and
// a primitive's parameter it is a weak float32, its value unchanged.
import { beforeAll, expect, test } from 'vitest';
import * as sl from '../../web/lib/index.js';

beforeAll(async () => {
  await sl.init();
});

const ints = () => sl.array([1, 2, 3], { dtype: 'int32' });

test('as an operand it is a weak float32: an int32 array times weakFloat(2) is float32, times 2 int32', async () => {
  const y = sl.np.multiply(ints(), sl.weakFloat(2));
  expect(y.dtype).toBe('float32');
  expect(Array.from(await y.data())).toEqual([2, 4, 6]);
  expect(sl.np.multiply(ints(), 2).dtype).toBe('int32');
  expect(sl.np.add(sl.weakFloat(1), sl.weakFloat(2)).dtype).toBe('float32');
  // A weak float adopts a float array's dtype and takes an int array to float32, as in JAX.
  expect(sl.np.clip(ints(), sl.weakFloat(2), sl.weakFloat(2)).dtype).toBe('float32');
  expect(sl.array(sl.weakFloat(3)).dtype).toBe('float32');
});

test('traced, it is the literal 2.0:f32[]; as a jit argument a float32 input', async () => {
  const text = sl.makeJaxpr((x) => sl.np.multiply(x, sl.weakFloat(2)))(ints()).toString();
  expect(text).toContain('mul b 2.0:f32[]');
  const f = sl.jit((x, s) => sl.np.multiply(x, s));
  const y = await f(ints(), sl.weakFloat(3));
  expect(y.dtype).toBe('float32');
  expect(Array.from(await y.data())).toEqual([3, 6, 9]);
});

test("as a static option or a primitive's parameter it is its number", async () => {
  const x = sl.array([1, 2]);
  const got = sl.at(x, sl.array([0, 3], { dtype: 'int32' })).get({ mode: 'fill', fillValue: sl.weakFloat(-1) });
  expect(Array.from(await got.data())).toEqual([1, -1]);
  expect(Array.from(await sl.np.pad(x, 1, { constantValues: sl.weakFloat(7) }).data())).toEqual([7, 1, 2, 7]);
  expect(() => sl.weakFloat('2')).toThrow(/weakFloat: expected a number, got string/);
});

test("constructors type a scalar as jnp does: full of 2 is int32, of true bool, of weakFloat(2) float32; arange of a weak float is float32", async () => {
  expect(sl.np.full([2], 2).dtype).toBe('int32');
  expect(sl.np.full([2], true).dtype).toBe('bool');
  expect(sl.np.full([2], 2.5).dtype).toBe('float32');
  expect(sl.np.full([2], sl.weakFloat(2)).dtype).toBe('float32');
  expect(sl.np.full([2], 2, 'float32').dtype).toBe('float32');
  expect(sl.np.arange(5).dtype).toBe('int32');
  const a = sl.np.arange(0, 3, sl.weakFloat(1));
  expect(a.dtype).toBe('float32');
  expect(Array.from(await a.data())).toEqual([0, 1, 2]);
  expect(sl.np.linspace(sl.weakFloat(0), 1, 3).shape).toEqual([3]);
});
