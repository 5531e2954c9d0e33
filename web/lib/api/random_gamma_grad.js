// The derivative of a Gamma(a) sample x with respect to a, as JAX's
// random_gamma_grad computes it (jax/_src/lax/special.py, itself XLA's
// RandomGammaGrad), for jax.random.gamma's JVP: the implicit
// reparameterization gradient. x = F^-1(u; a) for a fixed uniform u, F = P(a, .)
// the regularized lower incomplete gamma function, so
//   dx/da = -(dP(a, x)/da) / (dP(a, x)/dx),   dP/dx = x^(a-1) e^-x / Gamma(a).
// dP/da comes from P's power series (x <= 1 or x <= a) or from the continued
// fraction of Q = 1 - P (otherwise), each differentiated term by term with
// respect to a in a while_loop, in JAX's operation order. lgamma and
// digamma are XLA's (stablehlo's chlo decompositions): Lanczos'
// approximation with g = 7 and 9 terms, and Euler's reflection below 1/2.
// Everything is elementwise over float32 arrays; JAX maps the scalar rule
// over the elements (lax.map), which gives the same numbers, since each
// element's loop state is frozen once its own iteration has converged.

import * as lax from './lax/index.js';
import * as np from './numpy/index.js';

const EPS = 2 ** -23; // float32's machine epsilon
// -log(float32's largest finite value): below it exp underflows.
const LOG_MAX = Math.fround(Math.log(Math.fround(3.4028234663852886e38)));
const TINY = 1.1754943508222875e-38; // float32's smallest normal number

// Lanczos' approximation: gamma(z + 1) = sqrt(2 pi) t^(z + 1/2) e^-t a(z),
// t = z + g + 1/2, a(z) = c0 + sum_k c_k / (z + k).
const LANCZOS_G = 7;
const LANCZOS_C0 = 0.99999999999980993227684700473478;
const LANCZOS_C = [
  676.520368121885098567009190444019, -1259.13921672240287047156078755283, 771.3234287776530788486528258894, -176.61502916214059906584551354,
  12.507343278686904814458936853, -0.13857109526572011689554707, 9.984369578019570859563e-6, 1.50563273514931155834e-7,
];

// z (x - 1, or -x where x < 1/2 is reflected) and log t(z) = log(g + 1/2) + log1p(z / (g + 1/2)), as XLA computes them.
function lanczosArgument(x) {
  const reflect = np.less(x, 0.5);
  const z = np.where(reflect, np.negative(x), np.subtract(x, 1));
  const t = np.add(LANCZOS_G + 0.5, z);
  const logT = np.add(Math.log(LANCZOS_G + 0.5), np.log1p(np.divide(z, LANCZOS_G + 0.5)));
  return { reflect, z, t, logT };
}

/** lgamma(x), XLA's: log|Gamma(x)| by Lanczos, reflected below 1/2 (lgamma(x) = log(pi) - lgamma(1 - x) - log|sin(pi x)|). */
export function lgamma(x) {
  const { reflect, z, t, logT } = lanczosArgument(x);
  let a = np.full([], LANCZOS_C0, 'float32');
  LANCZOS_C.forEach((c, i) => {
    a = np.add(a, np.divide(c, np.add(z, i + 1)));
  });
  // (z + 1/2) log t - t, as (z + 1/2 - t / log t) log t so that it does not overflow.
  const r = np.multiply(np.subtract(np.add(z, 0.5), np.divide(t, logT)), logT);
  const value = np.add(np.add((Math.log(2) + Math.log(Math.PI)) / 2, r), np.log(a));
  // |sin(pi x)| from x's fractional part, folded into [0, 1/2], so that it is exactly 0 at the integers.
  const absX = np.abs(x);
  let frac = np.subtract(absX, np.floor(absX));
  frac = np.where(np.less(0.5, frac), np.subtract(1, frac), frac);
  const denominator = np.log(np.sin(np.multiply(Math.PI, frac)));
  const reflected = np.where(np.isfinite(denominator), np.subtract(np.subtract(Math.log(Math.PI), denominator), value), np.negative(denominator));
  return np.where(np.isinf(x), Infinity, np.where(reflect, reflected, value));
}

