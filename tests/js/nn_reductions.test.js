// nn.silu / swish, softplus, elu, leakyRelu, oneHot, logsumexp and
// standardize, np.var / std with ddof, countNonzero, roll, split and
// arraySplit: values against float64 formulas written out here (within
// 1e-6 relative), gradients where they matter (softplus at 0, logsumexp is
// softmax), large inputs that must not overflow, and JAX's errors.
import { beforeAll, expect, test } from 'vitest';
import * as sl from '../../web/lib/index.js';
import { close } from './close.js';

const { np, nn } = sl;
beforeAll(() => sl.init());
const sig = (t) => 1 / (1 + Math.exp(-t));

test('activations against float64 formulas; softplus and logsumexp do not overflow', async () => {
  const xs = [-3, -1, 0, 0.5, 2];
  close(await nn.silu(sl.array(xs)).tolist(), xs.map((t) => t * sig(t)), 'silu', 1e-6);
  expect(nn.swish).toBe(nn.silu);
  close(await nn.softplus(sl.array(xs)).tolist(), xs.map((t) => Math.log1p(Math.exp(t))), 'softplus', 1e-6);
  expect(await nn.softplus(sl.array([-200, 200])).tolist()).toEqual([0, 200]);
  close(await nn.elu(sl.array(xs)).tolist(), xs.map((t) => (t > 0 ? t : Math.expm1(t))), 'elu', 1e-6);
  close(await nn.elu(sl.array(xs), 2).tolist(), xs.map((t) => (t > 0 ? t : 2 * Math.expm1(t))), 'elu alpha', 1e-6);
  close(await nn.leakyRelu(sl.array(xs)).tolist(), xs.map((t) => (t >= 0 ? t : 0.01 * t)), 'leaky', 1e-6);
  // d softplus / dx = sigmoid(x), 0.5 at 0
  close(await sl.vmap(sl.grad(nn.softplus))(sl.array(xs)).tolist(), xs.map(sig), 'softplus grad', 1e-6);
  expect(await nn.logsumexp(sl.array([[1, 2], [3, 1000]]), { axis: 1 }).tolist()).toEqual([Math.fround(2 + Math.log1p(Math.exp(-1))), 1000]);
  expect(await nn.logsumexp(sl.array([-Infinity, -Infinity])).item()).toBe(-Infinity);
  expect(nn.logsumexp(sl.array([[1, 2]]), { axis: 1, keepdims: true }).shape).toEqual([1, 1]);
  const g = await sl.grad((v) => nn.logsumexp(v))(sl.array([0, Math.log(3)]));
  close(await g.tolist(), [0.25, 0.75], 'logsumexp grad is softmax', 1e-6);
});

