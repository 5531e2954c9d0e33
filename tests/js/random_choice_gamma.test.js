// sl.random.choice, gamma and loggamma against JAX 0.11. No JAX runs here and
// JAX records no values of these samplers under its default
// jax_threefry_partitionable=True (random_test.py's testRandomDistributionValues
// holds only with it off), so the expected values come from:
//  - a reference written here from JAX's source (jax/_src/random/core.py:
//    choice, _gamma_one, _gamma_impl) over the threefry2x32 block function
//    (checked against Random123's known answers in random.test.js), in float32
//    arithmetic: bitwise for choice's indices; gamma within a few float32 ulp
//    (its normal draws go through erf_inv and its tests through log, whose
//    float32 roundings may differ from float64's rounded by an ulp or two);
//  - the facts JAX's tests assert (tests/random_lax_test.py at jax-v0.11.0):
//    testChoice (shapes, dtypes, distinct draws without replacement, jit
//    equals eager), testChoiceShapeIsNotSequenceError, testGammaShape,
//    testGammaVsLogGamma (exp(loggamma) = gamma within 1e-6), testGammaGrad
//    (the gradient is -(dP/da) / pdf, P the gamma CDF, within rtol 7e-4,
//    here with P in float64 instead of scipy), testGammaGradType (vjp of a
//    gamma sample divided by a second argument);
//  - statistics: choice's frequencies against p, gamma's mean and variance
//    (both a), each within 5 standard errors.
import { beforeAll, expect, test } from 'vitest';
import * as sl from '../../web/lib/index.js';
import { refBits, refSplit, f32, refUniform, refRandint, erfinv } from './random_reference.js';

const { random, np, lax } = sl;
beforeAll(() => sl.init());

const BELOW_MINUS_ONE = -0.9999999403953552; // nextafter(-1, 0) in float32
const refNormal = (key) => f32(f32(Math.SQRT2) * f32(erfinv(refUniform(key, 1, BELOW_MINUS_ONE, 1)[0])));
const flog = (x) => f32(Math.log(x));

// JAX's _gamma_one in float32: Marsaglia and Tsang's rejection, with JAX's keys and operation order.
function refGammaOne(key, alpha, logSpace) {
  const third = f32(1 / 3);
  const boost = alpha >= 1;
  const a = boost ? alpha : f32(alpha + 1);
  const d = f32(a - third);
  const c = f32(third / f32(Math.sqrt(d)));
  let [loopKey, boostKey] = refSplit(key, 2);
  let [X, V, U] = [0, 1, 2];
  const rejected = () => U >= f32(1 - f32(f32(0.0331) * f32(X * X))) && flog(U) >= f32(f32(X * 0.5) + f32(d * f32(f32(1 - V) + flog(V))));
  while (rejected()) {
    const [next, xKey, uKey] = refSplit(loopKey, 3);
    let [kx, x, v] = [xKey, 0, -1];
    while (v <= 0) {
      const [n2, sub] = refSplit(kx, 2);
      x = refNormal(sub);
      v = f32(1 + f32(x * c));
      kx = n2;
    }
    [X, V, U] = [f32(x * x), f32(f32(v * v) * v), refUniform(uKey, 1)[0]];
    loopKey = next;
  }
  const u = refUniform(boostKey, 1)[0];
  if (logSpace) {
    const logSample = f32(Math.log1p(-u));
    const logBoost = boost || logSample === 0 ? 0 : f32(logSample * f32(1 / alpha));
    return f32(f32(flog(d) + flog(V)) + logBoost);
  }
  const b = boost ? 1 : f32(Math.pow(f32(1 - u), f32(1 / alpha)));
  return f32(f32(d * V) * b);
}
// _gamma_impl: element i drawn with split(key, n)[i].
const refGamma = (key, alphas, logSpace = false) => refSplit(key, alphas.length).map((k, i) => refGammaOne(k, f32(alphas[i]), logSpace));

const ulp = (v) => {
  const a = Math.abs(f32(v));
  const next = new Float32Array(Uint32Array.of(new Uint32Array(Float32Array.of(a).buffer)[0] + 1).buffer)[0];
  return next - a;
};
const list = async (x) => x.tolist();
const keyOf = async (seed) => list(random.PRNGKey(seed));
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const variance = (xs) => {
  const m = mean(xs);
  return xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1);
};