/** digamma(x), XLA's: Lanczos' log t + a'/a - g/t, reflected below 1/2 (digamma(x) = digamma(1 - x) - pi cot(pi x)); NaN at the poles. */
export function digamma(x) {
  const { reflect, z, t, logT } = lanczosArgument(x);
  let a = np.full([], LANCZOS_C0, 'float32');
  let aPrime = np.full([], 0, 'float32');
  LANCZOS_C.forEach((c, i) => {
    const zk = np.add(z, i + 1);
    aPrime = np.subtract(aPrime, np.divide(c, np.multiply(zk, zk)));
    a = np.add(a, np.divide(c, zk));
  });
  const value = np.subtract(np.add(logT, np.divide(aPrime, a)), np.divide(LANCZOS_G, t));
  // pi x is reduced to [-pi/2, pi/2] (x shifted by whole periods) before cot is taken.
  const reduced = np.add(x, np.abs(np.floor(np.add(x, 0.5))));
  const piX = np.multiply(Math.PI, reduced);
  const reflected = np.subtract(value, np.divide(np.multiply(Math.PI, np.cos(piX)), np.sin(piX)));
  const pole = np.logicalAnd(np.lessEqual(x, 0), np.equal(x, np.floor(x)));
  return np.where(pole, NaN, np.where(reflect, reflected, value));
}

// d/da of P(a, x) = e^-x x^a / Gamma(a + 1) sum_n x^n / ((a+1)...(a+n)), over
// the ax-free part: -x (d sum/da + sum dlog(ax)/da) / a, where the sum's
// terms c_n = c_(n-1) x / (a + n) give dc_n/da = dc_(n-1)/da x/r - c_(n-1) x / r^2.
function seriesSampleDerivative(x, a, enabled) {
  const zeros = np.zerosLike(a);
  const ones = np.onesLike(a);
  const [, , , ans, , , dansDa] = lax.whileLoop(
    (vals) => np.any(vals[0]),
    (vals) => {
      const [on, r0, c0, ans0, x0, dcDa0, dansDa0] = vals;
      const r = np.add(r0, 1);
      const dcDa = np.subtract(np.multiply(dcDa0, np.divide(x0, r)), np.divide(np.multiply(c0, x0), np.multiply(r, r)));
      const dansDa = np.add(dansDa0, dcDa);
      const c = np.multiply(c0, np.divide(x0, r));
      const ansNext = np.add(ans0, c);
      const more = np.logicalAnd(on, np.greater(np.abs(np.divide(dcDa, dansDa)), EPS));
      const keep = (next, old) => np.where(on, next, old);
      return [more, keep(r, r0), keep(c, c0), keep(ansNext, ans0), keep(x0, x0), keep(dcDa, dcDa0), keep(dansDa, dansDa0)];
    },
    [enabled, a, ones, ones, x, zeros, zeros],
  );
  const dlogaxDa = np.subtract(np.log(x), digamma(np.add(a, 1)));
  return np.divide(np.multiply(np.negative(np.add(dansDa, np.multiply(ans, dlogaxDa))), x), a);
}

