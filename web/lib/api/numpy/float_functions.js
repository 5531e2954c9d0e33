// jnp's float functions written from other primitives, each as JAX writes
// it (operands promoted to float32 first, keeping a weak type): fmax, fmin,
// signbit, copysign, hypot, heaviside, sinc, deg2rad, rad2deg, fabs,
// isposinf, isneginf and logaddexp2.

import { defop } from '../core/op.js';
import { avalOf, literalTracer, resultType, traced, traceFor } from '../core/operands.js';
import { customJvp } from '../custom.js';
import { logaddexp } from './logaddexp.js';
import { asDtype, emitHere, selectWhere as where } from './helpers.js';
import { abs, add, broadcastTo, divide, equal, greater, isnan, less, maximum, minimum, multiply, negative, sin, sqrt, square } from './math.js';
import { logicalOr } from './bitwise.js';
import { inexactDtype, isFloat, isInteger } from '../../dtypes.js';

// x as a float traced value (an integer or bool converted to float32, a weak type kept).
function inexact(x, fn) {
  const v = traced(traceFor(fn), x, fn);
  return asDtype(v, inexactDtype(v.dtype), v.weakType);
}
// x1 and x2 promoted together, then to a float dtype (JAX's promote_args_inexact).
function inexactPair(x1, x2, fn) {
  const t = traceFor(fn);
  const { dtype, weak } = resultType([avalOf(x1, fn), avalOf(x2, fn)]);
  const [a, b] = [asDtype(traced(t, x1, fn), dtype, weak), asDtype(traced(t, x2, fn), dtype, weak)];
  return [asDtype(a, inexactDtype(dtype), weak), asDtype(b, inexactDtype(dtype), weak)];
}
// A constant of `like`'s float dtype (float32 beside no float), as JAX's _lax_const
// makes it: weak when `like` is a weakly typed scalar (so the result stays weak), else strong.
const constant = (value, like) =>
  literalTracer(traceFor('constant'), value, inexactDtype(like?.dtype), Boolean(like?.weakType && like.ndim === 0));
// An all-false bool array of x's shape, strong (JAX's full_like(x, False, dtype=bool)).
const allFalse = (x, fn) => broadcastTo(literalTracer(traceFor(fn), false, 'bool'), x.shape);

/** jnp.fmax(x1, x2): the larger element, a NaN losing to a number (where(x1 > x2 | isnan(x2), x1, x2)). */
export const fmax = defop('fmax', 2, (x1, x2) => where(logicalOr(greater(x1, x2), isnan(x2)), x1, x2));
/** jnp.fmin(x1, x2): the smaller element, a NaN losing to a number. */
export const fmin = defop('fmin', 2, (x1, x2) => where(logicalOr(less(x1, x2), isnan(x2)), x1, x2));

/** jnp.signbit(x): whether the sign bit is set (-0.0 and -nan included); integers x < 0; bools never. */
export const signbit = defop('signbit', 1, (x) => {
  const t = traceFor('signbit');
  const v = traced(t, x, 'signbit');
  if (v.dtype === 'bool') return allFalse(v, 'signbit');
  if (isInteger(v.dtype)) return less(v, 0);
  const bits = emitHere('signbit', 'bitcast_convert_type', { new_dtype: 'int32' }, [v]);
  const sign = emitHere('signbit', 'shift_right_arithmetic', {}, [bits, literalTracer(t, 31, 'int32')]);
  return asDtype(sign, 'bool', false);
});

/** jnp.copysign(x1, x2): |x1| with x2's sign (float32). */
export const copysign = defop('copysign', 2, (x1, x2) => {
  const [a, b] = inexactPair(x1, x2, 'copysign');
  return where(signbit(b), negative(abs(a)), abs(a));
});

