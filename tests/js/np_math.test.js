// np's elementwise math (sin, cos, tan, arcsin, arccos, arctan, arctan2,
// sinh, cosh, log1p, expm1, exp2, log2, log10, ceil, trunc, reciprocal,
// isnan, isinf, isfinite, nanToNum), argmax, argmin and cumsum: values
// against JS's float64 Math within 1e-6 relative (float32 rounding) or exact
// ones, derivatives against the float64 analytic ones within 1e-5, vmap
// against the unbatched call, and the printed program under JAX's primitive
// names (jnp.arcsin prints asin).
import { beforeAll, expect, test } from 'vitest';
import * as sl from '../../web/lib/index.js';
import { close } from './close.js';

const { np } = sl;
beforeAll(() => sl.init());

// name: [reference, derivative, points inside the domain]
const UNARY = {
  sin: [Math.sin, Math.cos, [-2, -0.5, 0, 1.75]],
  cos: [Math.cos, (x) => -Math.sin(x), [-2, -0.5, 0, 1.75]],
  tan: [Math.tan, (x) => 1 + Math.tan(x) ** 2, [-1, -0.5, 0, 0.75]],
  arcsin: [Math.asin, (x) => 1 / Math.sqrt(1 - x * x), [-0.9, -0.5, 0, 0.75]],
  arccos: [Math.acos, (x) => -1 / Math.sqrt(1 - x * x), [-0.9, -0.5, 0, 0.75]],
  arctan: [Math.atan, (x) => 1 / (1 + x * x), [-2, -0.5, 0, 1.75]],
  sinh: [Math.sinh, Math.cosh, [-2, -0.5, 0, 1.75]],
  cosh: [Math.cosh, Math.sinh, [-2, -0.5, 0, 1.75]],
  log1p: [Math.log1p, (x) => 1 / (1 + x), [1e-7, 0.25, 1, 9]],
  expm1: [Math.expm1, Math.exp, [-2, 1e-7, 0, 1.75]],
  exp2: [(x) => 2 ** x, (x) => 2 ** x * Math.LN2, [-2, -0.5, 0, 1.75]],
  log2: [Math.log2, (x) => 1 / (x * Math.LN2), [0.25, 1, 2.5, 9]],
  log10: [Math.log10, (x) => 1 / (x * Math.LN10), [0.25, 1, 2.5, 9]],
  reciprocal: [(x) => 1 / x, (x) => -1 / (x * x), [-2, -0.5, 0.25, 1.75]],
};

test('values against float64 Math, derivatives against the analytic ones', async () => {
  for (const [name, [ref, deriv, xs]] of Object.entries(UNARY)) {
    const got = await np[name](sl.array(xs)).tolist();
    close(got, xs.map(ref), name, 1e-6);
    const g = await sl.jit(sl.grad((x) => np.sum(np[name](x))))(sl.array(xs));
    close(await g.tolist(), xs.map(deriv), `d ${name}`, 1e-5);
  }
  // log1p and expm1 keep their precision where 1 + x rounds to 1 in float32.
  expect(await np.log1p(sl.array(1e-10)).item()).toBeCloseTo(1e-10, 16);
  expect(await np.expm1(sl.array(1e-10)).item()).toBeCloseTo(1e-10, 16);
});

test('ceil and trunc round as JAX does; their derivatives are zero', async () => {
  const xs = [-1.5, -0.25, 0, 2, 2.5, -3];
  expect(await np.ceil(sl.array(xs)).tolist()).toEqual(xs.map(Math.ceil)); // ceil(-0.25) is -0, as IEEE and JAX
  expect(await np.trunc(sl.array(xs)).tolist()).toEqual(xs.map(Math.trunc));
  expect(await sl.grad((x) => np.sum(np.ceil(x)))(sl.array(xs)).tolist()).toEqual(xs.map(() => 0));
});

test('arctan2 in every quadrant, its gradient, and broadcasting', async () => {
  const y = [1, 1, -1, -1, 0, 2], x = [1, -1, -1, 1, -2, 0];
  close(await np.arctan2(sl.array(y), sl.array(x)).tolist(), y.map((v, i) => Math.atan2(v, x[i])), 'atan2', 1e-6);
  const [gy, gx] = await sl.grad((a, b) => np.sum(np.arctan2(a, b)), { argnums: [0, 1] })(sl.array([1, 2]), sl.array([3, -1]));
  // d/dy atan2(y, x) = x / (x^2 + y^2), d/dx = -y / (x^2 + y^2)
  close(await gy.tolist(), [3 / 10, -1 / 5], 'd/dy', 1e-6);
  close(await gx.tolist(), [-1 / 10, -2 / 5], 'd/dx', 1e-6);
  close(await np.arctan2(sl.array([1, -1]), 2).tolist(), [Math.atan2(1, 2), Math.atan2(-1, 2)], 'broadcast', 1e-6);
});

