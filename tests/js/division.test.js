// np.floorDivide and np.remainder (Python's // and %), np.fmod, np.floor and
// np.round, against references computed here in float64 from their
// definitions: floored division, the remainder with the divisor's sign,
// consistent with each other (x == y * (x // y) + x % y), for float32 and
// int32, negative operands and exact multiples; from Python the operators.
import { beforeAll, expect, test } from 'vitest';
import * as sl from '../../web/lib/index.js';
import { runPython, warmPython } from './python_env.js';

const { np } = sl;
beforeAll(() => sl.init());

const xs = [7.5, -7.5, 7.5, -7.5, 6, -6, 0, 5.25, -0.5, 1e6 + 0.5];
const ys = [2, 2, -2, -2, 3, 3, 3, 0.5, 4, 3];
const floorDiv = (x, y) => Math.floor(x / y);
const mod = (x, y) => x - y * Math.floor(x / y);

test('float32: floorDivide and remainder are floored division, consistent with each other', async () => {
  const x = sl.array(xs);
  const y = sl.array(ys);
  const q = await np.floorDivide(x, y).data();
  const r = await np.remainder(x, y).data();
  xs.forEach((xi, i) => {
    const fx = Math.fround(xi);
    expect(q[i], `${xi} // ${ys[i]}`).toBe(floorDiv(fx, ys[i]));
    // A zero remainder keeps x's sign, as C's fmod and JAX's remainder do (numpy's is +0): compare values.
    expect(r[i] + 0, `${xi} % ${ys[i]}`).toBe(Math.fround(mod(fx, ys[i])) + 0);
    expect(Math.fround(ys[i] * q[i] + r[i])).toBe(fx);
  });
  const f = await np.fmod(x, y).data();
  xs.forEach((xi, i) => expect(f[i]).toBe(Math.fround(Math.fround(xi) % ys[i]))); // JS % truncates, like C's fmod
});

test('int32: floored division and remainder', async () => {
  const a = [7, -7, 7, -7, 6, -6, 0, 2147483647];
  const b = [2, 2, -2, -2, 3, -3, 5, 10];
  const x = sl.array(a, { dtype: 'int32' });
  const y = sl.array(b, { dtype: 'int32' });
  const q = np.floorDivide(x, y);
  expect(q.dtype).toBe('int32');
  expect(Array.from(await q.data())).toEqual(a.map((v, i) => floorDiv(v, b[i])));
  expect(Array.from(await np.remainder(x, y).data())).toEqual(a.map((v, i) => mod(v, b[i])));
});

test('floor rounds down; round takes halves to even, as jnp.round; both print as JAX does', async () => {
  const v = [-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 2.7, -2.2];
  expect(Array.from(await np.floor(sl.array(v)).data())).toEqual(v.map(Math.floor));
  expect(Array.from(await np.round(sl.array(v)).data())).toEqual([-2, -2, -0, 0, 2, 2, 3, -2]);
  expect(sl.makeJaxpr((x) => np.round(np.floor(x)))(sl.array(v)).toString()).toMatch(/floor a\n.*round\[rounding_method=1\] b/);
});

test('from Python: x // y and x % y on arrays and Python numbers, under jit too', async () => {
  await warmPython();
  const out = await runPython(`
import jax
import jax.numpy as jnp
f = jax.jit(lambda x, y: (x // y, x % y, 7 // y, x % 2.0))
q, r, s, t = f(jnp.array([7.5, -7.5]), jnp.array([2.0, 2.0]))
str(jax.make_jaxpr(lambda x, y: x // y)(jnp.array([7, -7]), jnp.array([2, 2]))).count("div"), q.shape, q.dtype.name
`);
  expect(out).toBe("(1, (2,), 'float32')");
}, 120000);
