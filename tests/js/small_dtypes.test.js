// float16, bfloat16, int8, uint8, int16 and uint16: JAX's promotion table
// (tests/dtypes_test.py of JAX 0.11, without x64),
// values rounded or wrapped to the dtype after every operation (against
// references worked out from each format's definition), eagerly, under jit
// and across devices; typed arrays, printing and errors.
import { beforeAll, expect, test } from 'vitest';
import * as sl from '../../web/lib/index.js';
import { promoteTypes } from '../../web/lib/dtypes.js';

const { np, lax } = sl;
beforeAll(() => sl.init());

// JAX 0.11's tests/dtypes_test.py, testObservedPromotionTable: the table
// expected without x64, the rows and columns of the dtypes ShardLab has (u1
// uint8, u2 uint16, u4 uint32, i1 int8, i2 int16, i4 int32, bf bfloat16, f2
// float16, f4 float32; i* and f* Python's int and float, weakly typed).
const COLS = ['b1', 'u1', 'u2', 'u4', 'i1', 'i2', 'i4', 'bf', 'f2', 'f4', 'i*', 'f*'];
const TABLE = {
  b1: ['b1', 'u1', 'u2', 'u4', 'i1', 'i2', 'i4', 'bf', 'f2', 'f4', 'i*', 'f*'],
  u1: ['u1', 'u1', 'u2', 'u4', 'i2', 'i2', 'i4', 'bf', 'f2', 'f4', 'u1', 'f*'],
  u2: ['u2', 'u2', 'u2', 'u4', 'i4', 'i4', 'i4', 'bf', 'f2', 'f4', 'u2', 'f*'],
  u4: ['u4', 'u4', 'u4', 'u4', 'i4', 'i4', 'i4', 'bf', 'f2', 'f4', 'u4', 'f*'],
  i1: ['i1', 'i2', 'i4', 'i4', 'i1', 'i2', 'i4', 'bf', 'f2', 'f4', 'i1', 'f*'],
  i2: ['i2', 'i2', 'i4', 'i4', 'i2', 'i2', 'i4', 'bf', 'f2', 'f4', 'i2', 'f*'],
  i4: ['i4', 'i4', 'i4', 'i4', 'i4', 'i4', 'i4', 'bf', 'f2', 'f4', 'i4', 'f*'],
  bf: ['bf', 'bf', 'bf', 'bf', 'bf', 'bf', 'bf', 'bf', 'f4', 'f4', 'bf', 'bf'],
  f2: ['f2', 'f2', 'f2', 'f2', 'f2', 'f2', 'f2', 'f4', 'f2', 'f4', 'f2', 'f2'],
  f4: ['f4', 'f4', 'f4', 'f4', 'f4', 'f4', 'f4', 'f4', 'f4', 'f4', 'f4', 'f4'],
  'i*': ['i*', 'u1', 'u2', 'u4', 'i1', 'i2', 'i4', 'bf', 'f2', 'f4', 'i*', 'f*'],
  'f*': ['f*', 'f*', 'f*', 'f*', 'f*', 'f*', 'f*', 'bf', 'f2', 'f4', 'f*', 'f*'],
};
// The table's names as avals: Python's int and float are weakly typed int32 and float32.
const AVAL = {
  b1: { dtype: 'bool', weak: false }, u1: { dtype: 'uint8', weak: false }, u2: { dtype: 'uint16', weak: false },
  u4: { dtype: 'uint32', weak: false }, i1: { dtype: 'int8', weak: false }, i2: { dtype: 'int16', weak: false },
  i4: { dtype: 'int32', weak: false }, bf: { dtype: 'bfloat16', weak: false },
  f2: { dtype: 'float16', weak: false }, f4: { dtype: 'float32', weak: false },
  'i*': { dtype: 'int32', weak: true }, 'f*': { dtype: 'float32', weak: true },
};

test("JAX's binary promotion table, every pair of dtypes here", () => {
  for (const [row, results] of Object.entries(TABLE)) {
    results.forEach((want, k) => {
      const col = COLS[k];
      expect(promoteTypes([AVAL[row], AVAL[col]]), `${row} x ${col}`).toEqual(AVAL[want]);
    });
  }
  // Through the API: result types of arrays, and of an array with a JS number (a weak float).
  const i8 = sl.array([1, 2], { dtype: 'int8' });
  expect(np.resultType(i8, sl.array([1], { dtype: 'uint8' }))).toBe('int16');
  expect(np.add(i8, 1.5).dtype).toBe('float32');
  expect(np.add(i8, 1.5).weakType).toBe(true);
  expect(np.add(sl.array([1], { dtype: 'bfloat16' }), sl.array([1], { dtype: 'float16' })).dtype).toBe('float32');
});

// float16's values from its definition: 1 sign bit, 5 exponent bits (bias
// 15), 10 mantissa bits; subnormals below 2^-14 in steps of 2^-24.
const F16 = (() => {
  const v = [];
  for (let e = 0; e < 31; e++) for (let m = 0; m < 1024; m++) v.push(e === 0 ? m * 2 ** -24 : (1 + m / 1024) * 2 ** (e - 15));
  return v;
})();
// The float16 nearest x (ties to the even mantissa), infinity from 65520 up.
function toFloat16(x) {
  const a = Math.abs(x);
  if (a >= 65520) return Math.sign(x) * Infinity;
  let k = F16.findIndex((v) => v >= a);
  if (k < 0) return Math.sign(x) * F16.at(-1); // between the largest and 65520
  if (F16[k] !== a && F16[k] - a > a - F16[k - 1]) k -= 1;
  else if (F16[k] !== a && F16[k] - a === a - F16[k - 1] && k % 2 === 1) k -= 1;
  return Math.sign(x) * F16[k] || 0;
}

