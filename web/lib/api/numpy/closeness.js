// np.isclose and np.allclose: elementwise closeness within a tolerance, as
// jnp's, whose rule (numpy's) is |a - b| <= atol + rtol * |b|, with infinities
// close only to the same infinity and NaN close to nothing (to NaN too, with
// equalNan); integers compare exactly.

import { defop } from '../core/op.js';
import { avalOf, literalTracer, resultType, traceFor } from '../core/operands.js';
import { logicalAnd, logicalNot, logicalOr } from './bitwise.js';
import { elementwise } from './helpers.js';
import { abs, add, all, equal, isinf, isnan, lessEqual, multiply, subtract } from './math.js';
import { isFloat } from '../../dtypes.js';

/** np.isclose(a, b, rtol = 1e-5, atol = 1e-8, equalNan = false): whether each pair of elements is close (bool, broadcast). */
export const isclose = defop('isclose', 2, (a, b, rtol = 1e-5, atol = 1e-8, equalNan = false) => {
  const type = resultType([avalOf(a, 'np.isclose'), avalOf(b, 'np.isclose')]);
  if (!isFloat(type.dtype)) return equal(a, b);
  const [x, y] = elementwise('isclose', [a, b], type);
  // The tolerances are constants of the operands' dtype, as JAX converts them.
  const t = traceFor('isclose');
  const [r, at] = [literalTracer(t, rtol, type.dtype), literalTracer(t, atol, type.dtype)];
  let out = lessEqual(abs(subtract(x, y)), add(at, multiply(r, abs(y))));
  const [xInf, yInf] = [isinf(x), isinf(y)];
  out = logicalAnd(out, logicalNot(logicalOr(xInf, yInf)));
  out = logicalOr(out, logicalAnd(logicalAnd(xInf, yInf), equal(x, y)));
  const [xNan, yNan] = [isnan(x), isnan(y)];
  out = logicalAnd(out, logicalNot(logicalOr(xNan, yNan)));
  return equalNan ? logicalOr(out, logicalAnd(xNan, yNan)) : out;
});

/** np.allclose(a, b, rtol, atol, equalNan): whether every pair of elements is close (a bool scalar), as all(isclose(...)). */
export const allclose = defop('allclose', 2, (a, b, rtol = 1e-5, atol = 1e-8, equalNan = false) => all(isclose(a, b, rtol, atol, equalNan)));