// ---- choice ----

test('choice without p: randint indices with replacement, the first of a permutation without, bit for bit', async () => {
  for (const seed of [0, 7]) {
    const key = await keyOf(seed);
    const k = random.PRNGKey(seed);
    expect(await list(random.choice(k, 10, [6]))).toEqual(refRandint(key, 6, 0, 10));
    expect(await list(random.choice(k, 10, [2, 3]))).toEqual([refRandint(key, 6, 0, 10).slice(0, 3), refRandint(key, 6, 0, 10).slice(3)]);
    // replace=False: permutation(key, 10)[:4], one sort of range(10) by the bits of split(key)[1]
    const [, sub] = refSplit(key, 2);
    const sortKeys = refBits(sub, 10);
    const order = Array.from({ length: 10 }, (_, i) => i).sort((a, b) => sortKeys[a] - sortKeys[b] || a - b);
    expect(await list(random.choice(k, 10, [4], false))).toEqual(order.slice(0, 4));
    // an array a: its slices along axis at those indices, the sample's shape in place of the axis
    const a = np.reshape(np.arange(30), [3, 10]);
    const rows = await list(a);
    const picked = await list(random.choice(k, a, [2, 2], true, null, 1));
    const idx = refRandint(key, 4, 0, 10);
    expect(picked).toEqual(rows.map((r) => [[r[idx[0]], r[idx[1]]], [r[idx[2]], r[idx[3]]]]));
    expect(await list(random.choice(k, a, [4], false, null, -1))).toEqual(rows.map((r) => order.slice(0, 4).map((i) => r[i])));
  }
});

test('choice with p: searchsorted of cumsum(p) at cumsum(p)[-1] (1 - u) with replacement, the Gumbel top-k without, bit for bit', async () => {
  const p = [0.1, 0.05, 0.3, 0, 0.25, 0.3];
  const cum = [];
  p.reduce((s, v) => (cum.push(f32(s + f32(v))), f32(s + f32(v))), 0);
  const tiny = 1.1754943508222875e-38;
  for (const seed of [1, 2]) {
    const key = await keyOf(seed);
    const k = random.PRNGKey(seed);
    const r = refUniform(key, 40).map((u) => f32(cum[5] * f32(1 - u)));
    expect(await list(random.choice(k, 6, [40], true, p))).toEqual(r.map((v) => cum.filter((c) => c < v).length));
    // the k largest of -log(-log(u)) + log(p), u uniform in [tiny, 1): p = 0 is -inf, never drawn while others remain
    const g = refUniform(key, 6, tiny, 1).map((u, i) => -Math.log(-Math.log(u)) + Math.log(p[i]));
    const top = [0, 1, 2, 3, 4, 5].sort((a, b) => g[b] - g[a] || a - b);
    expect(await list(random.choice(k, 6, [4], false, p))).toEqual(top.slice(0, 4));
    expect(await list(random.choice(k, 6, [5], false, p))).not.toContain(3);
  }
  // frequencies follow p: each within 5 standard errors of a binomial(n, p_i)
  const n = 20000;
  const draws = await list(random.choice(random.PRNGKey(3), 6, [n], true, p));
  p.forEach((pi, i) => {
    const freq = draws.filter((d) => d === i).length / n;
    expect(Math.abs(freq - pi), `p[${i}]`).toBeLessThanOrEqual(5 * Math.sqrt((pi * (1 - pi)) / n));
  });
  // integer weights are promoted to float32, as promote_dtypes_inexact
  expect(await list(random.choice(random.PRNGKey(1), 6, [7], true, sl.array([1, 0, 2, 0, 0, 1], { dtype: 'int32' })))).toEqual(
    await list(random.choice(random.PRNGKey(1), 6, [7], true, [0.25, 0, 0.5, 0, 0, 0.25].map((v) => v * 4))),
  );
});