test('float16 values are rounded to nearest even, overflowing to infinity, after every operation', async () => {
  const xs = [0.1, 1.1, -2.7, 65504, 65519, 65520, 1e-8, 3e-8, 1 / 3, 1000.3];
  const f = Math.fround;
  const got = await sl.array(xs, { dtype: 'float16' }).tolist();
  expect(got).toEqual(xs.map((x) => toFloat16(f(x))));
  // Each result rounded where it is made: 2048 + 1 is 2048 in float16, and (x * 3) / 3 differs from x.
  const x = sl.array([2048, 0.1, 1 / 3], { dtype: 'float16' });
  expect(await np.add(x, 1).tolist()).toEqual([2048, toFloat16(f(toFloat16(0.1) + 1)), toFloat16(f(toFloat16(1 / 3) + 1))]);
  const jitted = sl.jit((v) => np.divide(np.multiply(v, 3), 3));
  const want = (await x.tolist()).map((v) => toFloat16(f(toFloat16(f(v * 3)) / 3)));
  const out = await jitted(x);
  expect(await out.tolist()).toEqual(want);
  expect(out.dtype).toBe('float16');
});

test('bfloat16 keeps 8 significant bits', async () => {
  const x = sl.array([1, 1, 256], { dtype: 'bfloat16' });
  // 1 + 2^-8 is a tie between 1 and 1 + 2^-7: to even, 1; 1 + 2^-7 is itself; 256 + 1 is 256.
  expect(await np.add(x, sl.array([2 ** -8, 2 ** -7, 1], { dtype: 'bfloat16' })).tolist()).toEqual([1, 1 + 2 ** -7, 256]);
  expect(await sl.array([3.14159], { dtype: 'bfloat16' }).tolist()).toEqual([3.140625]);
});

test('narrow integers wrap as two-complement integers of their width, eagerly, under jit and across devices', async () => {
  const wrap8 = (v) => ((v + 128) & 255) - 128;
  const i8 = sl.array([127, -128, -5, 100], { dtype: 'int8' });
  expect(await np.add(i8, i8).tolist()).toEqual([127, -128, -5, 100].map((v) => wrap8(2 * v)));
  expect(await (await sl.jit((v) => np.multiply(v, v))(i8)).tolist()).toEqual([127, -128, -5, 100].map((v) => wrap8(v * v)));
  expect(await np.subtract(sl.array([3, 0], { dtype: 'uint8' }), 5).tolist()).toEqual([254, 251]);
  expect(await np.add(sl.array([32767], { dtype: 'int16' }), 1).tolist()).toEqual([-32768]);
  expect(await np.rightShift(sl.array([-5], { dtype: 'int8' }), 1).tolist()).toEqual([-3]); // arithmetic
  expect(await lax.shiftRightLogical(sl.array([-5], { dtype: 'int8' }), sl.array([1], { dtype: 'int8' })).tolist()).toEqual([125]);
  // psum over 8 devices of 100 each: 800 mod 256 = 32.
  const mesh = sl.makeMesh([8], ['i']);
  const summed = sl.shardMap((b) => lax.psum(b, 'i'), { mesh, inSpecs: sl.P('i'), outSpecs: sl.P() });
  expect(await (await summed(sl.array(new Array(8).fill(100), { dtype: 'int8' }))).tolist()).toEqual([32]);
  const halves = await (await summed(sl.array(new Array(8).fill(0.1), { dtype: 'float16' }))).tolist();
  expect(halves).toEqual([toFloat16(8 * toFloat16(0.1))]);
});

test('conversions: floats saturate into integers, integers wrap, typed arrays give their dtype', async () => {
  const x = sl.array([300.7, -300, -1.5, 2.9, NaN]);
  expect(await np.astype(x, 'int8').tolist()).toEqual([127, -128, -1, 2, 0]);
  expect(await np.astype(x, 'uint8').tolist()).toEqual([255, 0, 0, 2, 0]);
  expect(await np.astype(sl.array([300, -129], { dtype: 'int32' }), 'int8').tolist()).toEqual([44, 127]);
  const fromTyped = sl.array(Int8Array.of(1, -2));
  expect(fromTyped.dtype).toBe('int8');
  expect(sl.array(Uint16Array.of(7)).dtype).toBe('uint16');
  expect((await fromTyped.data()) instanceof Int32Array).toBe(true); // a narrow dtype's data comes in its lanes
  expect(await lax.bitcastConvertType(sl.array([1, -2], { dtype: 'float16' }), 'uint16').tolist()).toEqual([0x3c00, 0xc000]);
});

test('printing and errors name the dtypes as JAX does', async () => {
  const jaxpr = sl.makeJaxpr((v) => np.multiply(v, 0.1))(sl.array([1, 2], { dtype: 'float16' }));
  expect(jaxpr.toString()).toBe('{ lambda ; a:f16[2]. let b:f16[2] = mul a 0.0999755859375:f16[] in (b,) }');
  expect(() => lax.bitcastConvertType(sl.array([1]), 'int8')).toThrow(/converts between dtypes of one width/);
  expect(() => sl.random.uniform(sl.random.PRNGKey(0), [2], 'float16')).toThrow(/samples float32 only/);
});