/** jnp.hypot(x1, x2): sqrt(x1^2 + x2^2) without overflow: M * sqrt(1 + (m / M)^2) of the larger and smaller magnitudes. */
export const hypot = defop('hypot', 2, (x1, x2) => {
  let [a, b] = inexactPair(x1, x2, 'hypot');
  [a, b] = [abs(a), abs(b)];
  const inf = logicalOr(equal(a, Infinity), equal(b, Infinity));
  [a, b] = [maximum(a, b), minimum(a, b)];
  const zero = equal(a, 0);
  const r = where(zero, a, multiply(a, sqrt(add(1, square(divide(b, where(zero, 1, a)))))));
  return where(inf, constant(Infinity, r), r);
});

/** jnp.heaviside(x1, x2): 0 where x1 < 0, 1 where x1 > 0, x2 where x1 is 0 (NaN stays NaN). */
export const heaviside = defop('heaviside', 2, (x1, x2) => {
  const [a, b] = inexactPair(x1, x2, 'heaviside');
  return where(less(a, 0), constant(0, a), where(greater(a, 0), constant(1, a), where(isnan(a), a, b)));
});

/** jnp.deg2rad(x): x * (pi / 180) (one float32 constant, as JAX's). */
export const deg2rad = defop('deg2rad', 1, (x) => {
  const v = inexact(x, 'deg2rad');
  return multiply(v, constant(Math.PI / 180, v));
});
/** jnp.rad2deg(x): x * (180 / pi). */
export const rad2deg = defop('rad2deg', 1, (x) => {
  const v = inexact(x, 'rad2deg');
  return multiply(v, constant(180 / Math.PI, v));
});
/** jnp.fabs(x): |x| as a float. */
export const fabs = defop('fabs', 1, (x) => abs(inexact(x, 'fabs')));

// isposinf and isneginf: floats equal to the infinity; integers and bools never.
function isInfinity(name, infinity) {
  return defop(name, 1, (x) => {
    const v = traced(traceFor(name), x, name);
    return isFloat(v.dtype) ? equal(v, literalTracer(traceFor(name), infinity, v.dtype)) : allFalse(v, name);
  });
}
/** jnp.isposinf(x): whether each element is +inf. */
export const isposinf = isInfinity('isposinf', Infinity);
/** jnp.isneginf(x): whether each element is -inf. */
export const isneginf = isInfinity('isneginf', -Infinity);

/** jnp.logaddexp2(x1, x2): log2(2^x1 + 2^x2) = logaddexp(x1 ln 2, x2 ln 2) / ln 2, without overflow. */
export const logaddexp2 = defop('logaddexp2', 2, (x1, x2) => {
  const [a, b] = inexactPair(x1, x2, 'logaddexp2');
  const ln2 = constant(Math.LN2, a);
  return divide(logaddexp(multiply(a, ln2), multiply(b, ln2)), ln2);
});

// The k-th derivative of sin(x)/x at 0 (as a function of x, so its JVP gives
// the next): 0 for odd k, (-1)^(k/2) / (k + 1) for even k. JAX's
// _sinc_maclaurin, which makes every derivative of sinc at 0 finite.
const maclaurins = new Map();
function maclaurin(k) {
  if (!maclaurins.has(k)) {
    const f = customJvp((x) => (k % 2 ? multiply(x, 0) : add(multiply(x, 0), constant((-1) ** (k / 2) / (k + 1), x))), { name: `sinc_maclaurin${k}` });
    f.defjvp(([x], [t]) => [f(x), multiply(maclaurin(k + 1)(x), t)], { name: `sinc_maclaurin${k}_jvp` });
    maclaurins.set(k, f);
  }
  return maclaurins.get(k);
}

/** jnp.sinc(x): sin(pi x) / (pi x), 1 at 0, with every derivative finite there. */
export const sinc = defop('sinc', 1, (x) => {
  const v = inexact(x, 'sinc');
  const zero = equal(v, 0);
  const piX = multiply(constant(Math.PI, v), v);
  const safe = where(zero, constant(1, v), piX);
  return where(zero, maclaurin(0)(piX), divide(sin(safe), safe));
});