test("choice: JAX's testChoice facts (shapes, dtypes, distinct draws without replacement, jit equals eager) and its errors", async () => {
  const k = random.PRNGKey(0);
  const x = np.reshape(np.astype(np.arange(100), 'float32'), [10, 5, 2]);
  for (const [a, axis] of [[100, 0], [x, 0], [x, 1], [x, -1]]) {
    for (const shape of [[], [5], [2, 2]]) {
      for (const replace of [true, false]) {
        for (const weighted of [false, true]) {
          const n = typeof a === 'number' ? a : a.shape[axis < 0 ? axis + 3 : axis];
          if (!replace && shape.reduce((x, y) => x * y, 1) > n) continue; // as JAX's test: an error (checked below)
          const p = weighted ? np.divide(np.add(np.arange(n), 1), (n * (n + 1)) / 2) : null;
          const s = random.choice(k, a, shape, replace, p, axis);
          const ax = axis < 0 ? axis + 3 : axis;
          expect(s.shape).toEqual(typeof a === 'number' ? shape : [...a.shape.slice(0, ax), ...shape, ...a.shape.slice(ax + 1)]);
          expect(s.dtype).toBe(typeof a === 'number' ? 'int32' : 'float32');
          const jitted = await sl.jit((key, arr, w) => random.choice(key, typeof a === 'number' ? a : arr, shape, replace, w, axis))(k, typeof a === 'number' ? 0 : a, p);
          expect(await list(jitted)).toEqual(await list(s));
          if (!replace && shape.length) {
            // distinct slices: the values at one position of the other axes are distinct
            const flat = (await list(np.moveaxis(np.reshape(s, typeof a === 'number' ? [-1] : [...a.shape.slice(0, ax), -1, ...a.shape.slice(ax + 1)]), typeof a === 'number' ? 0 : ax, 0))).map((v) => JSON.stringify(v));
            expect(new Set(flat).size).toBe(flat.length);
          }
        }
      }
    }
  }
  expect((await list(random.choice(k, 5, [0]))).length).toBe(0);
  expect(random.choice(k, x, [0], true, null, 1).shape).toEqual([0]); // JAX's zeros(shape), not a's shape
  expect(() => random.choice(k, 5, 2)).toThrow('shape argument of jax.random.choice must be a sequence, got 2');
  expect(() => random.choice(k, 5, [6], false)).toThrow("Cannot take a larger sample (size 6) than population (size 5) when 'replace=False'");
  expect(() => random.choice(k, 0, [1])).toThrow('a must be greater than 0 unless no samples are taken');
  expect(() => random.choice(k, 5, [2], true, [0.5, 0.5])).toThrow('p must be None or a 1D vector with the same size as a.shape[axis]. p has shape (2,) and a.shape[axis] is 5.');
  expect(() => random.choice(k, x, [2], true, null, 3)).toThrow(/axis 3 is out of range/);
  expect(() => sl.makeJaxpr((n) => random.choice(k, n, [2]))(sl.array(5, { dtype: 'int32' }))).toThrow(/a, the size of the population, is a traced int32 scalar/);
  expect(random.choice(k, sl.array(7, { dtype: 'int32' }), [3]).shape).toEqual([3]); // a concrete scalar array is a size
});

// ---- gamma ----

test("gamma and loggamma: JAX's Marsaglia-Tsang draws (element i from split(key, n)[i]) within a few float32 ulp of the reference", async () => {
  let exact = 0;
  let total = 0;
  for (const [seed, alphas] of [[0, [0.8, 0.8, 0.8, 0.8, 0.8]], [1, [0.1, 0.5, 1, 1.5, 3, 10, 100, 0.01]], [42, Array.from({ length: 40 }, (_, i) => 0.05 + i * 0.3)]]) {
    const key = await keyOf(seed);
    const want = refGamma(key, alphas);
    const got = await list(random.gamma(random.PRNGKey(seed), sl.array(alphas)));
    got.forEach((g, i) => {
      expect(Math.abs(g - want[i]), `seed ${seed}, alpha ${alphas[i]}`).toBeLessThanOrEqual(8 * ulp(want[i]));
      exact += g === want[i] ? 1 : 0;
      total += 1;
    });
    const wantLog = refGamma(key, alphas, true);
    const gotLog = await list(random.loggamma(random.PRNGKey(seed), sl.array(alphas)));
    gotLog.forEach((g, i) => expect(Math.abs(g - wantLog[i]), `log: seed ${seed}, alpha ${alphas[i]}`).toBeLessThanOrEqual(8 * ulp(wantLog[i]) + 1e-6));
  }
  expect(exact / total).toBeGreaterThan(0.9); // almost all are the very same float (all 53 when written)
  // a scalar a broadcast to `shape` draws the same as the array of it
  expect(await list(random.gamma(random.PRNGKey(0), 0.8, [5]))).toEqual(await list(random.gamma(random.PRNGKey(0), sl.array([0.8, 0.8, 0.8, 0.8, 0.8]))));
});