test('np.logaddexp is a custom_jvp function as JAX\'s: exact values, infinities, and softplus\'s second derivative sigma(1 - sigma), 1/4 at 0', async () => {
  const [a, b] = [[0, 1, -3, 1000, -1000, 5], [0, 2, 4, 1000, 3, -Infinity]];
  const want = a.map((x, i) => Math.max(x, b[i]) + Math.log1p(Math.exp(-Math.abs(x - b[i]))));
  close(await np.logaddexp(sl.array(a), sl.array(b)).tolist(), want, 'logaddexp', 1e-6);
  expect(await np.logaddexp(sl.array([-Infinity, Infinity]), sl.array([-Infinity, Infinity])).tolist()).toEqual([-Infinity, Infinity]);
  expect(np.logaddexp(1, 2).dtype).toBe('float32');
  // d/dx logaddexp(x, inf) = e^(x - inf) read as e^(x - 0): JAX's _replace_inf keeps it finite.
  expect(Number.isFinite(await sl.grad((x) => np.logaddexp(x, Infinity))(1).item())).toBe(true);
  const xs = [-2, -1e-3, 0, 1e-3, 3];
  const second = sl.vmap(sl.grad(sl.grad(nn.softplus)));
  close(await second(sl.array(xs)).tolist(), xs.map((t) => sig(t) * (1 - sig(t))), 'softplus second derivative', 1e-6);
  const text = sl.makeJaxpr(nn.softplus)(sl.array([1])).toString();
  expect(text).toMatch(/custom_jvp_call\[\s+name=logaddexp/);
  expect(text).toContain('jvp=logaddexp_jvp');
  expect(text).toContain('0.0:f32[]');
});

test('oneHot and standardize as jax.nn', async () => {
  expect(await nn.oneHot(sl.array([0, 2, 5, -1], { dtype: 'int32' }), 3).tolist()).toEqual([[1, 0, 0], [0, 0, 1], [0, 0, 0], [0, 0, 0]]);
  expect(nn.oneHot(sl.array([1], { dtype: 'int32' }), 4, { dtype: 'int32' }).dtype).toBe('int32');
  expect(() => nn.oneHot(sl.array([1]), 2.5)).toThrow('nn.oneHot: numClasses is 2.5; it must be a non-negative integer');
  const x = [[1, 2, 3], [2, 4, 9]];
  const want = x.map((r) => {
    const m = r.reduce((a, b) => a + b) / 3;
    const v = r.reduce((a, b) => a + b * b, 0) / 3 - m * m;
    return r.map((t) => (t - m) / Math.sqrt(v + 1e-5));
  });
  close(await nn.standardize(sl.array(x)).tolist(), want, 'standardize', 1e-5);
  close(await nn.standardize(sl.array(x), { mean: 0, variance: 1, epsilon: 0 }).tolist(), x, 'given moments', 1e-6);
});

test('var and std with ddof, countNonzero', async () => {
  const m = [[1, 2, 3], [4, 5, 7]];
  const flat = m.flat(), mu = flat.reduce((a, b) => a + b) / 6, ss = flat.reduce((a, b) => a + (b - mu) ** 2, 0);
  close(await np.var(sl.array(m)).item(), ss / 6, 'var', 1e-6);
  close(await np.var(sl.array(m), { ddof: 1 }).item(), ss / 5, 'var ddof', 1e-6);
  const rowStd = (r) => {
    const k = r.reduce((a, b) => a + b) / 3;
    return Math.sqrt(r.reduce((a, b) => a + (b - k) ** 2, 0) / 2);
  };
  close(await np.std(sl.array(m), { axis: 1, ddof: 1 }).tolist(), m.map(rowStd), 'std', 1e-6);
  expect(np.std(sl.array(m), { axis: 1, keepdims: true }).shape).toEqual([2, 1]);
  expect(await np.countNonzero(sl.array([[0, 1], [2, 3]]), 0).tolist()).toEqual([1, 2]);
  expect(await np.countNonzero(sl.array([true, false, true])).item()).toBe(2);
});

test('roll, split and arraySplit against index arithmetic', async () => {
  const a = [0, 1, 2, 3, 4, 5, 6];
  for (const s of [-9, -1, 0, 2, 7, 10]) {
    expect(await np.roll(sl.array(a), s).tolist()).toEqual(a.map((_, i) => a[(((i - s) % 7) + 7) % 7]));
  }
  expect(await np.roll(sl.array([[1, 2, 3], [4, 5, 6]]), [1, -1], [0, 1]).tolist()).toEqual([[5, 6, 4], [2, 3, 1]]);
  const parts = async (ps) => Promise.all(ps.map((p) => p.tolist()));
  expect(await parts(np.split(sl.array(a.slice(0, 6)), 3))).toEqual([[0, 1], [2, 3], [4, 5]]);
  expect(await parts(np.split(sl.array(a), [2, -2]))).toEqual([[0, 1], [2, 3, 4], [5, 6]]);
  expect(await parts(np.split(sl.array([[1, 2], [3, 4]]), 2, 1))).toEqual([[[1], [3]], [[2], [4]]]);
  expect(() => np.split(sl.array(a), 2)).toThrow('array split does not result in an equal division');
  expect(await parts(np.arraySplit(sl.array(a), 3))).toEqual([[0, 1, 2], [3, 4], [5, 6]]);
});