test('vmap of each function is the function of the batch; printed under JAX primitive names', async () => {
  const xs = [[0.1, 0.2], [0.3, -0.4]];
  for (const name of ['sin', 'arcsin', 'expm1', 'ceil']) {
    expect(await sl.vmap(np[name])(sl.array(xs)).tolist()).toEqual(await np[name](sl.array(xs)).tolist());
  }
  const text = sl.makeJaxpr((x) => np.arcsin(np.sin(np.log1p(x))))(sl.array([0.5])).toString();
  expect(text).toBe(
    [
      '{ lambda ; a:f32[1]. let',
      '    b:f32[1] = log1p a',
      '    c:f32[1] = sin b',
      '    d:f32[1] = asin c',
      '  in (d,) }',
    ].join('\n'),
  );
});

test('isnan, isinf, isfinite and nanToNum, as jnp (isnan is x != x, isinf |x| == inf)', async () => {
  const v = sl.array([1, NaN, Infinity, -Infinity]);
  expect(await np.isnan(v).tolist()).toEqual([false, true, false, false]);
  expect(await np.isinf(v).tolist()).toEqual([false, false, true, true]);
  expect(await np.isfinite(v).tolist()).toEqual([true, false, false, false]);
  expect(await np.isfinite(sl.array([1, 2], { dtype: 'int32' })).tolist()).toEqual([true, true]);
  const max = 3.4028234663852886e38; // the largest finite float32
  expect(await np.nanToNum(v).tolist()).toEqual([1, 0, max, -max]);
  expect(await np.nanToNum(v, { nan: -1, posinf: 9 }).tolist()).toEqual([1, -1, 9, -max]);
  const text = sl.makeJaxpr((x) => [np.isnan(x), np.isinf(x), np.isfinite(x)])(sl.array([1])).toString();
  expect(text).toContain('b:bool[1] = ne a a');
  expect(text).toContain('c:f32[1] = abs a');
  expect(text).toContain('d:bool[1] = eq c inf:f32[]');
  expect(text).toContain('e:bool[1] = is_finite a');
});

test('argmax, argmin and cumsum as jnp: the flattened array by default, axis, keepdims, ties, NaN, gradients', async () => {
  const x = sl.array([[3, 1, 4, 4], [-2, NaN, 7, 7]]);
  expect(await np.argmax(x).item()).toBe(5); // the first NaN of the flattened array, as XLA
  expect(await np.argmax(x, 1).tolist()).toEqual([2, 1]);
  expect(await np.argmin(x, { axis: 0 }).tolist()).toEqual([1, 1, 0, 0]); // column 1 holds a NaN
  expect(await np.argmin(x, { axis: -1, keepdims: true }).tolist()).toEqual([[1], [1]]);
  expect(np.argmax(x, 1).dtype).toBe('int32');
  expect(await np.cumsum(sl.array([[1, 2], [3, 4]])).tolist()).toEqual([1, 3, 6, 10]);
  expect(await np.cumsum(sl.array([[1, 2], [3, 4]]), 0).tolist()).toEqual([[1, 2], [4, 6]]);
  expect(await sl.lax.cumsum(sl.array([1, 2, 3]), { reverse: true }).tolist()).toEqual([6, 5, 3]);
  expect(await np.cumsum(sl.array([true, false, true])).tolist()).toEqual([1, 1, 2]);
  // d/dx_j sum_i w_i cumsum(x)_i = sum_{i >= j} w_i
  const g = await sl.grad((v) => np.sum(np.multiply(np.cumsum(v), sl.array([1, 2, 3]))))(sl.array([0.5, -1, 2]));
  expect(await g.tolist()).toEqual([6, 5, 3]);
  expect(await sl.vmap((r) => np.argmax(r))(sl.array([[1, 5, 2], [9, 0, 3]])).tolist()).toEqual([1, 0]);
  expect(sl.makeJaxpr((v) => np.cumsum(v, 0))(sl.array([1, 2])).toString()).toContain('cumsum[axis=0 reverse=False] a');
});