// d/da of Q(a, x) = 1 - P(a, x) through its continued fraction (Cephes'
// igamc: convergents p_k / q_k with p_k = p_(k-1) z - p_(k-2) y c, the same
// recurrence for q), the derivatives of p_k and q_k carried beside them, all
// rescaled by eps when they grow past 1 / eps; at most 2000 steps.
function continuedFractionSampleDerivative(x, a, enabled) {
  const y = np.subtract(1, a);
  const z = np.add(np.add(x, y), 1);
  const c = np.zeros([], 'float32'); // the step count, one for all elements (JAX's _const(x, 0): a scalar)
  const pkm2 = np.onesLike(x);
  const qkm2 = x;
  const pkm1 = np.add(x, 1);
  const qkm1 = np.multiply(z, x);
  const ans = np.divide(pkm1, qkm1);
  const t = np.onesLike(x);
  const dqkm1 = np.negative(x);
  const dpkm1 = np.zerosLike(x);
  const dansDa = np.divide(np.subtract(dpkm1, np.multiply(ans, dqkm1)), qkm1);
  const init = [enabled, ans, t, y, z, c, pkm1, qkm1, pkm2, qkm2, np.zerosLike(x), np.zerosLike(x), dpkm1, dqkm1, dansDa];
  const out = lax.whileLoop(
    (vals) => np.logicalAnd(np.less(vals[5], 2000), np.any(vals[0])),
    (vals) => {
      const [on, ans0, t0, y0, z0, c0, pm1, qm1, pm2, qm2, dpm2, dqm2, dpm1, dqm1, dans0] = vals;
      const cc = np.add(c0, 1);
      const yy = np.add(y0, 1);
      const zz = np.add(z0, 2);
      const yc = np.multiply(yy, cc);
      const pk = np.subtract(np.multiply(pm1, zz), np.multiply(pm2, yc));
      const qk = np.subtract(np.multiply(qm1, zz), np.multiply(qm2, yc));
      const nonzero = np.notEqual(qk, 0);
      const r = np.divide(pk, qk);
      const tt = np.where(nonzero, np.abs(np.divide(np.subtract(ans0, r), r)), 1);
      const ansNext = np.where(nonzero, r, ans0);
      const dpk = np.add(np.subtract(np.subtract(np.multiply(dpm1, zz), pm1), np.multiply(dpm2, yc)), np.multiply(pm2, cc));
      const dqk = np.add(np.subtract(np.subtract(np.multiply(dqm1, zz), qm1), np.multiply(dqm2, yc)), np.multiply(qm2, cc));
      const dansNext = np.where(nonzero, np.divide(np.subtract(dpk, np.multiply(ansNext, dqk)), qk), dans0);
      const gradConditional = np.where(nonzero, np.abs(np.subtract(dansNext, dans0)), 1);
      // Shift the recurrences; rescale them all by eps once p_k passes 1 / eps.
      const rescale = np.greater(np.abs(pk), 1 / EPS);
      const scaled = (v) => np.where(rescale, np.multiply(v, EPS), v);
      const [npm2, npm1, nqm2, nqm1] = [pm1, pk, qm1, qk].map(scaled);
      const [ndpm2, ndqm2, ndpm1, ndqm1] = [dpm1, dqm1, dpk, dqk].map(scaled);
      const more = np.logicalAnd(on, np.greater(gradConditional, EPS));
      const keep = (next, old) => np.where(on, next, old);
      return [
        more,
        keep(ansNext, ans0),
        keep(tt, t0),
        keep(yy, y0),
        keep(zz, z0),
        cc,
        keep(npm1, pm1),
        keep(nqm1, qm1),
        keep(npm2, pm2),
        keep(nqm2, qm2),
        keep(ndpm2, dpm2),
        keep(ndqm2, dqm2),
        keep(ndpm1, dpm1),
        keep(ndqm1, dqm1),
        keep(dansNext, dans0),
      ];
    },
    init,
  );
  const dlogaxDa = np.subtract(np.log(x), digamma(a));
  return np.negative(np.multiply(np.add(out[14], np.multiply(out[1], dlogaxDa)), x));
}

/** JAX's random_gamma_grad(a, x): dx/da for a Gamma(a) sample x (float32 arrays of one shape); 0 at x = 0, NaN outside a > 0, x >= 0. */
export function randomGammaGrad(a, x) {
  const isNan = np.logicalOr(np.isnan(a), np.isnan(x));
  const xIsZero = np.equal(x, 0);
  const domainError = np.logicalOr(np.less(x, 0), np.lessEqual(a, 0));
  const useContinuedFraction = np.logicalAnd(np.greater(x, 1), np.greater(x, a));
  // log(ax), ax = x^a e^-x / Gamma(a): where it underflows, the derivative is left at its loops' start.
  const logAx = np.subtract(np.subtract(np.multiply(a, np.log(x)), x), lgamma(a));
  const underflow = np.less(logAx, -LOG_MAX);
  const enabled = np.logicalNot(np.logicalOr(np.logicalOr(np.logicalOr(xIsZero, domainError), underflow), isNan));
  const output = np.where(
    useContinuedFraction,
    np.negative(continuedFractionSampleDerivative(x, a, np.logicalAnd(enabled, useContinuedFraction))),
    seriesSampleDerivative(x, a, np.logicalAnd(enabled, np.logicalNot(useContinuedFraction))),
  );
  return np.where(np.logicalOr(domainError, isNan), NaN, np.where(xIsZero, 0, output));
}

/**
 * JAX's _gamma_grad(sample, a, log_space): d sample / da for gamma's samples;
 * for loggamma's (log x) it is dx/da / x, x = exp(sample) kept at least the
 * smallest normal float so that the quotient stays finite.
 */
export function gammaGrad(sample, a, logSpace) {
  if (!logSpace) return randomGammaGrad(a, sample);
  const e = np.exp(sample);
  const x = np.where(np.equal(e, 0), TINY, e);
  return np.divide(randomGammaGrad(a, x), x);
}
