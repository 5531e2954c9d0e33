// jnp's float functions (float_functions.js) against float64 formulas
// written here, their special values (NaN, infinities, signed zeros), weak
// types as JAX keeps them, and the derivatives of sinc at 0 (the Maclaurin
// coefficients -pi^2/3 and pi^4/5).
import { beforeAll, expect, test } from 'vitest';
import * as sl from '../../web/lib/index.js';
import { close } from './close.js';

const { np } = sl;
beforeAll(() => sl.init());

const X = [-3.5, -1, -0, 0, 0.25, 2, 7];
const Y = [2, -0.5, 3, -4, 0.25, NaN, -7];

test('fmax and fmin prefer numbers to NaN; copysign, hypot and heaviside follow their definitions', async () => {
  const x = sl.array(X);
  const y = sl.array(Y);
  const nanAware = (f) => X.map((a, i) => (Number.isNaN(Y[i]) ? a : Number.isNaN(a) ? Y[i] : f(a, Y[i])));
  expect(await np.fmax(x, y).tolist()).toEqual(nanAware(Math.max));
  expect(await np.fmin(x, y).tolist()).toEqual(nanAware(Math.min));
  expect(await np.fmax(sl.array([NaN, 1]), sl.array([NaN, NaN])).tolist()).toEqual([NaN, 1]);
  const signOf = (v) => (Object.is(v, -0) || v < 0 ? -1 : 1);
  expect(await np.copysign(x, y).tolist()).toEqual(X.map((a, i) => (Number.isNaN(Y[i]) ? Math.abs(a) : Math.abs(a) * signOf(Y[i]))));
  const h = await np.hypot(x, y).tolist();
  close(h.filter((_, i) => i !== 5), X.map((a, i) => Math.hypot(a, Y[i])).filter((_, i) => i !== 5), 'hypot', 1e-6);
  expect(h[5]).toBeNaN(); // hypot(2, NaN)
  // no overflow where x^2 would: 3e30 and 4e30 give 5e30
  const [big, inf] = await np.hypot(sl.array([3e30, Infinity]), sl.array([4e30, NaN])).tolist();
  close(big, 5e30, 'hypot large', 1e-6);
  expect(inf).toBe(Infinity); // an infinity wins over NaN, as JAX's
  expect(await np.heaviside(x, sl.array(Y.map(() => 0.5))).tolist()).toEqual(X.map((a) => (a < 0 ? 0 : a > 0 ? 1 : 0.5)));
  const weak = np.hypot(3, 4);
  expect([await weak.item(), weak.dtype, weak.weakType]).toEqual([5, 'float32', true]);
});

test('signbit reads the sign bit (-0.0 included); isposinf and isneginf; integers and bools never infinite', async () => {
  expect(await np.signbit(sl.array([-1.5, -0, 0, 1.5, -Infinity, Infinity])).tolist()).toEqual([true, true, false, false, true, false]);
  expect(await np.signbit(sl.array([-2, 0, 3], { dtype: 'int32' })).tolist()).toEqual([true, false, false]);
  expect(await np.signbit(sl.array([true, false], { dtype: 'bool' })).tolist()).toEqual([false, false]);
  const inf = sl.array([-Infinity, 5, Infinity, NaN]);
  expect(await np.isposinf(inf).tolist()).toEqual([false, false, true, false]);
  expect(await np.isneginf(inf).tolist()).toEqual([true, false, false, false]);
  const never = np.isposinf(sl.array([1, 2], { dtype: 'int32' }));
  expect([await never.tolist(), never.weakType]).toEqual([[false, false], false]);
});

test('deg2rad, rad2deg, fabs and logaddexp2 against float64', async () => {
  const deg = [0, 30, 90, 180, -270];
  close(await np.deg2rad(sl.array(deg, { dtype: 'int32' })).tolist(), deg.map((d) => (d * Math.PI) / 180), 'deg2rad', 1e-6);
  close(await np.rad2deg(sl.array([0.5, -2])).tolist(), [0.5, -2].map((r) => (r * 180) / Math.PI), 'rad2deg', 1e-6);
  expect(await np.fabs(sl.array([-5, 3], { dtype: 'int32' })).tolist()).toEqual([5, 3]);
  expect(np.fabs(sl.array([-5, 3], { dtype: 'int32' })).dtype).toBe('float32');
  const [a, b] = [[3, -1, 400, -400], [2, 3, 401, -500]];
  close(await np.logaddexp2(sl.array(a), sl.array(b)).tolist(), a.map((u, i) => Math.max(u, b[i]) + Math.log2(1 + 2 ** -Math.abs(u - b[i]))), 'logaddexp2', 1e-5);
});

test('sinc is 1 at 0 with finite derivatives of every order there, sin(pi x) / (pi x) elsewhere', async () => {
  const xs = [-1.5, -0.5, 0, 0.3, 2];
  close(await np.sinc(sl.array(xs)).tolist(), xs.map((v) => (v === 0 ? 1 : Math.sin(Math.PI * v) / (Math.PI * v))), 'sinc', 1e-6);
  let f = (x) => np.sinc(x);
  const at0 = [];
  for (let i = 0; i < 4; i++) {
    f = sl.grad(f);
    at0.push(await f(sl.array(0)).item());
  }
  // sinc(x) = sum (-1)^k (pi x)^(2k) / (2k+1)!: f'(0) = 0, f''(0) = -pi^2/3, f'''(0) = 0, f''''(0) = pi^4/5
  close(at0, [0, -(Math.PI ** 2) / 3, 0, Math.PI ** 4 / 5], 'derivatives at 0', 1e-4);
  // away from 0 the derivative is the quotient's: d/dx sin(pi x)/(pi x) at 0.3
  const x = 0.3;
  const want = (Math.PI * x * Math.cos(Math.PI * x) - Math.sin(Math.PI * x)) / (Math.PI * x * x);
  close(await sl.grad((v) => np.sinc(v))(sl.array(x)).item(), want, 'derivative at 0.3', 1e-5);
});