test("gamma: JAX's shape facts, exp(loggamma) = gamma (testGammaVsLogGamma), moments, jit, vmap and typed keys", async () => {
  const k = random.PRNGKey(0);
  expect(random.gamma(k, sl.array([0.2, 0.3]), [3, 2]).shape).toEqual([3, 2]); // testGammaShape
  expect(random.gamma(k, sl.array([[1], [2]])).shape).toEqual([2, 1]);
  expect(random.gamma(k, 2, [0]).shape).toEqual([0]);
  for (const a of [0.1, 1, 10]) {
    const g = await list(random.gamma(k, a, [100]));
    const lg = await list(random.loggamma(k, a, [100]));
    g.forEach((v, i) => expect(Math.abs(Math.exp(lg[i]) - v)).toBeLessThanOrEqual(1e-6 + 1e-6 * v));
  }
  // mean a and variance a; standard errors sqrt(a / n) and a sqrt((2 + 6 / a) / n) (gamma's excess kurtosis is 6 / a)
  const n = 10000;
  for (const [seed, a] of [[1, 0.1], [2, 1], [3, 10]]) {
    const g = await list(random.gamma(random.PRNGKey(seed), a, [n]));
    expect(Math.abs(mean(g) - a), `mean, a=${a}`).toBeLessThan(5 * Math.sqrt(a / n));
    expect(Math.abs(variance(g) - a), `variance, a=${a}`).toBeLessThan(5 * a * Math.sqrt((2 + 6 / a) / n));
    expect(Math.min(...g)).toBeGreaterThanOrEqual(0);
  }
  const eager = await list(random.gamma(k, sl.array([0.5, 2, 7]), [2, 3]));
  expect(await list(await sl.jit((key, a) => random.gamma(key, a, [2, 3]))(k, sl.array([0.5, 2, 7])))).toEqual(eager);
  // vmap over keys draws what each key draws alone; a typed key draws what its data draws
  const keys = random.split(k, 3);
  const perKey = await list(await sl.vmap((kk) => random.gamma(kk, 1.5, [2]))(keys));
  const alone = await Promise.all((await list(keys)).map((kd) => list(random.gamma(sl.array(kd, { dtype: 'uint32' }), 1.5, [2]))));
  expect(perKey).toEqual(alone);
  expect(await list(random.gamma(random.key(0), 1.5, [2]))).toEqual(await list(random.gamma(k, 1.5, [2])));
  // a = 0 gives 0 (loggamma -inf or a finite log, never NaN from 0 * inf)
  expect(await list(random.gamma(k, 0, [3]))).toEqual([0, 0, 0]);
  expect((await list(random.loggamma(k, 0, [3]))).some((v) => Number.isNaN(v))).toBe(false);
  expect(() => random.gamma(k, sl.array([1, 2]), [3])).toThrow('Incompatible shapes for broadcasting: shapes=[(3,), (2,)]');
  expect(() => random.gamma(k, sl.array([1, 2]), [2, 1])).toThrow(
    'gamma parameter shapes must be broadcast-compatible with shape argument, and the result of broadcasting the shapes must equal the shape argument, but got result (2, 2) for shape argument (2, 1).',
  );
  expect(() => random.gamma(k, 1, [2], 'int32')).toThrow('dtype argument to `gamma` must be a float dtype, got int32');
  expect(() => random.loggamma(k, 1, [2], 'int32')).toThrow('dtype argument to `gamma` must be a float dtype, got int32');
});

// ---- gamma's gradient ----

// log Gamma(a) in float64: Lanczos (g = 7, 9 terms, about 15 digits), reflected below 1/2.
const LANCZOS = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];
function lgamma64(a) {
  if (a < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * a))) - lgamma64(1 - a);
  const z = a - 1;
  let s = LANCZOS[0];
  for (let i = 1; i < 9; i++) s += LANCZOS[i] / (z + i);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(s);
}
// The regularized lower incomplete gamma P(a, x) in float64: its series below a + 1, Q's continued fraction (Lentz) above.
function gammaP(a, x) {
  if (x <= 0) return 0;
  const logPrefix = -x + a * Math.log(x) - lgamma64(a);
  if (x < a + 1) {
    let term = 1 / a;
    let sum = term;
    for (let n = 1; n < 100000 && Math.abs(term) > Math.abs(sum) * 1e-17; n++) {
      term *= x / (a + n);
      sum += term;
    }
    return sum * Math.exp(logPrefix);
  }
  let b = x + 1 - a;
  let c = 1 / 1e-300;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 100000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < 1e-300) d = 1e-300;
    c = b + an / c;
    if (Math.abs(c) < 1e-300) c = 1e-300;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < 1e-17) break;
  }
  return 1 - Math.exp(logPrefix) * h;
}

test("gamma's gradient is JAX's implicit reparameterization -(dP/da) / pdf (testGammaGrad's check, rtol 7e-4), under grad, jvp and jit", async () => {
  const k = random.PRNGKey(0);
  for (const logSpace of [false, true]) {
    for (const alpha of [1e-4, 1e-3, 1e-2, 1e-1, 1, 10, 100, 1000, 10000]) {
      const alphas = np.full([100], alpha, 'float32');
      const z = await list(random.gamma(k, alphas));
      const grads = await list(
        logSpace ? sl.grad((a) => np.sum(np.exp(random.loggamma(k, a))))(alphas) : sl.grad((a) => np.sum(random.gamma(k, a)))(alphas),
      );
      const eps = (0.01 * alpha) / (1 + Math.sqrt(alpha));
      z.forEach((x, i) => {
        const cdfDot = (gammaP(alpha + eps, x) - gammaP(alpha - eps, x)) / (2 * eps);
        const pdf = Math.exp((alpha - 1) * Math.log(x) - x - lgamma64(alpha));
        const want = -cdfDot / pdf;
        // JAX's assertAllClose: |got - want| <= atol + rtol |want|, its float32 atol 1e-6
        expect(Math.abs(grads[i] - want), `log ${logSpace}, alpha ${alpha}, x ${x}`).toBeLessThanOrEqual(1e-6 + 7e-4 * Math.abs(want));
      });
    }
  }
  // E[dx/da] = dE[x]/da = 1
  const g = await list(sl.grad((a) => np.sum(random.gamma(random.PRNGKey(5), a)))(np.full([4000], 3, 'float32')));
  expect(Math.abs(mean(g) - 1)).toBeLessThan(0.05);
  // jvp and jit give the same tangents; a constant a under grad contributes nothing (no rule error)
  const alphas = sl.array([0.5, 2, 7]);
  const [, tangent] = sl.jvp((a) => random.gamma(k, a), [alphas], [np.ones([3])]);
  const viaGrad = await list(sl.grad((a) => np.sum(random.gamma(k, a)))(alphas));
  expect(await list(tangent)).toEqual(viaGrad);
  expect(await list(await sl.jit(sl.grad((a) => np.sum(random.gamma(k, a))))(alphas))).toEqual(viaGrad);
  const noise = await list(random.gamma(k, 2, [3]));
  expect(await list(sl.grad((w) => np.sum(np.multiply(w, random.gamma(k, 2, [3]))))(np.ones([3])))).toEqual(noise);
  // testGammaGradType: the vjp of gamma(a) / b runs, with b's cotangent -x / b^2
  const [out, pullback] = sl.vjp((a, b) => np.divide(random.gamma(k, a), b), sl.array(1, { dtype: 'float32' }), sl.array(3, { dtype: 'float32' }));
  const [da, db] = pullback(sl.array(1, { dtype: 'float32' }));
  expect(Number.isFinite((await list(da)))).toBe(true);
  expect(Math.abs((await list(db)) + (await list(out)) / 3)).toBeLessThan(1e-6);
});

test('the printed program holds the sampler as a custom_jvp call over while loops', () => {
  const text = sl.makeJaxpr((a) => random.gamma(random.PRNGKey(0), a))(np.ones([2])).toString();
  expect(text).toContain('custom_jvp_call');
  expect(text).toContain('while');
  expect(sl.makeJaxpr((a) => lax.stopGradient(random.gamma(random.PRNGKey(0), a)))(np.ones([2])).toString()).toContain('threefry2x32');
});
